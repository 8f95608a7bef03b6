import BridgeContracts
import BridgeHost
import BridgeHostTesting
import Testing
import TestSupport

/// The check `bridgectl check` runs on each event fixture, on its own: the example's fixtures
/// hold, and each way a fixture can disagree with the host is named.
@MainActor
struct EventFixtureCheckTests {
    private let folder = "event-fixtures/login_state_changed/v1/"

    /// The problems of the fixture at `path`, after replacing its file with `text` when given.
    private func problems(_ path: String, replacedBy text: String? = nil) throws -> [String] {
        var files = try ExampleContracts.files()
        if let text { files[path] = text }
        let contracts = try ContractSet(files: files, origin: "test copy")
        let fixture = try #require(contracts.eventFixtures.first { $0.path == path })
        return try EventFixtureCheck.problems(fixture, compiled: try CompiledContracts(contracts: contracts))
    }

    private func fixture(_ message: String, valid: Bool, errors: String = "") -> String {
        #"{"description": "d", "message": \#(message), "expect": {"valid": \#(valid)\#(errors.isEmpty ? "" : ", \"errors\": " + errors)}}"#
    }

    @Test func everyEventFixtureOfTheExampleHolds() throws {
        let contracts = try ContractSet.load(directory: ExampleContracts.path)
        let compiled = try CompiledContracts(contracts: contracts)
        #expect(contracts.eventFixtures.contains { !$0.valid } && contracts.eventFixtures.contains { $0.valid })
        for fixture in contracts.eventFixtures {
            #expect(try EventFixtureCheck.problems(fixture, compiled: compiled) == [], "\(fixture.path)")
        }
    }

    @Test func aMessageTheSchemaRefusesMarkedValidIsNamed() throws {
        let path = folder + "valid-login.json"
        let found = try problems(path, replacedBy: fixture(#"{"v": 1, "event": "login_state_changed", "version": 1, "payload": {"loggedIn": "yes"}}"#, valid: true))
        #expect(found.count == 1 && found[0].hasPrefix("expected the page to get it, got a refusal: "), "\(found)")
    }

    @Test func aMessageTheSchemaAcceptsMarkedInvalidIsNamed() throws {
        let path = folder + "invalid-unknown-reason.json"
        let message = #"{"v": 1, "event": "login_state_changed", "version": 1, "payload": {"loggedIn": true, "reason": "login"}}"#
        let found = try problems(path, replacedBy: fixture(message, valid: false, errors: #"[{"instanceLocation": "/payload/reason"}]"#))
        #expect(found == [#"expected a refusal, but the page got {"v":1,"event":"login_state_changed","version":1,"payload":{"loggedIn":true,"reason":"login"}}"#])
    }

    @Test func anErrorTheRefusalDoesNotNameIsNamed() throws {
        let path = folder + "invalid-logged-in-as-string.json"
        let message = #"{"v": 1, "event": "login_state_changed", "version": 1, "payload": {"loggedIn": "true"}}"#
        let found = try problems(path, replacedBy: fixture(message, valid: false, errors: #"[{"instanceLocation": "/payload/reason", "keyword": "type"}]"#))
        #expect(found.count == 1 && found[0].hasPrefix(#"expected an error at "/payload/reason" (keyword type); details: "#), "\(found)")
    }

    @Test func aMessageWithMoreThanTheEnvelopeIsNamed() throws {
        let path = folder + "valid-login.json"
        let message = #"{"v": 1, "event": "login_state_changed", "version": 1, "payload": {"loggedIn": true}, "sentAt": 1}"#
        let found = try problems(path, replacedBy: fixture(message, valid: true))
        #expect(found.count == 1 && found[0].hasPrefix("the host builds the envelope itself"), "\(found)")
    }
}
