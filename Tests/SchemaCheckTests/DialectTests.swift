import Foundation
import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// Dialect rules that real-world schemas lean on, beyond what the official suite pins down.
@Suite("Dialects")
struct DialectTests {
    static let draft7 = "http://json-schema.org/draft-07/schema#"

    /// The registry path `bridgectl validate --schema` takes: registered under its own `$id`,
    /// compiled by it.
    static func compiledByID(_ text: String, dialect: SchemaOptions.Dialect = .draft2020_12) throws -> CompiledSchema {
        let registry = SchemaRegistry(includeMetaSchemas: false, dialect: dialect)
        try registry.add(JSONDocument(text), uri: nil)
        let id = try JSONDocument(text).value["$id"]?.stringValue ?? JSONDocument(text).value["id"]?.stringValue ?? ""
        return try registry.compile(uri: id, options: SchemaOptions(dialect: dialect))
    }

    // MARK: $ref siblings (draft-07 and older)

    @Test("draft-07: $id beside the root $ref is ignored, the document still answers to it", arguments: [
        ##"{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/a.json","$ref":"#/definitions/A","definitions":{"A":{"type":"string"}}}"##,
        ##"{"$ref":"#/definitions/A","$id":"https://example.com/a.json","definitions":{"A":{"type":"string"}},"$schema":"http://json-schema.org/draft-07/schema#"}"##,
        ##"{"definitions":{"A":{"type":"string"}},"$schema":"http://json-schema.org/draft-07/schema#","$ref":"#/definitions/A","$id":"https://example.com/a.json"}"##,
        ##"{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/a.json","$ref":"https://example.com/a.json#/definitions/A","definitions":{"A":{"type":"string"}}}"##,
    ])
    func rootRefBesideID(_ text: String) throws {
        for schema in [try Self.compiledByID(text), try CompiledSchema(document: JSONDocument(text))] {
            #expect(schema.check("x") == .valid)
            #expect(schema.check(1) == .invalid)
            #expect(schema.loopLocation == nil)
        }
    }

    @Test func rootRefBesideIDInOlderDrafts() throws {
        // draft-06 spells it $id, draft-04 id; --draft (the default dialect) reads them the same way
        let draft6 = ##"{"$id":"https://example.com/b.json","$ref":"#/definitions/A","definitions":{"A":{"type":"string"}}}"##
        let draft4 = ##"{"id":"https://example.com/c.json","$ref":"#/definitions/A","definitions":{"A":{"type":"string"}}}"##
        for (text, dialect) in [(draft6, SchemaOptions.Dialect.draft6), (draft4, .draft4), (draft6, .draft7)] {
            let schema = try Self.compiledByID(text, dialect: dialect)
            #expect(schema.check("x") == .valid, "\(dialect)")
            #expect(schema.check(1) == .invalid, "\(dialect)")
        }
    }

    @Test func nestedIDBesideRefDoesNotMoveTheBase() throws {
        // B's $id is ignored in draft-07, so B's "#/definitions/A" is the document's A (a string)
        let text = ##"""
            {"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/a.json",
             "properties":{"x":{"$ref":"#/definitions/B"}},
             "definitions":{"A":{"type":"string"},
                            "B":{"$id":"https://example.com/b.json","$ref":"#/definitions/A","minLength":5}}}
            """##
        let schema = try Self.compiledByID(text)
        #expect(schema.check(["x": "ok"]) == .valid) // minLength beside $ref is ignored too
        #expect(schema.check(["x": 1]) == .invalid)
        // In 2020-12 the same $id does move the base: b.json has no definitions/A.
        let modern = text.replacingOccurrences(of: Self.draft7, with: "https://json-schema.org/draft/2020-12/schema")
        #expect(throws: SchemaError.self) { try Self.compiledByID(modern) }
    }

    @Test func siblingsOfRefApplyFrom2019On() throws {
        let text = ##"{"$defs":{"A":{"type":"string"}},"$ref":"#/$defs/A","minLength":3}"##
        let modern = try CompiledSchema(document: JSONDocument(text))
        #expect(modern.check("ab") == .invalid)
        let legacy = try CompiledSchema(document: JSONDocument(text.replacingOccurrences(of: "$defs", with: "definitions")),
                                        options: SchemaOptions(dialect: .draft7))
        #expect(legacy.check("ab") == .valid)
    }

    @Test func rootRefToItselfBesideIDIsALoopNotACrash() throws {
        let text = ##"{"$schema":"http://json-schema.org/draft-07/schema#","$id":"https://example.com/a.json","$ref":"#"}"##
        let schema = try Self.compiledByID(text)
        #expect(schema.loopLocation == "https://example.com/a.json#")
        #expect(schema.check("x") == .incomplete)
        let result = schema.validate("x")
        #expect(result.status == .incomplete)
        #expect(result.last?.error.contains("https://example.com/a.json#") == true)
    }

    // MARK: choosing the dialect

    @Test func unknownSchemaIsAnErrorThatNamesIt() {
        do {
            _ = try CompiledSchema(document: ["$schema": "https://example.com/my-dialect", "type": "string"])
            Issue.record("compiled a schema of an unknown dialect")
        } catch {
            #expect(error.kind == .unknownDialect)
            #expect(error.message.contains("\"https://example.com/my-dialect\""))
        }
    }

    static let metaSchemaURIs: [SchemaOptions.Dialect: String] = [
        .draft2020_12: "https://json-schema.org/draft/2020-12/schema",
        .draft2019_09: "https://json-schema.org/draft/2019-09/schema",
        .draft7: "http://json-schema.org/draft-07/schema#",
        .draft6: "http://json-schema.org/draft-06/schema#",
        .draft4: "http://json-schema.org/draft-04/schema#",
    ]

    /// The default dialect reads a schema exactly as "$schema" of that dialect does.
    @Test(arguments: SchemaOptions.Dialect.allCases)
    func defaultDialectEqualsSchema(_ dialect: SchemaOptions.Dialect) throws {
        let schemas: [JSONValue] = [
            ["type": "integer", "maximum": 3, "exclusiveMaximum": true],
            ["items": [["type": "string"]], "additionalItems": false],
            ["prefixItems": [["type": "string"]], "items": false],
            ["$defs": ["a": ["type": "string"]], "$ref": "#/$defs/a", "minLength": 3],
            ["const": 1],
            ["if": ["type": "string"], "then": ["minLength": 2]],
            ["contentMediaType": "application/json"],
            ["dependentRequired": ["a": ["b"]]],
            ["properties": ["a": ["$id": "#here", "type": "string"]]],
        ]
        let instances: [JSONValue] = [1, 3, 3.0, "ab", "abc", ["x"], ["x", 1], [1], ["a": 1], ["a": "s"], "{]"]
        for schema in schemas {
            guard case .object(var declared) = schema else { continue }
            declared["$schema"] = .string(Self.metaSchemaURIs[dialect]!)
            let byOption = try? CompiledSchema(document: schema, options: SchemaOptions(dialect: dialect))
            let bySchema = try? CompiledSchema(document: .object(declared))
            #expect((byOption == nil) == (bySchema == nil), "\(dialect): \(schema)")
            guard let byOption, let bySchema else { continue }
            for instance in instances {
                #expect(byOption.check(instance) == bySchema.check(instance), "\(dialect): \(schema) on \(instance)")
            }
        }
    }

    /// lint and `$ref` to a meta-schema need every built-in meta-schema to compile in its own
    /// dialect and to accept itself.
    @Test(arguments: SchemaOptions.Dialect.allCases)
    func builtInMetaSchemasCompileAndAcceptThemselves(_ dialect: SchemaOptions.Dialect) throws {
        let registry = SchemaRegistry()
        let uri = Self.metaSchemaURIs[dialect]!
        let meta = try registry.compile(uri: uri)
        #expect(meta.loopLocation == nil)
        let folder = ["draft2020-12", "draft2019-09", "draft7", "draft6", "draft4"][
            SchemaOptions.Dialect.allCases.firstIndex(of: dialect)!]
        let file = RepositoryPaths.url("metaschemas/\(folder)/schema.json")
        let own = try JSONDocument(Data(contentsOf: file), limits: .unlimited)
        #expect(meta.check(own) == .valid, "\(uri)")
        #expect(meta.check(["type": 5]) == .invalid, "\(uri)")
    }

    // MARK: what differs between dialects

    @Test func draft4BooleanExclusivesAndNoBooleanSchemas() throws {
        let draft4 = SchemaOptions(dialect: .draft4)
        let bound = try CompiledSchema(document: ["maximum": 3, "exclusiveMaximum": true], options: draft4)
        #expect(!bound.isValid(3))
        #expect(bound.isValid(2))
        #expect(throws: SchemaError.self) {
            try CompiledSchema(document: ["maximum": 3, "exclusiveMaximum": 2], options: draft4)
        }
        #expect(throws: SchemaError.self) { try CompiledSchema(document: ["not": true], options: draft4) }
        #expect(throws: SchemaError.self) { try CompiledSchema(document: true, options: draft4) }
        let closed = try CompiledSchema(document: ["additionalProperties": false], options: draft4)
        #expect(!closed.isValid(["a": 1]))
        #expect(!(try CompiledSchema(document: ["type": "integer"], options: draft4)).isValid(1.0))
        #expect(try CompiledSchema(document: ["type": "integer"]).isValid(1.0))
        // const came with draft-06
        #expect(try CompiledSchema(document: ["const": 1], options: draft4).isValid(2))
        #expect(!(try CompiledSchema(document: ["const": 1], options: SchemaOptions(dialect: .draft6))).isValid(2))
    }

    @Test func recursiveRefIn2019() throws {
        // a tree whose extension (strict) forbids unknown members at every level
        let registry = SchemaRegistry(includeMetaSchemas: false, dialect: .draft2019_09)
        try registry.add([
            "$id": "https://example.com/tree", "$recursiveAnchor": true, "type": "object",
            "properties": ["data": true, "children": ["type": "array", "items": ["$recursiveRef": "#"]]],
        ], uri: nil)
        try registry.add([
            "$id": "https://example.com/strict-tree", "$recursiveAnchor": true,
            "$ref": "tree", "unevaluatedProperties": false,
        ], uri: nil)
        let strict = try registry.compile(uri: "https://example.com/strict-tree", options: SchemaOptions(dialect: .draft2019_09))
        #expect(strict.isValid(["children": [["data": 1]]]))
        #expect(!strict.isValid(["children": [["daat": 1]]]))
        let plain = try registry.compile(uri: "https://example.com/tree", options: SchemaOptions(dialect: .draft2019_09))
        #expect(plain.isValid(["children": [["daat": 1]]]))
    }

    // MARK: content keywords

    @Test func contentIsAnAnnotationUnlessAsserted() throws {
        let schema: JSONValue = [
            "contentEncoding": "base64", "contentMediaType": "application/json",
            "contentSchema": ["type": "object", "required": ["a"]],
        ]
        let good = "eyJhIjoxfQ==" // {"a":1}
        let wrongSchema = "eyJiIjoxfQ==" // {"b":1}
        let notJSON = "bm90IGpzb24=" // not json
        let notBase64 = "%%%"
        for dialect in SchemaOptions.Dialect.allCases {
            let annotations = try CompiledSchema(document: schema, options: SchemaOptions(dialect: dialect))
            for text in [good, wrongSchema, notJSON, notBase64] {
                #expect(annotations.isValid(.string(text)), "\(dialect) annotates \(text)")
            }
            let asserted = try CompiledSchema(document: schema, options: SchemaOptions(dialect: dialect, assertContent: true))
            let hasContent = [.draft7, .draft2019_09, .draft2020_12].contains(dialect)
            #expect(asserted.isValid(.string(good)), "\(dialect)")
            #expect(asserted.isValid(.string(notJSON)) != hasContent, "\(dialect)")
            #expect(asserted.isValid(.string(notBase64)) != hasContent, "\(dialect)")
            // contentSchema came with 2019-09
            let checksSchema = [.draft2019_09, .draft2020_12].contains(dialect)
            #expect(asserted.isValid(.string(wrongSchema)) != checksSchema, "\(dialect)")
        }
        let asserted = try CompiledSchema(document: schema, options: SchemaOptions(assertContent: true))
        let result = asserted.validate(.string(wrongSchema))
        #expect(result.contains { $0.keywordLocation == "/contentSchema/required" && $0.keyword == "required" })
    }
}
