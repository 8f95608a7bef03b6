import BridgeContracts
import Testing
import TestSupport

/// The manifest's `"events"`: how they load, what is refused, and what lint finds in them.
@Suite("Event contracts")
struct EventContractTests {
    private func contracts(_ edits: [(file: String, old: String, new: String?)]) throws -> ContractSet {
        try ContractSet(files: try RepositoryContractFiles.editing(edits), origin: "a copy")
    }

    private func findings(_ edits: [(file: String, old: String, new: String?)]) throws -> [LintFinding] {
        ContractLinter(contracts: try contracts(edits)).lint()
    }

    private static let manifestEvent = #""versions": { "1": { "schema": "login_state_changed.v1.json" } }"#

    @Test func theExampleSetDeclaresItsEventAfterTheBuiltInOne() throws {
        let manifest = try contracts([]).manifest
        #expect(manifest.events.map(\.name) == ["login_state_changed"])
        #expect(manifest.allEvents.map(\.name) == ["navigation_completed", "login_state_changed"])
        #expect(manifest.event(named: "navigation_completed")?.isBuiltIn == true)
        #expect(manifest.event(named: "login_state_changed")?.contract(version: 1)?.schema == "login_state_changed.v1.json")
    }

    @Test func theBuiltInNameIsRefused() throws {
        #expect(throws: ContractError.self) {
            try contracts([("manifest.json", #""login_state_changed": {"#, #""navigation_completed": {"#)])
        }
    }

    @Test func aVersionKeyThatIsNotAPositiveIntegerIsRefused() throws {
        for key in ["0", "01", "one", "-1"] {
            #expect(throws: ContractError.self, "version key \(key)") {
                try contracts([("manifest.json", Self.manifestEvent, #""versions": { "\#(key)": { "schema": "login_state_changed.v1.json" } }"#)])
            }
        }
    }

    @Test func aMissingSchemaFileIsNamed() throws {
        let found = try findings([("manifest.json", Self.manifestEvent, #""versions": { "1": { "schema": "nope.v1.json" } }"#)])
        #expect(found.contains { $0.file == "manifest.json" && $0.pointer == "/events/login_state_changed/versions/1/schema" })
    }

    @Test func anEventWithoutExamplesIsFound() throws {
        let schema = "schemas/login_state_changed.v1.json"
        let text = try #require(RepositoryContractFiles.files[schema])
        let start = try #require(text.range(of: #""examples": ["#))
        let stripped = String(text[..<start.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines).dropLast() + "\n}\n"
        let found = try findings([(schema, text, String(stripped))])
        #expect(found.map(\.pointer) == ["/examples"])
    }

    @Test func anExampleTheSchemaRejectsOrOfAnotherEventIsFound() throws {
        let schema = "schemas/login_state_changed.v1.json"
        let rejected = try findings([(schema, #""payload": { "loggedIn": true, "reason": "login" }"#, #""payload": { "loggedIn": 1 }"#)])
        #expect(rejected.map(\.pointer) == ["/examples/0/payload/loggedIn"])
        #expect(rejected.first?.message.contains("does not match its own schema") == true)
    }

    /// An example must be a message of its own event and version: either one wrong is named on
    /// that example, beside what the schema itself says of it.
    @Test func anExampleOfAnotherEventOrVersionIsNamed() throws {
        let schema = "schemas/login_state_changed.v1.json"
        let example = #"{ "v": 1, "event": "login_state_changed", "version": 1, "payload": { "loggedIn": false, "reason": "logout" } }"#
        let notIt = "the example is not a login_state_changed v1 message (its \"event\" and \"version\" must say so)"
        for wrong in [example.replacingOccurrences(of: #""version": 1"#, with: #""version": 2"#),
                      example.replacingOccurrences(of: #""event": "login_state_changed""#, with: #""event": "logout_happened""#)] {
            let found = try findings([(schema, example, wrong)])
            #expect(found.contains { $0.pointer == "/examples/1" && $0.message == notIt }, "\(found)")
            #expect(!found.contains { $0.pointer == "/examples/0" }, "the other example is fine")
        }
    }

    @Test func eachVersionNeedsAValidAndAnInvalidFixture() throws {
        let folder = "event-fixtures/login_state_changed/v1/"
        let noInvalid = try findings([(folder + "invalid-logged-in-as-string.json", "", nil), (folder + "invalid-unknown-reason.json", "", nil)])
        #expect(noInvalid.map(\.message) == ["no invalid event fixture for login_state_changed v1"])
        let noValid = try findings([(folder + "valid-login.json", "", nil), (folder + "valid-logged-out-without-reason.json", "", nil)])
        #expect(noValid.map(\.message) == ["no valid event fixture for login_state_changed v1"])
    }

    @Test func aFixtureFiledUnderAnUndeclaredEventIsFound() throws {
        var files = RepositoryContractFiles.files
        files["event-fixtures/cart_updated/v1/valid.json"] = files["event-fixtures/login_state_changed/v1/valid-login.json"]
        let found = ContractLinter(contracts: try ContractSet(files: files, origin: "a copy")).lint()
        #expect(found.map(\.file) == ["event-fixtures/cart_updated/v1/valid.json"])
    }

    @Test func anEventFixtureOutsideAnEventAndVersionFolderIsFound() throws {
        var files = RepositoryContractFiles.files
        files["event-fixtures/stray.json"] = files["event-fixtures/login_state_changed/v1/valid-login.json"]
        let found = ContractLinter(contracts: try ContractSet(files: files, origin: "a copy")).lint().map(\.description)
        #expect(found == ["event-fixtures/stray.json: (root): event fixtures live in event-fixtures/<event>/v<version>/"])
    }

    @Test func anEventNameWithCapitalsIsFound() throws {
        let found = try findings([("manifest.json", #""login_state_changed": {"#, #""LoginStateChanged": {"#)])
        #expect(found.contains { $0.pointer == "/events/LoginStateChanged" && $0.message.contains("lower-case") })
    }

    @Test func theBuiltInSchemaCompilesAndAcceptsItsExamples() throws {
        let compiled = try CompiledContracts(contracts: try contracts([]))
        let schema = try #require(compiled.eventSchema("navigation_completed", version: 1))
        let built = try #require(BuiltInEvents.all.first?.versions.first)
        let examples = try contracts([]).eventExamples(built)
        #expect(examples.count == 2)
        #expect(examples.allSatisfy { schema.isValid($0) })
        #expect(!schema.isValid(["v": 1, "event": "navigation_completed", "version": 1, "payload": ["requestId": "r", "route": "x", "outcome": "arrived"]]))
    }
}
