import Foundation
import Testing
import TestSupport
import BridgeContracts
import JSONCore

@testable import BridgeCLI

/// `bridgectl validate` and `bridgectl lint` through the same entry point the binary uses.
@Suite @MainActor final class ValidateCLITests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("validate") }
    deinit { testFolder.remove() }

    static let repository = RepositoryPaths.root

    func run(_ arguments: [String], input: Data = Data()) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: input)
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    func temporaryFile(_ contents: Data, name: String = "message.json") throws -> String {
        let folder = testFolder.url("bridgekit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try contents.write(to: file)
        return file.path
    }

    static let validApply = #"{"v":1,"id":"3f1c2a9e-7d2c-4e1a-9b3f-5c6d7e8f9a0b","action":"apply","version":1,"payload":{"slug":"new-user-promo"}}"#

    @Test func validMessageExitsZero() throws {
        let file = try temporaryFile(Data(Self.validApply.utf8))
        let result = run(["validate", file])
        #expect(result.code == 0)
        #expect(result.out == "\(file): valid (apply v1)\n")
    }

    @Test func invalidMessageNamesPointerAndKeyword() throws {
        let body = Self.validApply.replacingOccurrences(of: "new-user-promo", with: "New Promo")
        let file = try temporaryFile(Data(body.utf8))
        let result = run(["validate", file])
        #expect(result.code == 1)
        #expect(result.out == "\(file): /payload/slug: \"New Promo\" does not match ^[a-z0-9-]{1,64}$ (pattern)\n")
    }

    @Test func jsonFormatCarriesBasicOutputUnits() throws {
        let body = Self.validApply.replacingOccurrences(of: #""slug":"new-user-promo""#, with: #""slug":"x","extra":1"#)
        let result = run(["validate", "--format", "json", "-"], input: Data(body.utf8))
        #expect(result.code == 1)
        #expect(result.out.contains(#""instanceLocation": "/payload/extra""#))
        #expect(result.out.contains(#""keyword": "additionalProperties""#))
        #expect(result.out.contains(#""code": "INVALID_PARAMS""#))
        #expect(result.out.contains(#""absoluteKeywordLocation": "https://bridge.sendy.co.kr/contracts/schemas/apply.v1.json#/$defs/payload/additionalProperties""#))
    }

    /// In JSON, a file that cannot be read is a result of its own (readable: false) among the
    /// others, counted apart, and the run exits 2.
    @Test func anUnreadableFileIsAResultOfItsOwnInJSON() throws {
        let good = try temporaryFile(Data(Self.validApply.utf8))
        let missing = testFolder.url("absent.json").path
        let result = run(["validate", "--format", "json", good, missing])
        #expect(result.code == 2)
        let report = try JSONValue(parsing: result.out)
        let results = try #require(report["results"]?.arrayValue)
        #expect(results.count == 2)
        #expect(results[0]["valid"] == true && results[0]["readable"] == nil)
        #expect(results[1] == ["file": .string(missing), "valid": false, "readable": false, "message": "no such file"], "\(results[1])")
        #expect(report["valid"] == 1 && report["invalid"] == 0 && report["unreadable"] == 1)
        #expect(result.err.isEmpty)
        // In text, the same file is one line on standard error.
        let text = run(["validate", good, missing])
        #expect(text.code == 2)
        #expect(text.err == "\(missing): no such file\n", "\(text.err)")
    }

    @Test func aSchemaFileThatIsNotThereIsAUsageError() throws {
        let message = try temporaryFile(Data("{}".utf8))
        let missing = testFolder.url("no-schema.json").path
        let result = run(["validate", "--schema", missing, message])
        #expect(result.code == 2)
        #expect(result.err.contains("\(missing): no such schema file"), "\(result.err)")
    }

    @Test func everyFixtureVerdictMatchesItsExpectation() throws {
        let contracts = try BridgeContracts.ContractSet.load(directory: ExampleContracts.path)
        #expect(contracts.fixtures.count >= 39)
        for fixture in contracts.fixtures {
            let result = run(["validate", "-"], input: Data(fixture.body.utf8))
            let schemaLevel = ["INVALID_PARAMS", "INVALID_MESSAGE", "UNKNOWN_ACTION", "UNSUPPORTED_VERSION"]
            if fixture.expect.valid || !schemaLevel.contains(fixture.expect.code ?? "INVALID_PARAMS") {
                // Origin and frame rejections are the host's business; the message itself is valid.
                #expect(result.code == 0, "\(fixture.path): \(result.out)\(result.err)")
            } else if fixture.body.contains(#""slug":"other-promo""#) || fixture.body.contains(#""page":1,"page":2"#) {
                #expect(result.code == 2, "\(fixture.path) is a parse error")
                #expect(result.err.contains("duplicate object key"))
            } else {
                #expect(result.code == 1, "\(fixture.path): \(result.out)\(result.err)")
                for error in fixture.expect.errors {
                    let location = error.instanceLocation.isEmpty ? "(root)" : error.instanceLocation
                    #expect(result.out.contains("<stdin>: \(location): ") && result.out.contains("(\(error.keyword ?? ""))"),
                            "\(fixture.path): expected \(location) \(error.keyword ?? ""), got \(result.out)")
                }
            }
        }
    }

    // Bad input never crashes and never passes: a one-line error and exit 2.
    @Test(arguments: [
        ("not JSON", Data("{\"v\": 1,".utf8), "end of file"),
        ("invalid UTF-8", Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]), "unable to decode byte 0xc3"),
        ("duplicate keys", Data(#"{"v":1,"v":1}"#.utf8), "duplicate object key"),
        ("nesting 30,000 deep", Data((String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)).utf8), "nesting deeper than 64 levels"),
        ("empty file", Data(), "is empty"),
        ("trailing garbage", Data(#"{"v":1} x"#.utf8), "end of file expected"),
    ])
    func badInputIsAOneLineErrorAndExitTwo(_ name: String, _ contents: Data, _ expected: String) throws {
        let file = try temporaryFile(contents)
        let result = run(["validate", file])
        #expect(result.code == 2, "\(name)")
        #expect(result.out.isEmpty, "\(name)")
        #expect(result.err.hasPrefix(file + ": "), "\(name): \(result.err)")
        #expect(result.err.contains(expected), "\(name): \(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "\(name): \(result.err)")
    }

    @Test func nestingOneHundredThousandDeepIsRejected() throws {
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let file = try temporaryFile(deep)
        let result = run(["validate", file])
        #expect(result.code == 2)
        #expect(result.err.split(separator: "\n").count == 1)
        // Against a schema (no message size limit) the depth bound still holds.
        let schema = try temporaryFile(Data("{}".utf8), name: "schema.json")
        let bySchema = run(["validate", "--schema", schema, file])
        #expect(bySchema.code == 2)
        #expect(bySchema.err.contains("nesting deeper than"), "\(bySchema.err)")
    }

    @Test func fiftyMegabyteFileIsRejectedBeforeParsing() throws {
        let body = "{\"pad\":\"" + String(repeating: "a", count: 50 << 20) + "\"}"
        let file = try temporaryFile(Data(body.utf8))
        let result = run(["validate", file])
        #expect(result.code == 2)
        #expect(result.err.contains("the limit is 65536 bytes"))
        #expect(result.err.split(separator: "\n").count == 1)
    }

    @Test func directoryAndMissingFileAreUsageErrors() throws {
        let directory = FileManager.default.temporaryDirectory.path
        var result = run(["validate", directory])
        #expect(result.code == 2)
        #expect(result.err == "\(directory): is a directory, not a file\n")
        result = run(["validate", "/nonexistent/message.json"])
        #expect(result.code == 2)
        #expect(result.err == "/nonexistent/message.json: no such file\n")
    }

    @Test func wellFormedButNotAMessageExitsOne() throws {
        let result = run(["validate", "-"], input: Data(#"[1, 2, 3]"#.utf8))
        #expect(result.code == 1)
        #expect(result.out.contains("expected object"))
    }

    @Test func usageErrorsExitTwo() {
        #expect(run(["validate"]).code == 2)
        #expect(run(["validate", "--format", "xml", "a.json"]).code == 2)
        #expect(run(["validate", "--bogus", "a.json"]).code == 2)
        #expect(run(["validate", "--ref", "x.json", "a.json"]).code == 2)
        #expect(run(["frobnicate"]).code == 2)
        #expect(run(["validate", "--help"]).code == 0)
    }

    @Test func schemaModeWithReferencesAcrossFiles() throws {
        let folder = testFolder.url("bridgekit-refs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let main = folder.appendingPathComponent("main.json")
        let part = folder.appendingPathComponent("part.json")
        try Data(#"{"$id":"https://example.test/main.json","properties":{"n":{"$ref":"part.json"}}}"#.utf8).write(to: main)
        try Data(#"{"$id":"https://example.test/part.json","type":"integer","minimum":3}"#.utf8).write(to: part)
        let good = try temporaryFile(Data(#"{"n": 4}"#.utf8))
        let bad = try temporaryFile(Data(#"{"n": 2.0}"#.utf8))
        #expect(run(["validate", "--schema", main.path, "--ref", part.path, good]).code == 0)
        let failed = run(["validate", "--schema", main.path, "--ref", part.path, bad])
        #expect(failed.code == 1)
        #expect(failed.out.contains("/n: ") && failed.out.contains("(minimum)"))
        // Without the reference registered the schema does not compile: a usage error naming it.
        let missing = run(["validate", "--schema", main.path, good])
        #expect(missing.code == 2)
        #expect(missing.err.contains("part.json"))
        // URI=FILE registers under a chosen URI.
        #expect(run(["validate", "--schema", main.path, "--ref", "https://example.test/part.json=\(part.path)", good]).code == 0)
    }

    @Test func draftSevenByFlag() throws {
        let schema = try temporaryFile(Data(#"{"items":[{"type":"string"}],"additionalItems":false}"#.utf8), name: "s.json")
        let document = try temporaryFile(Data(#"["a", 1]"#.utf8))
        #expect(run(["validate", "--draft", "7", "--schema", schema, document]).code == 1)
        // In 2020-12 the array form of items is not a schema: the schema is rejected, naming the keyword.
        let strict = run(["validate", "--draft", "2020-12", "--schema", schema, document])
        #expect(strict.code == 2)
        #expect(strict.err.contains("items"))
    }

    @Test func aContractCanRequireFormatAssertion() throws {
        let body = Self.validApply.replacingOccurrences(of: #""payload""#, with: #""sentAt":"yesterday","payload""#)
        // Bundled contracts: format is an annotation (2020-12's default), so the message passes.
        #expect(run(["validate", "-"], input: Data(body.utf8)).code == 0)
        #expect(run(["validate", "--assert-format", "-"], input: Data(body.utf8)).code == 1)
        let copy = testFolder.url("bridgekit-format-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("contracts"), to: copy)
        let manifest = copy.appendingPathComponent("manifest.json")
        try String(contentsOf: manifest, encoding: .utf8)
            .replacingOccurrences(of: #""pushURLKey": "deeplink","#, with: #""pushURLKey": "deeplink", "assertFormat": true,"#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        let strict = run(["validate", "--contracts", copy.path, "-"], input: Data(body.utf8))
        #expect(strict.code == 1)
        #expect(strict.out.contains("/sentAt: ") && strict.out.contains("(format)"), "\(strict.out)")
    }

    @Test func lintIsCleanOnTheBundledContracts() {
        let result = run(["lint"])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.hasPrefix("lint: clean"))
    }

    @Test func lintFindsATypodKeywordAndAMissingMapping() throws {
        let copy = testFolder.url("bridgekit-lint-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("contracts"), to: copy)
        let schema = copy.appendingPathComponent("schemas/apply.v1.json")
        try String(contentsOf: schema, encoding: .utf8).replacingOccurrences(of: "\"maxLength\": 200", with: "\"maxLength\": \"200\"")
            .write(to: schema, atomically: true, encoding: .utf8)
        let manifest = copy.appendingPathComponent("manifest.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "\"/payload/memo\"", with: "\"/payload/mem\"")
            .replacingOccurrences(of: "\"route\": \"onboardingStart\"", with: "\"route\": \"onboarding\"")
            .write(to: manifest, atomically: true, encoding: .utf8)
        let result = run(["lint", "--contracts", copy.path])
        #expect(result.code == 1)
        #expect(result.out.contains("schemas/apply.v1.json: /$defs/payload/properties/memo/maxLength: expected integer, got string"))
        #expect(result.out.contains("manifest.json: /actions/apply/versions/1/query/memo: maps /payload/mem, which schemas/apply.v1.json does not declare"))
        #expect(result.out.contains("manifest.json: /actions/start/versions/1/route: names route \"onboarding\""))
    }
}
