import JSONCore
import BridgeContracts
import BridgeHost
import BridgeHostTesting
import SchemaCheck
import Testing

/// The hello line of the host protocol: the version and levels, and the setup that replaces the
/// host (login state, app state, the build's capabilities) before any other line.
@MainActor @Suite struct HostSessionHelloTests {
    func session(_ lines: [String], setups: Bool = true) throws -> [JSONValue] {
        let contracts = try repositoryContracts()
        let make = { (setup: HostSetup) throws -> MockBridgeHost in
            try MockBridgeHost(contracts: contracts, loggedIn: setup.loggedIn ?? true, appState: setup.appState ?? .foreground,
                               capabilities: setup.capabilities, retention: .streaming)
        }
        var written: [String] = []
        let session = HostSession(host: try make(HostSetup()), defaultOrigin: "https://sendy.co.kr", manualClock: true,
                                  makeHost: setups ? make : nil) { written.append($0) }
        var input = HostSessionLines(lines)
        session.run(input: &input) { _ in }
        return try written.map { try JSONDocument(String($0.dropLast()), limits: .unlimited).value }
    }

    static let applyV2 = #"{"type":"message","body":{"v":1,"id":"hello-000001","action":"apply","version":2,"payload":{"slug":"a","plan":"basic"}}}"#

    func hello(_ setup: String) -> String { #"{"type":"hello","protocol":1,"setup":"# + setup + "}" }

    @Test func helloIsAnsweredWithTheVersionAndLevels() throws {
        let output = try session([#"{"type":"hello","protocol":1}"#])
        #expect(output == [["type": "hello", "protocol": 1, "host": "bridgectl host", "levels": ["core", "navigation", "events"]]])
    }

    @Test func anotherProtocolVersionIsRefused() throws {
        for version in ["0", "2", "\"1\""] {
            let output = try session([#"{"type":"hello","protocol":"# + version + "}"])
            #expect(output.count == 1)
            #expect(output[0]["type"] == "error")
            #expect(output[0]["message"]?.stringValue == "\"protocol\" must be 1, the version this host speaks")
        }
    }

    @Test func aSetupLoggedOutParksTheRequest() throws {
        let output = try session([hello(#"{"loggedIn":false}"#), Self.applyV2])
        let reply = try #require(output.first { $0["type"] == "reply" })
        #expect(reply["result"]?["pendingLogin"] == true)
        #expect(output.contains { $0["type"] == "login_presented" })
    }

    @Test func aSetupAtColdStartWaitsForReady() throws {
        let output = try session([hello(#"{"appState":"coldStart"}"#), Self.applyV2])
        #expect(output.first { $0["type"] == "reply" }?["result"]?["waitingForReady"] == true)
        #expect(!output.contains { $0["type"] == "navigation" })
    }

    @Test func aSetupsCapabilitiesAreTheBuildTheHostActsAs() throws {
        let output = try session([hello(#"{"capabilities":{"app":"android@5.12.3","actions":{"apply":[1]},"events":{}}}"#), Self.applyV2])
        let reply = try #require(output.first { $0["type"] == "reply" })
        #expect(reply["error"]?["code"] == "UNSUPPORTED_VERSION")
        #expect(reply["error"]?["details"]?.arrayValue?.first?["supportedVersions"] == [1])
    }

    @Test func aSetupAfterAnotherLineIsRefusedAndTheHostIsKept() throws {
        let output = try session([#"{"type":"open","url":null}"#, hello(#"{"loggedIn":false}"#), Self.applyV2])
        #expect(output.contains { $0["type"] == "error" && $0["line"] == 2 && $0["message"] == "a setup must come before every other line" })
        #expect(output.first { $0["type"] == "reply" }?["result"]?["pendingLogin"] == false)
    }

    @Test func badSetupsAreRefusedNamingTheMember() throws {
        let cases: [(String, String)] = [
            (#"{"loggedin":false}"#, "setup refused: setup: unknown member \"loggedin\" (loggedIn, appState, capabilities)"),
            (#"{"loggedIn":"no"}"#, "setup refused: setup/loggedIn must be true or false"),
            (#"{"appState":"asleep"}"#, "setup refused: setup/appState must be one of foreground, background, coldStart"),
            (#"{"capabilities":{"actions":{"apply":[9]}}}"#, "setup refused: setup/capabilities: this build takes apply v9, which"),
            (#"{"capabilities":{"actions":{"apply":[0]}}}"#, "setup refused: setup/capabilities/actions/apply must hold positive integers"),
            (#"{"capabilities":{"events":{}}}"#, "setup refused: setup/capabilities/actions is missing"),
            (#"{"capabilities":{"app":"windows@1.0.0","actions":{}}}"#, "setup refused: setup/capabilities/app: unknown platform"),
            ("[]", "setup refused: \"setup\" must be an object"),
        ]
        for (setup, message) in cases {
            let output = try session([hello(setup)])
            let error = try #require(output.first { $0["type"] == "error" }, "\(setup)")
            #expect(error["message"]?.stringValue?.hasPrefix(message) == true, "\(setup): \(error)")
            #expect(!output.contains { $0["type"] == "hello" })
        }
    }

    @Test func aSessionWithoutAHostMakerRefusesSetups() throws {
        let output = try session([hello(#"{"loggedIn":false}"#)], setups: false)
        #expect(output.first?["message"] == "this session takes no setup")
    }
}
