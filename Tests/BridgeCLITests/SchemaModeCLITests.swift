import Foundation
import Testing
import TestSupport

@testable import BridgeCLI

/// `bridgectl validate --schema` as a general JSON Schema command line: real-world schemas of
/// every dialect, `--draft`, `$ref` loops, content keywords, and the lint warning for loops.
@Suite @MainActor final class SchemaModeCLITests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("schema") }
    deinit { testFolder.remove() }

    static let repository = RepositoryPaths.root

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data())
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    func file(_ text: String, name: String = "file.json") throws -> String {
        let folder = testFolder.url("bridgekit-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    // MARK: $ref siblings

    /// A draft-07 schema whose root $ref sits beside its $id: the $id is ignored as the
    /// keyword beside $ref, yet same-document references resolve (it used to be exit 2,
    /// `cannot resolve the reference "https://example.com/a.json"`).
    @Test(arguments: [
        ##"{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/a.json","$ref":"#/definitions/A","definitions":{"A":{"type":"string"}}}"##,
        ##"{"definitions":{"A":{"type":"string"}},"$ref":"#/definitions/A","$id":"https://example.com/a.json","$schema":"http://json-schema.org/draft-07/schema#"}"##,
        ##"{"$id":"https://example.com/a.json","$ref":"#/definitions/A","definitions":{"A":{"type":"string"}}}"##,
    ])
    func rootRefBesideID(_ schemaText: String) throws {
        let schema = try file(schemaText, name: "a.json")
        let draft = schemaText.contains("$schema") ? [] : ["--draft", "7"]
        let valid = run(["validate", "--schema", schema] + draft + [try file(#""x""#)])
        #expect(valid.code == 0, "\(valid.err)")
        #expect(valid.out.hasSuffix(": valid\n"))
        let invalid = run(["validate", "--schema", schema] + draft + [try file("1")])
        #expect(invalid.code == 1, "\(invalid.err)")
        #expect(invalid.out.contains("(type)"))
    }

    @Test func referencedDocumentWithRootRefBesideID() throws {
        // the same shape one level down: a --ref document that other schemas name by its $id
        let part = try file(##"{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/part.json","$ref":"#/definitions/N","definitions":{"N":{"type":"integer"}}}"##, name: "part.json")
        let main = try file(##"{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"n":{"$ref":"https://example.com/part.json"}}}"##, name: "main.json")
        #expect(run(["validate", "--schema", main, "--ref", part, try file(#"{"n":1}"#)]).code == 0)
        #expect(run(["validate", "--schema", main, "--ref", part, try file(#"{"n":"one"}"#)]).code == 1)
    }

    // MARK: dialects

    @Test func draftFourByFlagAndBySchema() throws {
        let bounded = ##"{"type":"integer","maximum":3,"exclusiveMaximum":true}"##
        let three = try file("3")
        #expect(run(["validate", "--draft", "4", "--schema", try file(bounded), three]).code == 1)
        let declared = ##"{"$schema":"http://json-schema.org/draft-04/schema#","type":"integer","maximum":3,"exclusiveMaximum":true}"##
        #expect(run(["validate", "--schema", try file(declared), three]).code == 1)
        // 2020-12 (the default) wants a number there
        let strict = run(["validate", "--schema", try file(bounded), three])
        #expect(strict.code == 2)
        #expect(strict.err.contains("exclusiveMaximum"))
        #expect(run(["validate", "--draft", "3", "--schema", try file(bounded), three]).code == 2)
    }

    @Test func unknownSchemaIsAUsageErrorNamingIt() throws {
        let schema = try file(##"{"$schema":"https://example.com/dialects/mine","type":"string"}"##)
        let result = run(["validate", "--schema", schema, try file(#""x""#)])
        #expect(result.code == 2)
        #expect(result.err.contains("unknown $schema \"https://example.com/dialects/mine\""), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
    }

    // MARK: loops

    @Test func aLoopFailsOnlyTheDocumentThatEntersIt() throws {
        let schema = try file(##"{"anyOf":[{"type":"string"},{"$ref":"#"}]}"##, name: "loop.json")
        let text = try file(#""text""#)
        let number = try file("5")
        let clean = run(["validate", "--schema", schema, text])
        #expect(clean.code == 0)
        let started = Date()
        let entered = run(["validate", "--schema", schema, text, number])
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(entered.code == 2)
        #expect(entered.out.contains("\(text): valid"))
        // one line for that document: the loop, not the anyOf branch that failed before it
        let loop = entered.out.split(separator: "\n").filter { $0.hasPrefix(number) }
        #expect(loop.count == 1, "\(entered.out)")
        #expect(loop.first?.contains("validation could not finish: the schema at file://") == true, "\(entered.out)")
        #expect(loop.first?.contains("loop.json# applies itself to the same value in a loop") == true, "\(entered.out)")
    }

    @Test func aRootRefToItselfIsALoopNotACrash() throws {
        // draft-07 ignores the $id beside $ref: the loop is at the file the schema came from
        let schema = try file(##"{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/a.json","$ref":"#"}"##, name: "self.json")
        let result = run(["validate", "--schema", schema, try file(#""x""#)])
        #expect(result.code == 2)
        #expect(result.out.contains("the schema at file://") && result.out.contains("self.json# applies itself"), "\(result.out)")
    }

    @Test func lintWarnsAboutALoopAndStaysGreen() throws {
        let copy = testFolder.url("bridgekit-lint-loop-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("contracts"), to: copy)
        let schema = copy.appendingPathComponent("schemas/apply.v1.json")
        try String(contentsOf: schema, encoding: .utf8)
            .replacingOccurrences(of: ##""payload": { "$ref": "#/$defs/payload" }"##,
                                  with: ##""payload": { "$ref": "#/$defs/payload" }, "extra": { "$ref": "#/$defs/loop" }"##)
            .replacingOccurrences(of: ##""$defs": {"##, with: ##""$defs": { "loop": { "allOf": [{ "$ref": "#/$defs/loop" }] },"##)
            .write(to: schema, atomically: true, encoding: .utf8)
        let result = run(["lint", "--contracts", copy.path])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains("schemas/apply.v1.json: (root): warning: the schema at https://bridge.sendy.co.kr/contracts/schemas/apply.v1.json#/$defs/loop applies itself to the same value in a loop"), "\(result.out)")
        // The loop is also a part the Swift type generator cannot express (allOf, no type): two
        // more warnings, which leave lint green too.
        #expect(result.out.contains("schemas/apply.v1.json: /$defs/loop/allOf: warning: Swift types: allOf has no Swift counterpart"), "\(result.out)")
        #expect(result.out.contains("lint: clean, 3 warning(s)"), "\(result.out)")
    }

    // MARK: content keywords

    @Test func contentIsCheckedOnlyWithAssertContent() throws {
        let schema = try file(##"{"$schema":"http://json-schema.org/draft-07/schema#","contentEncoding":"base64","contentMediaType":"application/json"}"##)
        let good = try file(#""eyJhIjoxfQ==""#)
        let bad = try file(#""not base64!""#)
        #expect(run(["validate", "--schema", schema, good, bad]).code == 0)
        let asserted = run(["validate", "--assert-content", "--schema", schema, good, bad])
        #expect(asserted.code == 1)
        #expect(asserted.out.contains("\(bad): (root): the string is not valid base64 (contentEncoding)"), "\(asserted.out)")
        // draft-06 has no content keywords: nothing to assert
        let old = try file(##"{"$schema":"http://json-schema.org/draft-06/schema#","contentEncoding":"base64"}"##)
        #expect(run(["validate", "--assert-content", "--schema", old, bad]).code == 0)
    }
}
