import Testing
import BridgeContracts
import BridgeHostTesting
import JSONCore
import TestSupport

@Suite("Contract fixtures through the mock host")
@MainActor
struct FixtureTests {
    nonisolated static let fixtures: [Fixture] = (try? repositoryContracts().fixtures) ?? []

    @Test("the fixtures are there")
    func fixturesLoaded() throws {
        let contracts = try repositoryContracts()
        #expect(contracts.fixtures.count >= 40)
        #expect(contracts.fixtures.contains { $0.expect.valid })
        #expect(contracts.fixtures.contains { !$0.expect.valid })
    }

    @Test("each fixture: verdict, code, error locations, navigation and reply as expected", arguments: fixtures.map(\.path))
    func fixture(path: String) throws {
        let contracts = try repositoryContracts()
        let fixture = try #require(contracts.fixtures.first { $0.path == path })
        let outcome = try Scenario(fixture: fixture).run(contracts: contracts)
        let problems = FixtureCheck.problems(fixture, outcome: outcome)
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "; "))")
        // Invalid messages change nothing.
        if !fixture.expect.valid {
            #expect(outcome.host.navigations.isEmpty)
            #expect(outcome.host.navigator.log.entries.isEmpty)
        }
    }

    @Test("the checker itself notices a wrong expectation")
    func checkerCatchesMismatch() throws {
        let contracts = try repositoryContracts()
        let valid = try #require(contracts.fixtures.first { $0.path.hasSuffix("apply/v1/valid-basic.json") })
        var scenario = try Scenario(fixture: valid)
        scenario.origin = "https://evil.example"
        let problems = FixtureCheck.problems(valid, outcome: try scenario.run(contracts: contracts))
        #expect(!problems.isEmpty)
        #expect(FixtureCheck.subsetMismatch(expected: ["a": ["b": 1]], actual: ["a": ["b": 2, "c": 3]], at: "x") == "x/a/b: expected 1, got 2")
        #expect(FixtureCheck.subsetMismatch(expected: ["a": ["b": 1]], actual: ["a": ["b": 1, "c": 3]], at: "x") == nil)
    }

    @Test("a reply other than the fixture expects is named at the member that differs")
    func aWrongReplyIsNamed() throws {
        var files = try ExampleContracts.files()
        let path = "fixtures/apply/v1/valid-basic.json"
        files[path] = files[path]!.replacingOccurrences(of: #""pendingLogin": false"#, with: #""pendingLogin": true"#)
        let contracts = try ContractSet(files: files, origin: "test copy")
        let fixture = try #require(contracts.fixtures.first { $0.path == path })
        let problems = FixtureCheck.problems(fixture, outcome: try Scenario(fixture: fixture).run(contracts: contracts))
        #expect(problems == ["reply/result/pendingLogin: expected true, got false"])
    }

    /// The problems of the example fixture at `path` with its `expect` member `key` set to `value`.
    func problems(_ path: String, expecting key: String, _ value: JSONValue) throws -> [String] {
        var files = try ExampleContracts.files()
        guard case .object(var fixture) = try JSONValue(parsing: files[path]!), case .object(var expect)? = fixture["expect"] else {
            Issue.record("\(path) is no fixture object")
            return []
        }
        expect[key] = value
        fixture["expect"] = .object(expect)
        files[path] = JSONValue.object(fixture).prettyPrinted()
        let contracts = try ContractSet(files: files, origin: "test copy")
        let changed = try #require(contracts.fixtures.first { $0.path == path })
        return FixtureCheck.problems(changed, outcome: try Scenario(fixture: changed).run(contracts: contracts))
    }

    @Test("each expectation a host does not meet is named: the code, a navigation or none, what opened outside the app")
    func eachUnmetExpectationIsNamed() throws {
        let basic = "fixtures/apply/v1/valid-basic.json", loggedOut = "fixtures/apply/v1/valid-logged-out.json"
        let plan = "fixtures/apply/v1/invalid-unknown-plan.json", kakao = "fixtures/open_directions/v1/valid-kakaomap-installed.json"
        #expect(try problems(plan, expecting: "code", "UNKNOWN_ACTION").first?.hasPrefix("expected code UNKNOWN_ACTION, got INVALID_PARAMS: ") == true)
        #expect(try problems(basic, expecting: "navigation", .null) == [#"expected no navigation, got ["applyForm"]"#])
        #expect(try problems(basic, expecting: "navigation", ["route": "orderDetail"]) == [#"navigation/route: expected "orderDetail", got "applyForm""#])
        #expect(try problems(loggedOut, expecting: "navigation", ["route": "applyForm"]) == ["expected a navigation, got none"])
        #expect(try problems(basic, expecting: "reply", .null).first?.hasPrefix("expected no reply, got {") == true)
        #expect(try problems(kakao, expecting: "external", .null) == ["expected nothing opened outside the app, got [\"kakaomap://route?ep=37.4979502,127.0276368&by=CAR\"]"])
        #expect(try problems(basic, expecting: "external", ["provider": "kakaomap"]).first?.hasPrefix("expected an external open, got none") == true)
        #expect(try problems(kakao, expecting: "external", ["provider": "kakaomap", "target": "web"])
                == [#"external/target: expected "web", got "app""#])
        // Unchanged, each passes: the problems above are the changes, not the fixtures.
        for path in [basic, loggedOut, plan, kakao] {
            #expect(try problems(path, expecting: "valid", try JSONValue(parsing: ExampleContracts.files()[path]!)["expect"]!["valid"]!).isEmpty)
        }
    }

    @Test("a fixture expecting a reply to a message the host does not answer says the reply is missing")
    func aMissingReplyIsNamed() throws {
        var files = try ExampleContracts.files()
        let path = "fixtures/view_vehicles/v1/valid-notification.json"
        files[path] = files[path]!.replacingOccurrences(of: #""reply": null"#, with: #""reply": {"ok": true}"#)
        let contracts = try ContractSet(files: files, origin: "test copy")
        let notification = try #require(contracts.fixtures.first { $0.path == path })
        let problems = FixtureCheck.problems(notification, outcome: try Scenario(fixture: notification).run(contracts: contracts))
        #expect(problems == ["expected a reply, got none"])
    }
}
