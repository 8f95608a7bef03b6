import BridgeContracts
import Testing

@testable import BridgeCodegen

/// The app's events in the generated kit: the contract table, the types bridge.on takes, and a
/// check per event version in validators.js.
extension JavaScriptGeneratorTests {
    private static func file(_ path: String, of contracts: ContractSet) throws -> String {
        try #require(try JavaScriptGenerator.files(for: contracts).first { $0.path == path }).contents
    }

    /// The table's "events" member as one line of JavaScript.
    private static func eventsTable(_ contracts: ContractSet) throws -> String {
        JavaScriptLiteral.inline(try #require(try ShimModel(contracts: contracts).table["events"]))
    }

    @Test func theContractTableListsTheContractsOwnEventsInTheShapeTheRuntimeReads() throws {
        #expect(try Self.eventsTable(try RepositoryContracts.set()) == #"{"login_state_changed":{"versions":{"1":true},"latest":1}}"#,
                "the built-in navigation_completed is the runtime's own, not in the page's table")
    }

    @Test func aSecondVersionOfAnEventIsListedAndTypedAsEitherPayload() throws {
        let changed = try RepositoryContracts.set { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(
                of: "\"1\": { \"schema\": \"login_state_changed.v1.json\" }",
                with: "\"1\": { \"schema\": \"login_state_changed.v1.json\" }, \"2\": { \"schema\": \"login_state_changed.v2.json\" }")
            files["schemas/login_state_changed.v2.json"] = files["schemas/login_state_changed.v1.json"]!
                .replacingOccurrences(of: "login_state_changed.v1.json", with: "login_state_changed.v2.json")
                .replacingOccurrences(of: "\"version\": { \"const\": 1 }", with: "\"version\": { \"const\": 2 }")
                .replacingOccurrences(of: "\"required\": [\"loggedIn\"]", with: "\"required\": [\"loggedIn\", \"userId\"]")
                .replacingOccurrences(of: "\"loggedIn\": {", with: "\"userId\": { \"type\": \"string\" }, \"loggedIn\": {")
        }
        #expect(try Self.eventsTable(changed) == #"{"login_state_changed":{"versions":{"1":true,"2":true},"latest":2}}"#)
        let types = try Self.file("bridge.d.ts", of: changed)
        #expect(types.contains("export type LoginStateChangedPayload = LoginStateChangedV1Payload | LoginStateChangedV2Payload;"))
        #expect(types.contains("export type LoginStateChangedV2Payload = {\n  userId: string;"))
        let validators = try Self.file("validators.js", of: changed)
        #expect(validators.contains("\"event:login_state_changed@2\": function (message) { return checkWhole("))
    }

    @Test func bridgeDeclarationsAddTheContractsEventsToBridgeEvents() throws {
        let types = try Self.file("bridge.d.ts", of: try RepositoryContracts.set())
        #expect(types.contains("""
            export type LoginStateChangedV1Payload = {
              /** Whether a person is logged in now. */
              loggedIn: boolean;
              /** What changed it. */
              reason?: "login" | "logout" | "session_expired";
            };
            """))
        #expect(types.contains("declare module \"./src/bridge-runtime.js\" {\n  interface BridgeEvents {\n"))
        #expect(types.contains("    login_state_changed: LoginStateChangedPayload;\n  }\n}\n"))
        for name in ["BridgeEvents", "EventMeta", "NavigationCompletedPayload", "NavigationOutcome"] {
            #expect(types.contains(" \(name),"), "\(name) is re-exported to the page")
        }
        #expect(!types.contains("NavigationCompletedV1Payload"), "the built-in event's type is the runtime's")
    }

    @Test func aSetWithoutEventsDeclaresNoModuleAugmentationAndAnEmptyTable() throws {
        let changed = try RepositoryContracts.set { files in
            let manifest = files["manifest.json"]!
            let start = manifest.range(of: "  \"events\": {")!.lowerBound
            let end = manifest.range(of: "\n  },\n", range: start..<manifest.endIndex)!.upperBound
            files["manifest.json"] = manifest.replacingCharacters(in: start..<end, with: "")
        }
        #expect(try Self.eventsTable(changed) == "{}")
        let declarations = try Self.file("bridge.d.ts", of: changed)
        #expect(!declarations.contains("declare module"))
        // Nothing at all stands where the event types would be: the declarations before go on to the payload table.
        #expect(declarations.contains("};\n\n/** Payload types by action and version, for `bridge.send`. */\n"))
        #expect(try Self.file("validators.js", of: changed).contains("\"event:navigation_completed@1\": function (message)"))
    }

    @Test func validatorsCheckEveryEventVersionTheBuiltInOneUnderItsURN() throws {
        let contracts = try RepositoryContracts.set()
        let script = try Self.file("validators.js", of: contracts)
        #expect(script.contains("export const eventValidators = Object.freeze({\n"))
        #expect(script.contains("\"event:navigation_completed@1\": function (message) { return checkWhole("))
        #expect(script.contains("\"event:login_state_changed@1\": function (message) { return checkWhole("))
        #expect(script.contains(" = \"urn:bridgekit:builtin/navigation_completed.v1.json#\";"), "absoluteKeywordLocation as the checker gives it")
        let types = try Self.file("validators.d.ts", of: contracts)
        #expect(types.contains("  readonly \"event:login_state_changed@1\": (message: unknown) => ValidationResult;\n"))
        #expect(types.contains("  readonly \"event:navigation_completed@1\": (message: unknown) => ValidationResult;\n"))
    }

    @Test func eventProblemsAreNamed() throws {
        let missing = try RepositoryContracts.set { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(of: "\"schema\": \"login_state_changed.v1.json\"", with: "\"schema\": \"gone.v1.json\"")
        }
        #expect(throws: CodegenError(file: "manifest.json", pointer: "/events/login_state_changed/versions/1/schema", message: "schemas/gone.v1.json is missing")) {
            try JavaScriptGenerator.files(for: missing)
        }
        // An event called apply_v1 would declare ApplyV1Payload, which the action apply v1 has.
        let clash = try RepositoryContracts.set { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(
                of: "\"login_state_changed\": {", with: "\"apply_v1\": { \"versions\": { \"1\": { \"schema\": \"login_state_changed.v1.json\" } } },\n    \"login_state_changed\": {")
        }
        let error = try #require(throws: CodegenError.self) { try JavaScriptGenerator.files(for: clash) }
        #expect(error.pointer == "/events/apply_v1")
        #expect(error.message.contains("ApplyV1Payload"))
    }
}
