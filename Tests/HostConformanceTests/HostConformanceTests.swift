import BridgeContracts
import JSONCore
import Testing
import TestSupport
@testable import HostConformance

/// The cases and judges of `bridgectl verify`, against host doubles that answer with fixed lines.
@Suite struct HostConformanceTests {
    /// A host that answers every input with the same output lines (or fails).
    struct FixedHost: HostLauncher {
        let answer: Result<[String], HostRunError>
        func run(input: [String]) -> Result<[String], HostRunError> { answer }
    }

    static let hello = #"{"type":"hello","protocol":1,"host":"double","levels":["core"]}"#
    static func contracts() throws -> ContractSet { try ContractSet.load(directory: RepositoryPaths.contracts.path) }

    @Test func theHandshakeNeedsAHelloOfTheSameVersion() {
        if case .failure(let error) = ConformanceRun.handshake(FixedHost(answer: .success([]))) {
            #expect(error.message == "the host did not answer the hello line with {\"type\":\"hello\",...}; it wrote nothing")
        } else { Issue.record("a silent host passed the handshake") }
        if case .failure(let error) = ConformanceRun.handshake(FixedHost(answer: .success([#"{"type":"hello","protocol":2}"#]))) {
            #expect(error.message == "the host speaks protocol 2; verify speaks 1")
        } else { Issue.record("protocol 2 passed the handshake") }
        if case .failure(let error) = ConformanceRun.handshake(FixedHost(answer: .failure(HostRunError("cannot start x")))) {
            #expect(error.message == "cannot start x")
        } else { Issue.record("a host that cannot start passed the handshake") }
        guard case .success = ConformanceRun.handshake(FixedHost(answer: .success([Self.hello]))) else {
            Issue.record("a good hello failed the handshake")
            return
        }
    }

    @Test func everyCaseStartsWithHelloAndItsSetup() throws {
        let suite = ConformanceSuite(contracts: try Self.contracts())
        let gate = try #require(suite.cases.first { $0.name == "login gate: logged out, then login" })
        let first = try JSONValue(parsing: gate.input[0])
        #expect(first == ["type": "hello", "protocol": 1, "setup": ["loggedIn": false]])
        #expect(gate.input.count == gate.lines.count + 1)
        #expect(ConformanceCase.lineNumber(ofLineAt: 0) == 2)
    }

    /// A refusal must be an error reply with the code asked for: a success, or an error of
    /// another code, is named; with the id asked for, a reply without it is named too.
    @Test func aRefusalNeedsTheErrorCodeAskedFor() {
        func refused(_ reply: String, id: String? = nil) -> [String] {
            Judge.refused(HostTranscript(output: [reply]), line: 2, what: "it", code: "ORIGIN_REJECTED", id: id)
        }
        let right = #"{"type":"reply","line":2,"id":"a","ok":false,"error":{"code":"ORIGIN_REJECTED","message":"no"}}"#
        #expect(refused(right) == [])
        #expect(refused(right, id: "a") == [])
        let otherCode = right.replacingOccurrences(of: "ORIGIN_REJECTED", with: "INVALID_MESSAGE")
        #expect(refused(otherCode).count == 1 && refused(otherCode)[0].hasPrefix("expected it refused with ORIGIN_REJECTED, got "), "\(refused(otherCode))")
        let success = #"{"type":"reply","line":2,"id":"a","ok":true,"result":{}}"#
        #expect(refused(success).count == 1 && refused(success)[0].hasPrefix("expected it refused with ORIGIN_REJECTED, got "))
        #expect(refused(right, id: "b") == [#"expected the reply to it to carry id "b", got "a""#])
    }

    @Test func oneReplyIsRequiredNotNoneNorTwo() {
        let reply = #"{"type":"reply","line":2,"id":"a","ok":true,"result":{}}"#
        for count in 0...3 {
            let (found, problems) = Judge.oneReply(HostTranscript(output: Array(repeating: reply, count: count)), line: 2, what: "it")
            #expect((found != nil) == (count > 0))
            #expect(problems.isEmpty == (count == 1), "\(count) replies: \(problems)")
        }
        let (_, other) = Judge.oneReply(HostTranscript(output: [reply]), line: 3, what: "it")
        #expect(other == ["no reply to it (input line 3)"])
    }

    @Test func protocolBreachesFailEveryCase() throws {
        let suite = ConformanceSuite(contracts: try Self.contracts(), upTo: .core)
        let testCase = try #require(suite.cases.first)
        let breaches: [[String]: String] = [
            ["not json", Self.hello]: "an output line that is not a JSON object with a \"type\": not json",
            [Self.hello, Self.hello]: "2 hello lines came back for one hello",
            [#"{"type":"error","line":1,"message":"setup refused"}"#]: "no hello line came back",
        ]
        for (output, expected) in breaches {
            let problems = testCase.problems(in: HostTranscript(output: output))
            #expect(problems.contains(expected), "\(output): \(problems)")
        }
        let refused = testCase.problems(in: HostTranscript(output: [Self.hello, #"{"type":"error","line":1,"message":"no"}"#]))
        #expect(refused.contains("the hello line was refused: no"))
    }

    /// A line of only spaces, tabs and carriage returns is no output; anything else that is not
    /// a typed JSON object is unreadable, in order.
    @Test func blankLinesAreNoOutputAndOtherLinesAreReadOrUnreadable() {
        let transcript = HostTranscript(output: ["", " ", "\r", "\t", " \t\r ", Self.hello, "{}", "\r\n", #"{"type":1}"#, " x "])
        #expect(transcript.lines.count == 1)
        #expect(transcript.unreadable == ["{}", "\r\n", #"{"type":1}"#, " x "])
    }

    /// The hostile messages' sizes are exact: the nested one is `depth` deep (the object counts
    /// as one), the padded one `size` bytes, so "one over the limit" is one over and no more.
    @Test(arguments: [2, 3, 32, 33])
    func theHostileCasesNestAndPadToExactlyTheSizeAsked(_ n: Int) throws {
        let text = #"{"v":1,"a":"b"}"#
        func depth(_ json: String) -> Int {
            var deepest = 0, open = 0
            for character in json where "[{]}".contains(character) {
                open += "[{".contains(character) ? 1 : -1
                deepest = max(deepest, open)
            }
            return deepest
        }
        let nested = MessageCases.nested(text, depth: n)
        #expect(depth(nested) == n, "\(nested)")
        #expect(try JSONValue(parsing: nested)["v"] == 1)
        let padded = MessageCases.padded(text, to: text.utf8.count + n)
        #expect(padded.utf8.count == text.utf8.count + n)
        #expect(try JSONValue(parsing: padded) == JSONValue(parsing: text))
    }

    @Test func aHostThatFailsACaseFailsItWithTheReason() throws {
        let testCase = try #require(ConformanceSuite(contracts: try Self.contracts()).cases.first)
        let result = ConformanceRun.run(testCase, on: FixedHost(answer: .failure(HostRunError("the host exited with status 3"))))
        #expect(result.problems == ["the host failed: the host exited with status 3"])
        #expect(!result.passed)
    }

    @Test func theLoginGateComesFromARouteNeedingLoginWhenNoFixtureShowsIt() throws {
        let contracts = try Self.contracts()
        let withoutShown = contracts.fixtures.filter { !$0.path.contains("logged-out") }
        let picks = FixturePicks(fixtures: withoutShown, routes: contracts.routes)
        let gated = try #require(picks.gated)
        #expect(gated.fixture.authenticated)
        #expect(gated.route == gated.fixture.expect.navigation?["route"])
        let none = FixturePicks(fixtures: withoutShown, routes: [])
        #expect(none.gated == nil)
        let cases = NavigationCases.cases(none, manifest: contracts.manifest)
        #expect(cases.unbuilt.map(\.name).contains("login gate: logged out, then login"))
    }

    /// Without a valid event fixture the cases of where events may go cannot be built: they are
    /// named as not run, with what to add, and with one they are built and nothing is named.
    @Test func theEventPlacesAreNotRunWithoutAValidEventFixture() throws {
        let contracts = try Self.contracts()
        let picks = FixturePicks(fixtures: contracts.fixtures, routes: contracts.routes)
        let invalidOnly = contracts.eventFixtures.filter { !$0.valid }
        #expect(!invalidOnly.isEmpty && invalidOnly.count < contracts.eventFixtures.count)
        let without = EventCases.cases(invalidOnly, picks: picks, manifest: contracts.manifest)
        let notRun = without.unbuilt.filter { $0.name == "where events may go" }
        #expect(notRun.map(\.reason) == ["no valid event fixture in this contract set (add one)"])
        #expect(notRun.first?.level == .events)
        let with = EventCases.cases(contracts.eventFixtures, picks: picks, manifest: contracts.manifest)
        #expect(!with.unbuilt.contains { $0.name == "where events may go" })
        #expect(with.built.count > without.built.count)
    }

    /// Without a request parked for login there is no navigation_completed to expect: the case
    /// is named as not run, with what to add; with one it is built.
    @Test func navigationCompletedIsNotRunWithoutAGatedFixture() throws {
        let contracts = try Self.contracts()
        let ungated = FixturePicks(fixtures: contracts.fixtures.filter { !$0.path.contains("logged-out") }, routes: [])
        #expect(ungated.gated == nil)
        let without = EventCases.cases(contracts.eventFixtures, picks: ungated, manifest: contracts.manifest)
        let notRun = without.unbuilt.filter { $0.name == "navigation_completed" }
        #expect(notRun.map(\.reason) == ["no fixture of a logged-out request answered pendingLogin, nor of one navigating to a route that requires login (add one)"])
        #expect(notRun.first?.level == .events)
        let with = EventCases.cases(contracts.eventFixtures, picks: FixturePicks(fixtures: contracts.fixtures, routes: contracts.routes),
                                    manifest: contracts.manifest)
        #expect(!with.unbuilt.contains { $0.name == "navigation_completed" })
        #expect(with.built.count > without.built.count)
    }

    /// A case not built is named at its own level and every level above, never below.
    @Test func anUnbuiltCaseIsNamedUpToItsLevelAndNotBelow() throws {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        for path in files.keys where path.hasPrefix("event-fixtures/") && path.contains("/valid-") { files[path] = nil }
        let contracts = try ContractSet(files: files, origin: "no valid event fixture")
        func unbuilt(_ level: ConformanceLevel) -> [String] {
            ConformanceSuite(contracts: contracts, upTo: level).unbuilt.map(\.name)
        }
        #expect(unbuilt(.events).contains("where events may go"))
        #expect(!unbuilt(.navigation).contains("where events may go"))
        #expect(!unbuilt(.core).contains("where events may go"))
        #expect(ConformanceSuite(contracts: contracts, upTo: .events).cases.contains { $0.level == .events })
        #expect(!ConformanceSuite(contracts: contracts, upTo: .navigation).cases.contains { $0.level == .events })
    }

    @Test func theLevelsNest() throws {
        let contracts = try Self.contracts()
        let counts = ConformanceLevel.allCases.map { ConformanceSuite(contracts: contracts, upTo: $0).cases.count }
        #expect(counts[0] < counts[1] && counts[1] < counts[2])
        #expect(ConformanceSuite(contracts: contracts, upTo: .core).cases.allSatisfy { $0.level == .core })
    }

    @Test func theSizeCasesSitAtTheLimitAndOneEachSide() throws {
        let contracts = try Self.contracts()
        let limit = contracts.manifest.limits.maxMessageBytes
        let cases = ConformanceSuite(contracts: contracts, upTo: .core).cases
        for size in [limit - 1, limit, limit + 1] {
            let named = cases.first { $0.name.contains("\(size) byte") || $0.name.contains("a message of \(size) bytes") || ($0.name.contains("one byte over") && size == limit + 1) }
            let testCase = try #require(named, "no case at \(size) bytes")
            let body = try #require(testCase.lines.first?["body"]?.stringValue)
            #expect(body.utf8.count == size)
        }
    }

    /// At a cold start the person is logged in, so only the ready gate can hold the request.
    @Test func theColdStartCasesAreLoggedIn() throws {
        let cases = ConformanceSuite(contracts: try Self.contracts()).cases.filter { $0.name.hasPrefix("cold start") }
        #expect(cases.count == 2)
        for testCase in cases {
            let hello = try JSONValue(parsing: testCase.input[0])
            #expect(hello["setup"] == ["loggedIn": true, "appState": "coldStart"], "\(testCase.name)")
        }
    }

    @Test func aValidEventMustReachThePageExactlyOnceAsWritten() throws {
        let contracts = try Self.contracts()
        let fixture = try #require(contracts.eventFixtures.first { $0.valid })
        let testCase = try #require(ConformanceSuite(contracts: contracts).cases.first { $0.name == fixture.path })
        let body = fixture.message.serialized()
        let posted = #"{"type":"page-event","# + body.dropFirst()
        for count in 0...3 {
            let problems = testCase.problems(in: HostTranscript(output: [Self.hello] + Array(repeating: posted, count: count)))
            if count == 1 {
                #expect(problems.isEmpty, "\(problems)")
            } else {
                #expect(problems == ["expected the page to get the event once, got \(count) page-event lines"])
            }
        }
        let changed = #"{"type":"page-event","event":"login_state_changed","version":1,"payload":{}}"#
        let problems = testCase.problems(in: HostTranscript(output: [Self.hello, changed]))
        #expect(problems.count == 1 && problems[0].hasPrefix("expected the page to get \(body), got "), "\(problems)")
    }
}
