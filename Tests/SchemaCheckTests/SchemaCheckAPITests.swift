import Foundation
import JSONCore
import SchemaCheck
import Testing

@Suite("Parsing")
struct ParsingTests {
    @Test("members and pointer values are read and converted alone; keys match byte for byte, indexes as pointers write them")
    func valuesAtPointers() throws {
        let document = try JSONDocument(#"{"a": {"b": [10, {"c": "x"}], "": 1, "K": "ascii"}, "\u212A": "kelvin", "~/": 2}"#)
        #expect(document.member("~/") == 2)
        #expect(document.member("missing") == nil)
        #expect(document.value(atTokens: []) == document.value)
        #expect(document.value(atTokens: ["a", "b", "1", "c"]) == "x")
        #expect(document.value(atTokens: ["a", "b", "0"]) == 10)
        #expect(document.value(atTokens: ["a", ""]) == 1)
        for index in ["2", "01", "-", "-1", "+1", "1.0", "", "١"] {
            #expect(document.value(atTokens: ["a", "b", index]) == nil, "index \(index)")
        }
        #expect(document.value(atTokens: ["a", "b", "1", "c", "d"]) == nil)
        // The KELVIN SIGN key is its own member to jansson (and to the schema checker): "K" does not find it.
        #expect(document.value(atTokens: ["\u{212A}"]) == "kelvin")
        #expect(document.value(atTokens: ["K"]) == nil)
        #expect(document.value(atTokens: ["a", "K"]) == "ascii")
        #expect(try JSONDocument("[1, 2]").member("0") == nil)
    }

    @Test("keys equal as Swift strings but not as bytes become one member in either order, as before the ASCII fast path")
    func canonicallyEqualKeysInEitherOrder() throws {
        let asciiFirst = try JSONDocument(#"{"a": 0, "K": 1, "\u212A": 2, "z": 3}"#).value
        let kelvinFirst = try JSONDocument(#"{"a": 0, "\u212A": 1, "K": 2, "z": 3}"#).value
        #expect(asciiFirst.objectValue?.count == 3)
        #expect(kelvinFirst.objectValue?.count == 3)
        #expect(asciiFirst.objectValue?["K"] == 2)
        #expect(kelvinFirst.objectValue?["K"] == 2)
        #expect(asciiFirst.objectValue?.keys == ["a", "K", "z"])
        #expect(try JSONDocument(#"{"b": 1, "a": 2}"#).value.objectValue?.keys == ["b", "a"])
    }

    @Test func notJSON() {
        #expect(throws: JSONParseError.self) { try JSONDocument("{\"a\": nope}") }
        do {
            _ = try JSONDocument("{\n  \"a\": nope\n}", limits: .unlimited)
            Issue.record("parsed invalid JSON")
        } catch {
            #expect(error.line == 2)
            #expect(error.column > 0)
            #expect(error.description.hasPrefix("line 2 column "))
        }
    }

    @Test func invalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONDocument(bytes: [0x22, 0xFF, 0xFE, 0x22], limits: .unlimited) }
    }

    @Test func duplicateKeysRejected() {
        #expect(throws: JSONParseError.self) { try JSONDocument("{\"a\": 1, \"a\": 2}") }
    }

    @Test func trailingGarbageRejected() {
        #expect(throws: JSONParseError.self) { try JSONDocument("{} x") }
    }

    @Test func emptyInput() {
        #expect(throws: JSONParseError.self) { try JSONDocument("") }
        #expect(throws: JSONParseError.self) { try JSONDocument(bytes: [UInt8]()) }
    }

    @Test func nulKept() throws {
        let document = try JSONDocument("{\"key\": \"a\\u0000b\"}")
        #expect(document.value["key"] == .string("a\u{0}b"))
        // and back to jansson without losing the NUL
        #expect(JSONDocument(document.value).value == document.value)
        let schema = try CompiledSchema(document: ["maxLength": 3, "minLength": 3])
        #expect(schema.isValid(document.value["key"]!))
        // jansson cannot hold NUL inside an object key: that is a parse error, not a truncation
        #expect(throws: JSONParseError.self) { try JSONDocument("{\"k\\u0000ey\": 1}") }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        do {
            _ = try JSONDocument(deep, limits: .unlimited)
            Issue.record("parsed 100000 levels")
        } catch {
            #expect(error.message.contains("nesting"))
        }
        #expect(throws: JSONParseError.self) {
            try JSONDocument(String(repeating: "{\"a\":", count: 100) + "1" + String(repeating: "}", count: 100))
        }
    }

    @Test func parseErrorKinds() {
        func kind(_ text: String, _ limits: ParseLimits = .bridgeMessage) -> JSONParseError.Kind? {
            do {
                _ = try JSONDocument(text, limits: limits)
                return nil
            } catch {
                return error.kind
            }
        }
        #expect(kind("{\"a\": nope}") == .parse)
        #expect(kind("{\"a\": 1, \"a\": 2}") == .parse)
        #expect(kind("") == .parse)
        #expect(kind("[1, 2, 3]", ParseLimits(maxBytes: 4)) == .limitExceeded)
        #expect(kind("[[[1]]]", ParseLimits(maxDepth: 2)) == .limitExceeded)
        #expect(kind("[1, 2]", ParseLimits(maxArrayLength: 1)) == .limitExceeded)
        #expect(kind("[1, 2]") == nil)
    }

    @Test func limits() throws {
        let long = "\"" + String(repeating: "x", count: 16 * 1024 + 1) + "\""
        #expect(throws: JSONParseError.self) { try JSONDocument(long, limits: .bridgeMessage) }
        _ = try JSONDocument(long, limits: .unlimited)
        let items = "[" + Array(repeating: "1", count: 1025).joined(separator: ",") + "]"
        #expect(throws: JSONParseError.self) { try JSONDocument(items, limits: .bridgeMessage) }
        let members = "{" + (0..<257).map { "\"k\($0)\":1" }.joined(separator: ",") + "}"
        #expect(throws: JSONParseError.self) { try JSONDocument(members, limits: .bridgeMessage) }
        _ = try JSONDocument(members, limits: ParseLimits(maxProperties: 257))
        #expect(throws: JSONParseError.self) { try JSONDocument("[1, 2, 3]", limits: ParseLimits(maxBytes: 4)) }
        #expect(throws: JSONParseError.self) { try JSONDocument("[[[1]]]", limits: ParseLimits(maxDepth: 2)) }
        _ = try JSONDocument("[[1]]", limits: ParseLimits(maxDepth: 2))
    }

    @Test func valueConversion() throws {
        let document = try JSONDocument("{\"i\": 3, \"r\": 1.5, \"w\": 2.0, \"s\": \"한\", \"a\": [null, true, false], \"o\": {}}")
        let value = document.value
        #expect(value["i"] == .integer(3))
        #expect(value["r"] == .number(1.5))
        #expect(value["w"]?.integerValue == 2)
        #expect(value["s"] == .string("한"))
        #expect(value["a"] == .array([.null, .bool(true), .bool(false)]))
        #expect(value["o"] == .object(JSONObject()))
        #expect(JSONDocument(value).value == value)
    }
}

@Suite("Validation")
struct ValidationTests {
    static let message: JSONValue = try! JSONDocument("""
        {
          "$id": "https://example.com/message.json",
          "type": "object",
          "required": ["payload"],
          "properties": {
            "payload": {"$ref": "#/$defs/payload"},
            "count": {"type": "string"},
            "title": {"type": "string", "maxLength": 64}
          },
          "$defs": {
            "payload": {
              "type": "object",
              "required": ["slug"],
              "additionalProperties": false,
              "properties": {"slug": {"type": "string", "pattern": "^[a-z0-9-]{1,64}$"}}
            }
          }
        }
        """, limits: .unlimited).value

    @Test func outputUnits() throws {
        let schema = try CompiledSchema(document: Self.message)
        let result = schema.validate(try JSONDocument("{\"payload\": {\"slug\": \"New Promo\", \"foo\": 1}, \"count\": 3}"))
        #expect(result.status == .invalid)
        let pattern = try #require(result.units.first { $0.keyword == "pattern" })
        #expect(pattern.instanceLocation == "/payload/slug")
        #expect(pattern.keywordLocation == "/properties/payload/$ref/properties/slug/pattern")
        #expect(pattern.absoluteKeywordLocation == "https://example.com/message.json#/$defs/payload/properties/slug/pattern")
        #expect(pattern.error == "\"New Promo\" does not match ^[a-z0-9-]{1,64}$")

        let extra = try #require(result.units.first { $0.keyword == "additionalProperties" })
        #expect(extra.instanceLocation == "/payload/foo")
        #expect(extra.keywordLocation == "/properties/payload/$ref/additionalProperties")
        #expect(extra.error == "property \"foo\" is not allowed")

        let type = try #require(result.units.first { $0.keyword == "type" })
        #expect(type.instanceLocation == "/count")
        #expect(type.keywordLocation == "/properties/count/type")
        #expect(type.error == "expected string, got integer")
        #expect(result.count == 3)
        #expect(!schema.isValid(try JSONDocument("{\"payload\": {\"slug\": \"New Promo\"}}")))
    }

    @Test func requiredAndLength() throws {
        let schema = try CompiledSchema(document: Self.message)
        let missing = schema.validate(try JSONDocument("{\"payload\": {}}"))
        #expect(missing.units == [OutputUnit(
            instanceLocation: "/payload", keywordLocation: "/properties/payload/$ref/required",
            absoluteKeywordLocation: "https://example.com/message.json#/$defs/payload/required", keyword: "required",
            error: "required property \"slug\" is missing")])

        let title = String(repeating: "abcdefghij", count: 10)
        let long = schema.validate(.object(JSONObject([("payload", ["slug": "ok"]), ("title", .string(title))])))
        let unit = try #require(long.units.first)
        #expect(unit.keyword == "maxLength")
        #expect(unit.error.hasSuffix("...\" is longer than 64 characters"))
        #expect(unit.error.count < 100)

        let good = schema.validate(["payload": ["slug": "new-user-promo"]])
        #expect(good.status == .valid && good.isEmpty)
    }

    @Test func falseSchemasAndApplicators() throws {
        let schema = try CompiledSchema(document: [
            "properties": ["foo": false],
            "anyOf": [["required": ["a"]], ["required": ["b"]]],
        ])
        let result = schema.validate(["foo": 1])
        let unit = try #require(result.units.first { $0.keywordLocation == "/properties/foo" })
        #expect(unit.keyword == "properties")
        #expect(unit.instanceLocation == "/foo")
        let anyOf = try #require(result.units.first { $0.keyword == "anyOf" })
        #expect(anyOf.keywordLocation == "/anyOf")
        #expect(anyOf.error == "the value matches none of the 2 \"anyOf\" schemas")
        // the failing branches' own errors are kept next to it
        #expect(result.units.contains { $0.keywordLocation == "/anyOf/1/required" })
        #expect(schema.validate(["a": 1]).isValid)
    }

    @Test func wholeRealsAreIntegers() throws {
        let integer = try CompiledSchema(document: ["type": "integer", "multipleOf": 2])
        #expect(integer.isValid(try JSONDocument("4.0")))
        #expect(integer.isValid(try JSONDocument("1e2")))
        #expect(!integer.isValid(try JSONDocument("4.5")))
        let constant = try CompiledSchema(document: ["const": 1, "enum": [1, 2]])
        #expect(constant.isValid(try JSONDocument("1.0")))
        let small = try CompiledSchema(document: ["multipleOf": 0.0001])
        #expect(small.isValid(try JSONDocument("0.0075")))
        #expect(!small.isValid(try JSONDocument("0.00751")))
        let unique = try CompiledSchema(document: ["uniqueItems": true])
        #expect(!unique.isValid(try JSONDocument("[1, 1.0]")))
        #expect(!unique.isValid(try JSONDocument("[{\"a\": 1, \"b\": 2}, {\"b\": 2, \"a\": 1}]")))
    }

    @Test func lengthCountsCodePoints() throws {
        let two = try CompiledSchema(document: ["minLength": 2, "maxLength": 2])
        #expect(two.isValid("한글"))
        #expect(!two.isValid("😀"))
        #expect(two.isValid("😀😀"))
        #expect(!two.isValid("abc"))
    }

    @Test func compileErrors() {
        do {
            _ = try CompiledSchema(document: ["$id": "https://example.com/x.json", "properties": ["x": ["minLength": -1]]])
            Issue.record("compiled a bad schema")
        } catch {
            #expect(error.message == "\"minLength\" must be a non-negative integer")
            #expect(error.location == "https://example.com/x.json#/properties/x")
            #expect(error.description.contains(", at https://example.com/x.json#/properties/x"))
        }
        #expect(throws: SchemaError.self) { try CompiledSchema(document: ["$ref": "other.json"]) }
        #expect(throws: SchemaError.self) { try CompiledSchema(document: ["pattern": "(unclosed"]) }
        #expect(throws: SchemaError.self) { try CompiledSchema(document: ["type": "text"]) }
    }

    /// Programs tell failures apart by kind, not by the wording of the message.
    @Test func compileErrorKinds() {
        func kind(_ document: JSONValue) -> CheckerErrorKind? {
            do {
                _ = try CompiledSchema(document: document)
                return nil
            } catch {
                return error.kind
            }
        }
        #expect(kind(["minLength": -1]) == .invalidSchema)
        #expect(kind(["type": "text"]) == .invalidSchema)
        #expect(kind(["$ref": "other.json"]) == .unresolvedReference)
        #expect(kind(["$defs": ["a": true], "$ref": "#/$defs/b"]) == .unresolvedReference)
        #expect(kind(["pattern": "(unclosed"]) == .badRegex)
        #expect(kind(["patternProperties": ["[z-a]": true]]) == .badRegex)
        #expect(kind(5) == .invalidSchema)
        var deep: JSONValue = true
        for _ in 0..<1100 { deep = ["not": deep] }
        #expect(kind(deep) == .limitExceeded)
        #expect(kind(["minLength": 1]) == nil)
    }

    @Test func cyclesDoNotHang() throws {
        // a loop that never reaches a property or item compiles; only what enters it fails
        let itself = try CompiledSchema(document: ["$ref": "#"])
        #expect(itself.loopLocation == "#")
        #expect(itself.check(1) == .incomplete)
        let loop = try CompiledSchema(document: [
            "$ref": "#/$defs/a",
            "$defs": ["a": ["$ref": "#/$defs/b"], "b": ["anyOf": [["type": "string"], ["$ref": "#/$defs/a"]]]],
        ])
        #expect(loop.loopLocation != nil)
        #expect(loop.check("text") == .valid)
        #expect(loop.check(5) == .incomplete)
        let result = loop.validate(5)
        #expect(result.status == .incomplete)
        #expect(result.last?.error.contains("applies itself to the same value in a loop") == true)
        // recursion that makes progress but goes deeper than the bound: could not finish
        var deep: JSONValue = []
        for _ in 0..<600 { deep = [deep] }
        let arrays = try CompiledSchema(document: ["items": ["$ref": "#"]])
        #expect(arrays.check(deep) == .incomplete)
        #expect(arrays.validate(deep).status == .incomplete)
        #expect(arrays.isValid([[[], [[]]]]))
        let tree = try CompiledSchema(document: [
            "type": "object", "properties": ["children": ["type": "array", "items": ["$ref": "#"]]],
        ])
        #expect(tree.isValid(["children": [["children": []], ["children": [["children": []]]]]]))
        #expect(!tree.isValid(["children": [["children": 3]]]))
    }

    @Test func registryAndMetaSchemas() throws {
        let registry = SchemaRegistry()
        let meta = try registry.compile(uri: "https://json-schema.org/draft/2020-12/schema")
        #expect(meta.isValid(Self.message))
        #expect(!meta.isValid(["type": 5]))
        let draft7 = try CompiledSchema(uri: "http://json-schema.org/draft-07/schema#", registry: registry)
        #expect(!draft7.isValid(["minLength": -1]))

        try registry.add(["$id": "https://example.com/slug.json", "type": "string", "pattern": "^[a-z]+$"], uri: nil)
        let user = try CompiledSchema(document: ["properties": ["slug": ["$ref": "https://example.com/slug.json"]]],
                                      registry: registry)
        #expect(user.isValid(["slug": "abc"]))
        #expect(!user.isValid(["slug": "ABC"]))
    }

    @Test func aRegistryWithoutMetaSchemasCannotReferToThem() throws {
        let bare = SchemaRegistry(includeMetaSchemas: false)
        #expect(throws: SchemaError.self) { try bare.compile(uri: "https://json-schema.org/draft/2020-12/schema") }
        #expect(throws: SchemaError.self) {
            try CompiledSchema(document: ["$ref": "http://json-schema.org/draft-07/schema#"], registry: bare)
        }
        try bare.add(["$id": "https://example.com/slug.json", "type": "string"], uri: nil)
        #expect(try bare.compile(uri: "https://example.com/slug.json").isValid("abc"))
    }

    @Test func draft7Dialect() throws {
        let schema = try CompiledSchema(
            document: ["items": [["type": "integer"]], "additionalItems": false],
            options: SchemaOptions(dialect: .draft7))
        #expect(schema.isValid([1]))
        #expect(!schema.isValid([1, 2]))
    }

    @Test func formatAssertion() throws {
        let annotation = try CompiledSchema(document: ["format": "ipv4"])
        #expect(annotation.isValid("not an address"))
        let assertion = try CompiledSchema(document: ["format": "ipv4"], options: SchemaOptions(assertFormat: true))
        #expect(!assertion.isValid("not an address"))
        #expect(assertion.isValid("192.168.0.1"))
    }

    @Test func sharedAcrossTasks() async throws {
        let schema = try CompiledSchema(document: Self.message)
        let good = try JSONDocument("{\"payload\": {\"slug\": \"ok\"}}")
        let bad = try JSONDocument("{\"payload\": {\"slug\": \"Not OK\"}}")
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        let useGood = (task + round) % 2 == 0
                        let fast = schema.isValid(useGood ? good : bad)
                        let full = schema.validate(useGood ? good : bad)
                        if fast != useGood || full.isValid != useGood || (useGood != full.isEmpty) { return false }
                    }
                    return true
                }
            }
            var all: [Bool] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == 8 && outcomes.allSatisfy { $0 })
    }
}
