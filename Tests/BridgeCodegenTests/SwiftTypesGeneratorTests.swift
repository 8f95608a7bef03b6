import BridgeContracts
import Foundation
import Testing
import TestSupport

@testable import BridgeSwiftCodegen

@Suite("SwiftTypesGenerator: contracts to Codable structs, deterministic, unsupported schemas named")
struct SwiftTypesGeneratorTests {
    @Test("the output is deterministic, carries the regeneration header, and equals the committed Sources/BridgeContractTypes")
    func deterministicAndCommitted() throws {
        let contracts = try RepositoryContracts.set()
        let first = try SwiftTypesGenerator.files(for: contracts)
        let second = try SwiftTypesGenerator.files(for: try RepositoryContracts.set())
        #expect(first == second)
        #expect(first.map(\.path) == ["ApplyV1.swift", "ApplyV2.swift", "BridgeMessage.swift", "CampaignV1.swift", "ContractTypes.swift", "LoginStateChangedEventV1.swift",
                                      "OpenDirectionsV1.swift", "StartV1.swift", "ViewVehiclesV1.swift"])
        for file in first {
            #expect(file.contents.hasPrefix("// Generated "), "\(file.path)")
            #expect(file.contents.contains(SwiftTypesGenerator.regenerateCommand), "\(file.path)")
            let committed = try RepositoryPaths.text("Sources/BridgeContractTypes/" + file.path)
            #expect(committed == file.contents, "\(file.path) is stale")
        }
    }

    @Test("every header names the regenerate command it is given, and only that one")
    func headersNameTheCommandGiven() throws {
        let command = "bridgectl generate swift --contracts ../app/contracts --out Sources/AppMessages"
        let files = try SwiftTypesGenerator.files(for: try RepositoryContracts.set(), regenerate: command)
        for file in files {
            #expect(file.contents.contains("regenerate with `\(command)`"), "\(file.path)")
            #expect(!file.contents.contains(SwiftTypesGenerator.regenerateCommand), "\(file.path)")
        }
    }

    @Test("a oneOf, a list of types and an open object are named with their file and JSON Pointer")
    func unsupportedSchemasAreNamed() throws {
        let contracts = try RepositoryContracts.set { files in
            files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!
                .replacingOccurrences(of: #""plan": { "enum": ["basic", "premium", "business"], "description": "The plan the person chose." }"#,
                                      with: #""plan": { "oneOf": [{ "const": "basic" }, { "const": "premium" }] }"#)
            files["schemas/start.v1.json"] = files["schemas/start.v1.json"]!
                .replacingOccurrences(of: #""promoCode": { "type": "string","#, with: #""promoCode": { "type": ["string", "null"],"#)
                .replacingOccurrences(of: #""additionalProperties": false"#, with: #""additionalProperties": true"#)
        }
        let problems = SwiftTypesGenerator.unsupported(in: contracts).map(\.description)
        #expect(problems.contains("apply.v1.json#/$defs/payload/properties/plan/oneOf: oneOf has no Swift counterpart in the generated types"))
        #expect(problems.contains { $0.hasPrefix("start.v1.json#/$defs/payload/properties/promoCode/type: a list of types") })
        #expect(problems.contains { $0.hasPrefix("start.v1.json#/$defs/payload: an open object") })
        #expect(throws: SwiftTypesError.self) { try SwiftTypesGenerator.files(for: contracts) }
    }

    @Test("a $ref that gives no type is named: a whole file that is no object, a pointer that resolves nowhere, a pointer into another file")
    func referencesThatGiveNoTypeAreNamed() throws {
        let plan = #""plan": { "enum": ["basic", "premium", "business"], "description": "The plan the person chose." }"#
        func problems(_ reference: String) throws -> [String] {
            let contracts = try RepositoryContracts.set { files in
                files["schemas/label.json"] = #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string"}"#
                files["schemas/choice.json"] = #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false, "properties": {"kind": {"type": "string", "oneOf": [{"const": "a"}]}}}"#
                files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!
                    .replacingOccurrences(of: plan, with: #""plan": { "$ref": "\#(reference)" }"#)
            }
            return SwiftTypesGenerator.unsupported(in: contracts).map(\.description)
        }
        #expect(try problems("label.json") == ["label.json: a schema file referred to as a type must be an object"])
        // Inside a shared file, a problem is named from that file's root.
        #expect(try problems("choice.json") == ["choice.json#/properties/kind/oneOf: oneOf has no Swift counterpart in the generated types"])
        #expect(try problems("#/$defs/missing") == ["apply.v1.json#/$defs/payload/properties/plan/$ref: #/$defs/missing does not resolve"])
        #expect(try problems("label.json#/type") == [
            "apply.v1.json#/$defs/payload/properties/plan/$ref: only a local #/... pointer or a whole schema file of the contracts is supported (label.json#/type)",
        ])
    }

    @Test("a keyword at the top of an action schema is named at the schema's root")
    func topLevelKeywordsAreNamedAtTheRoot() throws {
        let contracts = try RepositoryContracts.set { files in
            files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!
                .replacingOccurrences(of: #""$ref": "envelope.v1.json","#, with: #""$ref": "envelope.v1.json", "minProperties": 1,"#)
        }
        let problems = SwiftTypesGenerator.unsupported(in: contracts).map(\.description)
        #expect(problems == ["apply.v1.json#/minProperties: minProperties has no Swift counterpart in the generated types"])
    }

    @Test("a keyword at the top of an event schema is named at the schema's root")
    func topLevelEventKeywordsAreNamedAtTheRoot() throws {
        let contracts = try RepositoryContracts.set { files in
            files["schemas/login_state_changed.v1.json"] = files["schemas/login_state_changed.v1.json"]!
                .replacingOccurrences(of: #""additionalProperties": false,"#, with: #""additionalProperties": false, "minProperties": 4,"#)
        }
        let problems = SwiftTypesGenerator.unsupported(in: contracts).map(\.description)
        #expect(problems.contains("login_state_changed.v1.json#/minProperties: minProperties has no Swift counterpart in the generated types"), "\(problems)")
    }

    @Test("an enum of strings may say type string; with another type it is named at /type")
    func anEnumOfStringsMustBeTypedString() throws {
        let plan = #""plan": { "enum": ["basic", "premium", "business"], "description": "The plan the person chose." }"#
        let typed = try RepositoryContracts.set { files in
            files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!
                .replacingOccurrences(of: plan, with: #""plan": { "type": "string", "enum": ["basic", "premium", "business"] }"#)
        }
        #expect(try RepositoryContracts.files()["schemas/apply.v1.json"]?.contains(plan) == true)
        #expect(SwiftTypesGenerator.unsupported(in: typed).isEmpty)
        let mistyped = try RepositoryContracts.set { files in
            files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!
                .replacingOccurrences(of: plan, with: #""plan": { "type": "integer", "enum": ["basic", "premium", "business"] }"#)
        }
        #expect(SwiftTypesGenerator.unsupported(in: mistyped).map(\.description)
            == ["apply.v1.json#/$defs/payload/properties/plan/type: an enum of strings must have type string"])
        let empty = try RepositoryContracts.set { files in
            files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!.replacingOccurrences(of: plan, with: #""plan": { "enum": [] }"#)
        }
        #expect(SwiftTypesGenerator.unsupported(in: empty).map(\.description)
            == ["apply.v1.json#/$defs/payload/properties/plan/enum: only an enum of strings is supported"])
    }

    @Test("a set without its envelope schema is named at the envelope file, with no pointer")
    func aMissingEnvelopeIsNamedAtItsFile() throws {
        let contracts = try RepositoryContracts.set { files in files["schemas/envelope.v1.json"] = nil }
        let problems = SwiftTypesGenerator.unsupported(in: contracts).map(\.description)
        #expect(problems.contains("envelope.v1.json: the envelope schema file is missing"), "\(problems)")
    }

    @Test("a part of an event's payload the types cannot express is named from the event schema's root")
    func eventPayloadProblemsAreNamedFromTheRoot() throws {
        let contracts = try RepositoryContracts.set { files in
            files["schemas/login_state_changed.v1.json"] = files["schemas/login_state_changed.v1.json"]!
                .replacingOccurrences(of: #""reason": { "enum": ["login", "logout", "session_expired"], "description": "What changed it." }"#,
                                      with: #""reason": { "oneOf": [{ "const": "login" }, { "const": "logout" }] }"#)
        }
        #expect(SwiftTypesGenerator.unsupported(in: contracts).map(\.description) == [
            "login_state_changed.v1.json#/properties/payload/properties/reason/oneOf: oneOf has no Swift counterpart in the generated types",
            "login_state_changed.v1.json#/properties/payload/properties/reason: no type (a Swift type needs one)",
        ])
    }

    @Test("the bundled contracts have nothing the Swift generator cannot express")
    func bundledContractsAreSupported() throws {
        #expect(SwiftTypesGenerator.unsupported(in: try RepositoryContracts.set()).isEmpty)
    }

    @Test("names: snake_case members become lowerCamelCase, values that are not identifiers become valid cases")
    func names() {
        #expect(SwiftNames.property("campaign_id") == "campaignId")
        #expect(SwiftNames.property("utm_source") == "utmSource")
        #expect(SwiftNames.property("default") == "`default`")
        #expect(SwiftNames.message(action: "view_vehicles", version: 2) == "ViewVehiclesV2")
        #expect(SwiftNames.sharedType(file: "campaign.v1.json") == "CampaignV1")
        #expect(SwiftNames.enumCase("2.5ton") == "_2_5ton")
        #expect(SwiftNames.enumCase("premium") == "premium")
    }

    @Test("names: any JSON name gives a valid identifier, the same one each time")
    func namesOfAnyText() {
        // Words split at anything that is not an ASCII letter or digit, Korean text included.
        #expect(SwiftNames.property("Plan-ID.x") == "planIDX")
        #expect(SwiftNames.property("a b") == "aB")
        #expect(SwiftNames.property("한글_id") == "id")
        #expect(SwiftNames.property("2fast") == "_2fast")
        #expect(SwiftNames.property("") == "_" && SwiftNames.property("--") == "_" && SwiftNames.property("한글") == "_")
        #expect(SwiftNames.property("self") == "`self`")
        #expect(SwiftNames.type("utm_source") == "UtmSource")
        #expect(SwiftNames.type("class") == "Class", "capitalized, no longer reserved")
        #expect(SwiftNames.type("type") == "`Type`")
        #expect(SwiftNames.type("2x") == "_2x")
        #expect(SwiftNames.type("") == "Value" && SwiftNames.type("-") == "Value")
        #expect(SwiftNames.event("login_state_changed", version: 1) == "LoginStateChangedEventV1")
        #expect(SwiftNames.element("Tags") == "TagsItem")
        #expect(SwiftNames.sharedType(file: "envelope") == "Envelope")
        #expect(SwiftNames.enumCase("Sort-Asc") == "sort_Asc")
        #expect(SwiftNames.enumCase("Default") == "`default`")
        #expect(SwiftNames.enumCase("_x") == "_x" && SwiftNames.enumCase("Éa") == "_a")
        #expect(SwiftNames.enumCase("") == "_" && SwiftNames.enumCase("가") == "_")
    }
}
