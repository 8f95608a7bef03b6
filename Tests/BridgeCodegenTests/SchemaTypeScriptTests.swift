import BridgeContracts
import JSONCore
import Testing

@testable import BridgeCodegen

/// The JSON Schema -> TypeScript converter on small schemas of its own.
@Suite struct SchemaTypeScriptTests {
    /// The repository's contracts plus `extra` as schemas/<name>.
    private func converter(_ extra: [String: String], names: [SchemaLocation: String] = [:]) throws -> TypeScriptSchemaConverter {
        let contracts = try RepositoryContracts.set { files in
            for (name, text) in extra { files["schemas/" + name] = text }
        }
        return TypeScriptSchemaConverter(contracts: contracts, namedLocations: names)
    }

    private func render(_ schema: String) throws -> TypeScriptSchemaConverter.Rendered {
        try converter(["t.json": schema]).render(file: "t.json")
    }

    /// `T[]` for a one-word item type; a union or an object item is wrapped as `Array<T>`, since
    /// `"a" | "b"[]` would be a different type.
    @Test func anArrayOfAUnionOrAnObjectIsWrittenAsArrayOfT() throws {
        #expect(try render(#"{"type": "array", "items": {"type": "string"}}"#).type == "string[]")
        #expect(try render(#"{"type": "array", "items": {"enum": ["a", "b"]}}"#).type == #"Array<"a" | "b">"#)
        #expect(try render(#"{"type": "array", "items": {"type": ["string", "null"]}}"#).type == "Array<string | null>")
        #expect(try render(#"{"type": "array", "items": {"type": "object", "properties": {"a": {"type": "string"}}}}"#).type
                == "Array<{\n  a?: string;\n  [key: string]: unknown;\n}>")
        #expect(try render(#"{"type": "array", "items": {"type": "array", "items": {"type": "integer"}}}"#).type == "number[][]")
        #expect(try render(#"{"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string"}}"#).type == "unknown[]")
    }

    /// A schema that refers to itself is written out once more at most; the occurrence inside
    /// is `unknown` (the validators still check it), so the type is finite.
    @Test func aRecursiveSchemaTypesItsInnerOccurrenceUnknown() throws {
        #expect(try render(##"{"type": "object", "additionalProperties": false, "properties": {"next": {"$ref": "#"}, "n": {"type": "integer"}}}"##).type
                == "{\n  next?: {\n    next?: unknown;\n    /** @integer */\n    n?: number;\n  };\n  /** @integer */\n  n?: number;\n}")
        #expect(try render(##"{"$defs": {"node": {"type": "object", "additionalProperties": false, "properties": {"child": {"$ref": "#/$defs/node"}}}}, "$ref": "#/$defs/node"}"##).type
                == "{\n  child?: unknown;\n}")
    }

    /// Literal types are written as script-safe JavaScript: U+2028 and "</" escaped.
    @Test func literalTypesAreScriptSafe() throws {
        #expect(try render(##"{"enum": ["a\u2028b", "</script>"]}"##).type == #""a\u2028b" | "<\/script>""#)
        #expect(try render(##"{"const": "\u2029"}"##).type == #""\u2029""#)
    }

    /// A `$ref` by absolute URI finds the file whose `$id` it is; a relative one is resolved
    /// against the referring file's `$id` first.
    @Test func aRefFindsItsFileByAbsoluteOrRelativeId() throws {
        let converter = try converter([
            "t.json": ##"{"$id": "https://example.test/kit/t.json", "type": "object", "additionalProperties": false, "properties": {"a": {"$ref": "https://example.test/kit/u.json"}, "b": {"$ref": "u.json"}, "c": {"$ref": "https://example.test/other/u.json"}}}"##,
            "u.json": ##"{"$id": "https://example.test/kit/u.json", "enum": ["x"]}"##,
            "v.json": ##"{"$id": "https://example.test/other/u.json", "enum": ["y"]}"##,
        ])
        #expect(try converter.render(file: "t.json").type == "{\n  a?: \"x\";\n  b?: \"x\";\n  c?: \"y\";\n}")
    }

    @Test func aTitleDocumentsAMemberWithoutADescription() throws {
        let rendered = try render(#"""
        {"type": "object", "additionalProperties": false, "properties": {
          "a": {"type": "string", "title": "The a"}, "b": {"type": "string", "title": "Not shown", "description": "The b"}}}
        """#)
        #expect(rendered.type == "{\n  /** The a */\n  a?: string;\n  /** The b */\n  b?: string;\n}")
    }

    /// A `$ref` fragment is a JSON Pointer written in a URI: percent-escapes are decoded first.
    @Test func aPercentEncodedRefFragmentIsDecoded() throws {
        let rendered = try render(##"""
        {"type": "object", "additionalProperties": false, "$defs": {"a b": {"enum": ["x"]}, "é": {"const": 1}},
         "properties": {"p": {"$ref": "#/$defs/a%20b"}, "q": {"$ref": "#/$defs/%C3%A9"}, "r": {"$ref": "#/$defs/é"}}}
        """##)
        #expect(rendered.type == "{\n  p?: \"x\";\n  q?: 1;\n  r?: 1;\n}")
        // A truncated escape, and bytes that are no UTF-8, are refused at the $ref.
        for fragment in ["a%2", "%FF", "%zz"] {
            #expect(throws: CodegenError(file: "t.json", pointer: "/properties/p/$ref", message: "bad percent-encoding in $ref \"#/$defs/\(fragment)\"")) {
                try render(##"{"type": "object", "properties": {"p": {"$ref": "#/$defs/"## + fragment + ##""}}}"##)
            }
        }
    }

    @Test func requiredAndOptionalMembersWithLiteralUnions() throws {
        let rendered = try render("""
        {"type": "object", "required": ["kind", "count"], "additionalProperties": false,
         "properties": {"kind": {"enum": ["a", "b", 3, null]}, "count": {"type": "integer", "minimum": 1, "maximum": 9},
                        "label": {"type": ["string", "null"], "maxLength": 5}, "on": {"const": true}, "tags": {"type": "array", "items": {"type": "string"}}}}
        """)
        #expect(rendered.type == """
        {
          kind: "a" | "b" | 3 | null;
          /**
           * @integer
           * @minimum 1
           * @maximum 9
           */
          count: number;
          /** @maxLength 5 (Unicode code points) */
          label?: string | null;
          on?: true;
          tags?: string[];
        }
        """)
    }

    /// A member is written bare only when it is an ASCII identifier; anything else is quoted.
    @Test(arguments: [("_a", true), ("$a", true), ("a1", true), ("Ab_$9", true), ("1a", false), ("a-b", false),
                      ("", false), ("-a", false), ("가", false), ("a b", false), ("é", false)])
    func aPropertyIsBareOnlyWhenItIsAnIdentifier(name: String, bare: Bool) {
        #expect(TypeScriptNames.isIdentifier(name) == bare)
        #expect(TypeScriptNames.propertyKey(name) == (bare ? name : JSONValue.string(name).serialized(escapeForScript: true)))
    }

    @Test func anOpenObjectGetsAnIndexSignature() throws {
        #expect(try render(#"{"type": "object", "properties": {"a": {"type": "boolean"}}}"#).type == "{\n  a?: boolean;\n  [key: string]: unknown;\n}")
        #expect(try render(#"{"type": "object"}"#).type == "{\n  [key: string]: unknown;\n}")
        #expect(try render("true").type == "unknown")
        #expect(try render("false").type == "never")
    }

    @Test func refsInsideTheContractSetAreFollowedOrNamed() throws {
        let names = [SchemaLocation(file: "campaign.v1.json", pointer: ""): "CampaignMetadata"]
        let converter = try converter(["t.json": """
        {"$id": "https://bridge.sendy.co.kr/contracts/schemas/t.json", "type": "object", "additionalProperties": false,
         "properties": {"c": {"$ref": "campaign.v1.json"}, "u": {"$ref": "campaign.v1.json#/$defs/utm"}, "p": {"$ref": "#/$defs/p"}},
         "$defs": {"p": {"type": "string", "pattern": "^x$", "description": "A p."}}}
        """], names: names)
        let rendered = try converter.render(file: "t.json")
        #expect(rendered.type.contains("  c?: CampaignMetadata;"))
        #expect(rendered.type.contains("  /**\n   * @minLength 1 (Unicode code points)\n   * @maxLength 128 (Unicode code points)\n   */\n  u?: string;"))
        #expect(rendered.type.contains("  /**\n   * A p.\n   * @pattern ^x$\n   */\n  p?: string;"))
    }

    @Test func aRefWithSiblingsIsAnIntersection() throws {
        let converter = try converter([:], names: [SchemaLocation(file: "envelope.v1.json", pointer: ""): "BridgeEnvelope"])
        let rendered = try converter.render(file: "apply.v1.json")
        #expect(rendered.type.hasPrefix("BridgeEnvelope & {\n  action?: \"apply\";\n  version?: 1;\n"))
        #expect(rendered.type.contains("  id: unknown;\n}"))
        #expect(!rendered.type.contains("[key: string]"), "beside a $ref the referenced type decides about extra members")
    }

    @Test func applicatorsBecomeUnionsAndIntersections() throws {
        let rendered = try render(##"""
        {"type": "object", "additionalProperties": false, "$defs": {"node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/node"}}}},
         "properties": {"any": {"anyOf": [{"type": "string"}, {"type": "integer"}]}, "one": {"oneOf": [{"const": "s"}, {"type": "null"}]},
                        "all": {"allOf": [{"type": "number"}, {"maximum": 3}]}, "kind": {"enum": [{"x": [1, "a"]}, [true]]},
                        "bag": {"type": "object", "patternProperties": {"^x-": {"type": "integer"}}, "additionalProperties": false},
                        "map": {"type": "object", "additionalProperties": {"type": "string"}},
                        "pair": {"type": "array", "prefixItems": [{"type": "integer"}]}, "never": {"not": {"type": "string"}},
                        "tree": {"$ref": "#/$defs/node"}}}
        """##)
        #expect(rendered.type.contains("  any?: string | number;\n"))
        #expect(rendered.type.contains("  one?: \"s\" | null;\n"))
        #expect(rendered.type.contains("  all?: number & unknown;\n"))
        #expect(rendered.type.contains("  kind?: { x: [1, \"a\"] } | [true];\n"))
        // patternProperties opens a closed object; a schema in additionalProperties types the rest unknown.
        #expect(rendered.type.contains("  bag?: {\n    [key: string]: unknown;\n  };\n"))
        #expect(rendered.type.contains("  map?: {\n    [key: string]: unknown;\n  };\n"))
        #expect(rendered.type.contains("  pair?: unknown[];\n"))
        #expect(rendered.type.contains("  /** @not {\"type\":\"string\"} */\n  never?: unknown;\n"))
        // The recursive occurrence is unknown; the validators check it.
        #expect(rendered.type.contains("    next?: unknown;\n"))
    }

    /// A recursive occurrence with keywords beside its `$ref` stays an intersection with unknown,
    /// so the siblings are typed as part of it, not as a whole object of their own.
    @Test func aRecursiveRefWithSiblingsIsUnknownAndTheSiblings() throws {
        let rendered = try render(##"""
        {"type": "object", "additionalProperties": false, "$defs": {"node": {"type": "object",
         "properties": {"next": {"$ref": "#/$defs/node", "required": ["value"]}, "value": {"type": "integer"}}}},
         "properties": {"tree": {"$ref": "#/$defs/node"}}}
        """##)
        #expect(rendered.type.contains("    next?: unknown & {\n      value: unknown;\n    };\n"), "\(rendered.type)")
    }

    @Test func keywordsItCannotConvertAreErrorsNamingTheKeyword() throws {
        let cases: [(String, String)] = [
            (##"{"type": "array", "items": [{}]}"##, "/items"),
            (##"{"$dynamicRef": "#x"}"##, "/$dynamicRef"),
            (##"{"unevaluatedProperties": false}"##, "/unevaluatedProperties"),
            (##"{"x-made-up": 1}"##, "/x-made-up"),
            (##"{"anyOf": []}"##, "/anyOf"),
            (##"{"$ref": "#anchor"}"##, "/$ref"),
            (##"{"$ref": "https://example.com/other.json"}"##, "/$ref"),
            (##"{"$ref": "#/$defs/missing"}"##, "/$ref"),
            (##"{"type": "object", "properties": {"a": {"$id": "x", "type": "string"}}}"##, "/properties/a/$id"),
            (##"{"type": "strange"}"##, "/type"),
        ]
        for (schema, pointer) in cases {
            let error = try #require(throws: CodegenError.self, "\(schema)") { try render(schema) }
            #expect(error.pointer == pointer, "\(schema): \(error)")
        }
    }

    @Test func docTextCannotCloseTheComment() throws {
        let rendered = try render(#"{"type": "object", "properties": {"a": {"type": "string", "description": "ends */ here", "pattern": "^a*/b$"}}}"#)
        #expect(rendered.type.contains("   * ends *\\/ here\n   * @pattern ^a*\\/b$\n"))
    }

    @Test func namesAndKeys() {
        #expect(TypeScriptNames.camelCase("view_vehicles") == "viewVehicles")
        #expect(TypeScriptNames.pascalCase("view_vehicles") == "ViewVehicles")
        #expect(TypeScriptNames.propertyKey("utm_source") == "utm_source")
        #expect(TypeScriptNames.propertyKey("2.5ton") == "\"2.5ton\"")
        #expect(TypeScriptNames.propertyKey("a-b") == "\"a-b\"")
        #expect(TypeScriptSchemaConverter.isTopLevelUnion(#""a" | "b""#))
        #expect(TypeScriptSchemaConverter.isTopLevelUnion("string | null"))
        #expect(!TypeScriptSchemaConverter.isTopLevelUnion("{\n  a?: \"x\" | \"y\";\n}"))
        #expect(!TypeScriptSchemaConverter.isTopLevelUnion(#""a|b""#))
        #expect(!TypeScriptSchemaConverter.isTopLevelUnion(#""a\"|b""#))
    }
}
