import JSONCore
import BridgeContracts
import BridgeHostTesting
import SchemaCheck
import Testing

/// The JSON-lines host protocol as a library: a session over a mock host, fed lines in process
/// (what `bridgectl host --stdio` does over its standard streams).
@MainActor @Suite struct HostSessionTests {
    /// Runs the lines through a fresh session on a manual clock and returns the output objects.
    func session(_ lines: [String], loggedIn: Bool = true, acknowledge: Bool = false) throws -> [JSONValue] {
        let host = try MockBridgeHost(contracts: repositoryContracts(), loggedIn: loggedIn, retention: .streaming)
        var written: [String] = []
        let session = HostSession(host: host, defaultOrigin: "https://sendy.co.kr", manualClock: true,
                                  acknowledgeLines: acknowledge) { written.append($0) }
        var input = HostSessionLines(lines)
        session.run(input: &input) { _ in Issue.record("a manual-clock session never sleeps") }
        #expect(written.allSatisfy { $0.hasSuffix("\n") && $0.dropLast().contains("\n") == false })
        return try written.map { try JSONDocument(String($0.dropLast()), limits: .unlimited).value }
    }

    static let apply = #"{"type":"message","body":{"v":1,"id":"lib-000001","action":"apply","version":1,"payload":{"slug":"new-user-promo"}}}"#

    @Test func aReplyNamesTheInputLineOfItsMessageAndUsesTheDefaultOrigin() throws {
        let output = try session([#"{"type":"open","url":null}"#, Self.apply])
        let reply = try #require(output.first { $0["type"] == "reply" })
        #expect(reply["line"] == 2)
        #expect(reply["id"] == "lib-000001")
    }

    @Test func anUnreadableMessageTextGetsAReplyLineWithTheIDItShows() throws {
        // The body as text: the page's JSON with a lone surrogate escape, which the app cannot parse.
        let cut = #"{"type":"message","body":"{\"v\":1,\"id\":\"lib-cut-0001\",\"action\":\"apply\",\"version\":1,\"payload\":{\"slug\":\"new-user-promo\",\"memo\":\"hi \\ud83d\"}}"}"#
        let output = try session([#"{"type":"open","url":null}"#, cut])
        let reply = try #require(output.first { $0["type"] == "reply" })
        #expect(reply["line"] == 2)
        #expect(reply["id"] == "lib-cut-0001")
        #expect(reply["error"]?["code"] == "INVALID_MESSAGE")
        #expect(reply["error"]?["message"]?.stringValue?.contains("lone UTF-16 surrogate") == true)
    }

    @Test func aBadLineGetsAnErrorLineNamingItAndTheSessionGoesOn() throws {
        let output = try session(["not json", #"{"type":"teleport"}"#, "[1]", #"{"no":"type"}"#, "   ", Self.apply])
        let errors = output.filter { $0["type"] == "error" }
        #expect(errors.map { $0["line"] } == [1, 2, 3, 4])
        #expect(errors[1]["message"]?.stringValue == "unknown type \"teleport\" (\(HostSession.inputTypes))")
        #expect(errors[3]["message"]?.stringValue == "missing \"type\" (\(HostSession.inputTypes))")
        #expect(output.contains { $0["type"] == "reply" && $0["line"] == 6 })
    }

    @Test func everyLineIsAcknowledgedWhenAskedAndOnlyThen() throws {
        let acknowledged = try session([#"{"type":"logout"}"#, "not json", #"{"type":"login"}"#], acknowledge: true)
        #expect(acknowledged.filter { $0["type"] == "ack" }.map { $0["line"] } == [1, 2, 3])
        let quiet = try session([#"{"type":"logout"}"#, #"{"type":"login"}"#])
        #expect(!quiet.contains { $0["type"] == "ack" })
    }

    @Test func aLineAtTheLimitIsReadAndOneByteOverIsRefused() throws {
        let padding = { (length: Int) in #"{"type":"login","pad":""# + String(repeating: "a", count: length) + #""}"# }
        let overhead = padding(0).utf8.count
        let output = try session([padding(HostSession.maxLineBytes - overhead), padding(HostSession.maxLineBytes - overhead + 1)])
        let errors = output.filter { $0["type"] == "error" }
        #expect(errors.map { $0["line"] } == [2])
        #expect(errors.first?["message"]?.stringValue == "line is longer than the limit of \(HostSession.maxLineBytes) bytes")
    }

    @Test func advanceIsRefusedOnTheWallClock() throws {
        let host = try MockBridgeHost(contracts: repositoryContracts(), retention: .streaming)
        var written: [String] = []
        let session = HostSession(host: host, defaultOrigin: "", manualClock: false) { written.append($0) }
        session.handle(#"{"type":"advance","ms":10}"#, number: 1)
        #expect(written == [#"{"type":"error","line":1,"message":"advance needs --manual-clock (the host runs on the wall clock)"}"# + "\n"])
    }

    /// Output lines may be handed to a page's script as they are: `</` and U+2028/U+2029 are
    /// escaped, so no line can close a script element or break a JavaScript string.
    @Test func outputLinesAreSafeInsideAScript() throws {
        let host = try MockBridgeHost(contracts: repositoryContracts(), retention: .streaming)
        var written: [String] = []
        let session = HostSession(host: host, defaultOrigin: "", manualClock: true) { written.append($0) }
        session.handle(#"{"type":"x</script>\#u{2028}\#u{2029}"}"#, number: 1)
        let line = try #require(written.first)
        #expect(line.contains(#"x<\/script>\u2028\u2029"#), "\(line)")
        #expect(!line.contains("</") && !line.contains("\u{2028}") && !line.contains("\u{2029}"))
    }

    @Test func theOpenLinesURLIsTheEntryAndAURLThatIsNotAStringIsRefused() throws {
        let output = try session([
            #"{"type":"open","url":"https://sendy.co.kr/event/new-user-promo?campaign_id=open-line-test&utm_source=kakaotalk"}"#,
            Self.apply, #"{"type":"open","url":5}"#,
        ])
        #expect(output.filter { $0["type"] == "error" }.map { $0["line"] } == [3])
        #expect(output.contains { $0["type"] == "error" && $0["message"] == #""url" must be a string or null"# })
        #expect(output.map { $0.serialized() }.joined().contains("open-line-test"), "the entry's campaign reaches the records")
    }

    @Test func theInstalledLineSetsTheDeviceAppsAndABadListIsRefused() throws {
        // Two names: the same message twice within the duplicate window would be dropped.
        let directions = { (id: String) in
            #"{"type":"message","body":{"v":1,"id":""# + id
                + #"","action":"open_directions","version":1,"payload":{"destination":{"lat":37.4979502,"lng":127.0276368,"name":""#
                + id + #""},"provider":"nmap"}}}"#
        }
        let output = try session([
            #"{"type":"open","url":null}"#, directions("map-0000001"),
            #"{"type":"installed","apps":["NMAP"]}"#, directions("map-0000002"),
            #"{"type":"installed","apps":["nmap", 3]}"#, #"{"type":"installed"}"#,
        ])
        let replies = output.filter { $0["type"] == "reply" }
        #expect(replies.map { $0.value(at: "/result/opened") } == ["fallback", "app"])
        let errors = output.filter { $0["type"] == "error" }
        #expect(errors.map { $0["line"] } == [5, 6])
        #expect(errors.allSatisfy { $0["message"] == #""apps" must be an array of URL schemes, e.g. ["mapsapp"]"# })
    }
}
