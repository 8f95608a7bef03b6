import Foundation
import JSONCore
import Testing
import TestSupport

@testable import SchemaCheck

/// Schemas that refer to files beside them (as SchemaStore's schema.org schemas do): read from the
/// schema's folder as the checker asks for them, by the checker's own base-URI rules, never from
/// the network and never from outside the folder.
@Suite struct SiblingSchemaFilesTests {
    static let draft7 = "http://json-schema.org/draft-07/schema#"

    func withFolder(_ files: [String: String], _ body: (URL) throws -> Void) throws {
        try withTemporaryFiles("siblings", files, body)
    }

    func compile(_ main: URL, maximumFiles: Int = 1000, dialect: SchemaOptions.Dialect = .draft2020_12) throws -> (schema: CompiledSchema, filesRead: [String]) {
        let registry = SchemaRegistry(includeMetaSchemas: false, dialect: dialect)
        let uri = main.standardizedFileURL.absoluteString
        try registry.add(try JSONDocument(String(contentsOf: main, encoding: .utf8)), uri: uri)
        let siblings = SiblingSchemaFiles(schemaFile: main.path, maximumFiles: maximumFiles)
        return try siblings.compile(uri: uri, registry: registry, options: SchemaOptions(dialect: dialect)) { path in
            try JSONDocument(String(contentsOfFile: path, encoding: .utf8))
        }
    }

    func isValid(_ schema: CompiledSchema, _ instance: String) throws -> Bool {
        try schema.validate(JSONDocument(instance)).status == .valid
    }

    /// The schema.org shape: a draft-07 root whose `$ref` sits beside an https `$id`. The `$id` is
    /// ignored there, so the base is the file's own location and the sibling file is read.
    @Test func draft07RefBesideIDReadsTheSiblingFile() throws {
        try withFolder([
            "schema-org-action.json": #"{"$schema":"\#(Self.draft7)","$id":"https://json.schemastore.org/schema-org-action.json","$ref":"schema-org-thing.json"}"#,
            "schema-org-thing.json": #"{"$schema":"\#(Self.draft7)","type":"object","properties":{"name":{"type":"string"}},"required":["name"]}"#,
        ]) { folder in
            let (schema, read) = try compile(folder.appendingPathComponent("schema-org-action.json"), dialect: .draft7)
            #expect(read.map { URL(fileURLWithPath: $0).lastPathComponent } == ["schema-org-thing.json"])
            #expect(try isValid(schema, #"{"name":"Ada"}"#))
            #expect(try !isValid(schema, #"{"name":1}"#))
            #expect(try !isValid(schema, "{}"))
        }
    }

    /// In 2020-12 the same `$id` does move the base: the reference is an https URI, which is not
    /// read from the folder (nor fetched): the checker's own error names it and where it stands.
    @Test func an2020IDBesideRefMovesTheBaseAwayFromTheFolder() throws {
        try withFolder([
            "action.json": #"{"$id":"https://json.schemastore.org/action.json","$ref":"thing.json"}"#,
            "thing.json": #"{"type":"object"}"#,
        ]) { folder in
            #expect {
                _ = try compile(folder.appendingPathComponent("action.json"))
            } throws: { error in
                let failure = error as? SchemaError
                return failure?.kind == .unresolvedReference
                    && failure?.message.contains("https://json.schemastore.org/thing.json") == true
            }
        }
    }

    @Test func referencesChainThroughSubfoldersAndFragments() throws {
        try withFolder([
            "main.json": #"{"properties":{"a":{"$ref":"parts/a.json#/$defs/word"}}}"#,
            "parts/a.json": #"{"$defs":{"word":{"$ref":"../word.json"}}}"#,
            "word.json": #"{"type":"string","maxLength":3}"#,
        ]) { folder in
            let (schema, read) = try compile(folder.appendingPathComponent("main.json"))
            #expect(read.count == 2)
            #expect(try isValid(schema, #"{"a":"abc"}"#))
            #expect(try !isValid(schema, #"{"a":"abcd"}"#))
        }
    }

    @Test func aReferenceOutsideTheFolderIsRefused() throws {
        try withFolder([
            "schemas/main.json": #"{"$ref":"../outside.json"}"#,
            "outside.json": #"{"type":"string"}"#,
        ]) { folder in
            #expect {
                _ = try compile(folder.appendingPathComponent("schemas/main.json"))
            } throws: { error in
                (error as? SiblingSchemaFiles.Refusal)?.reason.contains("outside the schema's folder") == true
            }
        }
    }

    /// A link in the folder that points out of it is outside too: the real path decides.
    @Test func aLinkOutOfTheFolderIsRefused() throws {
        try withFolder([
            "schemas/main.json": #"{"$ref":"linked.json"}"#,
            "secret.json": #"{"type":"string"}"#,
        ]) { folder in
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("schemas/linked.json"), withDestinationURL: folder.appendingPathComponent("secret.json"))
            #expect(throws: SiblingSchemaFiles.Refusal.self) {
                _ = try compile(folder.appendingPathComponent("schemas/main.json"))
            }
        }
    }

    @Test func aMissingSiblingIsNamed() throws {
        try withFolder(["main.json": #"{"$ref":"gone.json"}"#]) { folder in
            #expect {
                _ = try compile(folder.appendingPathComponent("main.json"))
            } throws: { error in
                let text = String(describing: error)
                return text.contains("gone.json") && text.contains("does not exist")
            }
        }
    }

    /// A fragment the sibling does not have is the checker's own unresolved-reference error, not
    /// a loop that reads the file again.
    @Test func aMissingFragmentInAReadSiblingIsTheCheckersError() throws {
        try withFolder([
            "main.json": #"{"$ref":"thing.json#/$defs/none"}"#,
            "thing.json": #"{"$defs":{}}"#,
        ]) { folder in
            #expect {
                _ = try compile(folder.appendingPathComponent("main.json"))
            } throws: { error in
                (error as? SchemaError)?.kind == .unresolvedReference
            }
        }
    }

    /// The file budget, tried at n - 1, n and n + 1 for a chain that reads two files.
    @Test(arguments: [(1, false), (2, true), (3, true)])
    func theNumberOfFilesReadIsBounded(limit: Int, compiles: Bool) throws {
        try withFolder([
            "main.json": #"{"$ref":"b.json"}"#,
            "b.json": #"{"$ref":"c.json"}"#,
            "c.json": #"{"type":"null"}"#,
        ]) { folder in
            let result = Result { try compile(folder.appendingPathComponent("main.json"), maximumFiles: limit) }
            switch result {
            case .success(let compiled): #expect(compiles && compiled.filesRead.count == 2)
            case .failure(let error): #expect(!compiles && String(describing: error).contains("at most \(limit) files"))
            }
        }
    }

    @Test func theUnresolvedReferenceIsReadFromTheCheckersMessage() {
        #expect(SiblingSchemaFiles.unresolvedReference(in: #"cannot resolve the reference "file:///a/b.json#/x""#) == "file:///a/b.json#/x")
        #expect(SiblingSchemaFiles.unresolvedReference(in: "something else") == nil)
    }
}
