import Foundation
import Testing
import TestSupport

@testable import BridgeCLI

/// `bridgectl validate --schema FILE` reads the files FILE refers to beside it (draft-07's `$ref`
/// beside `$id` included), refuses one outside its folder with one line and exit 2, and takes such
/// a file when `--ref URI=FILE` maps it.
@Suite @MainActor struct SiblingReferenceCLITests {
    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data())
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    func withFolder(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        try withTemporaryFiles("sibling-cli", files, body)
    }

    static let schemaOrgPair = [
        "schemas/schema-org-action.json": #"{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://json.schemastore.org/schema-org-action.json","$ref":"schema-org-thing.json"}"#,
        "schemas/schema-org-thing.json": #"{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","required":["name"]}"#,
        "good.json": #"{"name":"x"}"#,
        "bad.json": "{}",
    ]

    @Test func aSchemaOrgPairValidatesThroughTheSiblingFile() throws {
        try withFolder(Self.schemaOrgPair) { folder in
            let schema = folder.appendingPathComponent("schemas/schema-org-action.json").path
            let good = run(["validate", "--schema", schema, folder.appendingPathComponent("good.json").path])
            #expect(good.code == 0, "\(good.err)")
            let bad = run(["validate", "--schema", schema, folder.appendingPathComponent("bad.json").path])
            #expect(bad.code == 1)
            #expect(bad.out.contains("required"), "\(bad.out)")
        }
    }

    @Test func aReferenceOutsideTheFolderIsRefusedWithExit2() throws {
        try withFolder([
            "schemas/main.json": #"{"$ref":"../shared/name.json"}"#,
            "shared/name.json": #"{"type":"string"}"#,
            "x.json": #""x""#,
        ]) { folder in
            let result = run(["validate", "--schema", folder.appendingPathComponent("schemas/main.json").path, folder.appendingPathComponent("x.json").path])
            #expect(result.code == 2)
            #expect(result.err.contains("outside the schema's folder"), "\(result.err)")
            #expect(result.err.contains("--ref"), "the refusal says how to map it: \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1)
        }
    }

    @Test func refMapsAFileOutsideTheFolder() throws {
        try withFolder([
            "schemas/main.json": #"{"$ref":"../shared/name.json"}"#,
            "shared/name.json": #"{"type":"string"}"#,
            "x.json": #""x""#,
            "n.json": "1",
        ]) { folder in
            let shared = folder.appendingPathComponent("shared/name.json").standardizedFileURL
            let arguments = ["validate", "--schema", folder.appendingPathComponent("schemas/main.json").path,
                             "--ref", "\(shared.absoluteString)=\(shared.path)"]
            #expect(run(arguments + [folder.appendingPathComponent("x.json").path]).code == 0)
            #expect(run(arguments + [folder.appendingPathComponent("n.json").path]).code == 1)
        }
    }
}
