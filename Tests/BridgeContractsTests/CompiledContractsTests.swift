import JSONCore
import SchemaCheck
import Testing

@testable import BridgeContracts
import TestSupport

/// The example contracts with `change` applied to a copy of their files.
private func bundledFiles(_ change: (inout [String: String]) -> Void = { _ in }) -> [String: String] {
    var files = (try? ExampleContracts.files()) ?? [:]
    change(&files)
    return files
}

@Suite struct CompiledContractsTests {
    /// Formats are asserted when the caller asks or the manifest says so, either one alone.
    @Test func formatsAreAssertedWhenTheCallerOrTheManifestAsks() throws {
        let message = try JSONDocument(#"{"v":1,"id":"fmt-0000001","action":"apply","version":1,"payload":{"slug":"new-user-promo"},"sentAt":"yesterday"}"#)
        let plain = try ContractSet(files: bundledFiles(), origin: "the example")
        let asserting = try ContractSet(files: bundledFiles { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(of: #""limits":"#, with: #""assertFormat": true, "limits":"#)
        }, origin: "the example, formats asserted")
        #expect(!plain.manifest.assertFormat && asserting.manifest.assertFormat)
        #expect(try CompiledContracts(contracts: plain).check(message).isValid)
        #expect(!(try CompiledContracts(contracts: plain, options: SchemaOptions(assertFormat: true)).check(message).isValid))
        #expect(!(try CompiledContracts(contracts: asserting).check(message).isValid))
        #expect(!(try CompiledContracts(contracts: asserting, options: SchemaOptions(assertFormat: true)).check(message).isValid))
    }

    @Test func bundledContractsDoNotNeedTheMetaSchemas() throws {
        let contracts = try ContractSet.load(directory: ExampleContracts.path, includingFixtures: false)
        #expect(!contracts.schemas.isEmpty)
        for schema in contracts.schemas {
            #expect(!CompiledContracts.needsMetaSchemas(schema.document), "schemas/\(schema.file)")
        }
    }

    @Test(arguments: [
        (#"{"$schema":"https://json-schema.org/draft/2020-12/schema"}"#, false),
        (#"{"$schema":"http://json-schema.org/draft-07/schema#"}"#, false),
        (#"{"$schema":"https://json-schema.org/draft/2019-09/schema"}"#, false),
        (#"{"$schema":"https://json-schema.org/draft/2020-12/meta/validation"}"#, true),
        (#"{"properties":{"p":{"$ref":"https://json-schema.org/draft/2020-12/schema"}}}"#, true),
        (#"{"items":[{"$dynamicRef":"http://json-schema.org/draft-07/schema#"}]}"#, true),
        (#"{"$id":"https://json-schema.org/draft/2020-12/custom"}"#, true),
        (#"{"description":"see https://json-schema.org/draft/2020-12/schema","$ref":"envelope.v1.json"}"#, false),
        (#"{"const":{"$ref":"https://json-schema.org/draft/2020-12/schema"}}"#, true),
    ])
    func metaSchemaReferencesAreFound(schema: String, needed: Bool) throws {
        #expect(CompiledContracts.needsMetaSchemas(try JSONDocument(schema).value) == needed)
    }

    /// A contract whose payload must itself be a JSON Schema: the meta-schema is registered only
    /// because the contract refers to it, and then it is really used.
    @Test func aContractReferringToTheMetaSchemaStillValidates() throws {
        let files = bundledFiles { files in
            files["schemas/start.v1.json"] = """
                {"$schema":"https://json-schema.org/draft/2020-12/schema",
                 "$id":"https://bridge.sendy.co.kr/contracts/schemas/start.v1.json",
                 "$ref":"envelope.v1.json",
                 "properties":{"payload":{"$ref":"https://json-schema.org/draft/2020-12/schema"}}}
                """
        }
        let contracts = try CompiledContracts(contracts: try ContractSet(files: files, origin: "test", includingFixtures: false))
        let good = try JSONDocument(#"{"v":1,"action":"start","version":1,"payload":{"type":"object"}}"#)
        let bad = try JSONDocument(#"{"v":1,"action":"start","version":1,"payload":{"type":12}}"#)
        #expect(contracts.isValid(good))
        #expect(contracts.check(good).isValid)
        #expect(!contracts.isValid(bad))
        #expect(!contracts.check(bad).isValid)
    }

    /// isValid is the fast path of check: the two must agree on every fixture message, and an
    /// action is matched by its exact bytes in both.
    @Test func isValidAgreesWithCheck() throws {
        let contracts = try CompiledContracts(contracts: try ContractSet.load(directory: ExampleContracts.path))
        var messages = contracts.contracts.fixtures.compactMap { fixture in try? JSONDocument(fixture.body) }
        for text in [
            #"{"v":1,"action":"APPLY","version":1,"payload":{"slug":"a"},"id":"abcdefgh"}"#,
            #"{"v":1,"action":"apply ","version":1,"payload":{"slug":"a"},"id":"abcdefgh"}"#,
            #"{"v":1,"action":"apply","version":1.0,"payload":{"slug":"a"},"id":"abcdefgh"}"#,
            #"{"v":1,"action":"apply","version":2,"payload":{"slug":"a"},"id":"abcdefgh"}"#,
            #"{"v":1,"action":7,"version":1,"payload":{}}"#,
            #"[1,2]"#,
        ] {
            messages.append(try JSONDocument(text))
        }
        #expect(messages.count > 40)
        for message in messages {
            #expect(contracts.isValid(message) == contracts.check(message).isValid, "\(message.text)")
        }
    }
}
