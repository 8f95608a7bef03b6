import BridgeContracts
import JSONCore
import Testing
import TestSupport
@testable import ContractEvolution

/// The example messages diff shows are built from the schema as written: where a branch of an
/// `anyOf` narrows the schema's own `enum`, the example is the first of the schema's values the
/// branch allows, in the schema's order, not the branch's.
struct InstanceSynthesizerTests {
    private func instance(_ schema: String) throws -> JSONValue? {
        var files = try ExampleContracts.files()
        files["schemas/example.json"] = schema
        let contracts = try ContractSet(files: files, origin: "test copy")
        let normal = try #require(SchemaNormalizer(documents: SchemaDocuments(contracts: contracts)).normalize(uri: contracts.schemaURI(file: "example.json")))
        return InstanceSynthesizer(matcher: PatternMatcher()).instance(normal)
    }

    /// A format's example that breaks the length bounds is not the instance: a date is ten
    /// characters, so under maxLength 5 the instance is a shorter plain string, and at maxLength
    /// 10 the date itself.
    @Test func aStringInstanceKeepsTheLengthBoundsWhateverItsFormat() throws {
        let short = try #require(try instance(#"{"type": "string", "format": "date", "maxLength": 5}"#)?.stringValue)
        #expect(short.count <= 5, "\(short)")
        let long = try #require(try instance(#"{"type": "string", "format": "date", "minLength": 11}"#)?.stringValue)
        #expect(long.count >= 11, "\(long)")
        #expect(try instance(#"{"type": "string", "format": "date", "maxLength": 10}"#)?.stringValue?.count == 10)
    }

    /// An object that must have a member, each member such an object again, has no finite
    /// instance: the synthesizer says so instead of recursing for ever. Written out level by
    /// level, it builds instances 23 members deep and gives up at 24 (its depth bound).
    @Test func nestedRequiredMembersAreBuiltUpToTheDepthBound() throws {
        #expect(try instance(##"{"type": "object", "minProperties": 1, "additionalProperties": {"$ref": "#"}}"##) == nil)
        func nested(_ levels: Int) -> String {
            (0..<levels).reduce(#"{"type": "object"}"#) { inner, _ in #"{"type": "object", "minProperties": 1, "additionalProperties": "# + inner + "}" }
        }
        for levels in [22, 23] {
            let built = try #require(try instance(nested(levels)), "\(levels) levels")
            #expect(built.serialized().hasSuffix(String(repeating: "}", count: levels + 1)), "\(levels) levels")
        }
        #expect(try instance(nested(24)) == nil)
    }

    @Test func aBranchNarrowingTheEnumKeepsTheSchemasOrder() throws {
        #expect(try instance(#"{"enum": ["a", "b", "c"], "anyOf": [{"enum": ["c", "b"]}, {"enum": ["b", "a"]}]}"#) == "b")
        #expect(try instance(#"{"enum": ["c", "b", "a"], "anyOf": [{"enum": ["a", "b"]}, {"enum": ["b", "a"]}]}"#) == "b")
    }

    @Test func anObjectMemberNarrowedByABranchKeepsTheSchemasOrder() throws {
        let schema = #"""
        {"type": "object", "required": ["kind"], "properties": {"kind": {"enum": ["pickup", "delivery", "return"]}},
         "anyOf": [{"properties": {"kind": {"enum": ["return", "delivery"]}}}, {"properties": {"kind": {"const": "pickup"}}}]}
        """#
        #expect(try instance(schema) == ["kind": "delivery"])
    }

    /// An allOf whose members cannot be merged into one schema (a pattern property on one side, a
    /// member the other names) is kept as written, and the example starts from its first member.
    @Test func anAllOfThatCannotBeMergedStartsFromItsFirstMember() throws {
        let schema = #"""
        {"allOf": [
          {"type": "object", "patternProperties": {"^z": {}}, "properties": {"x": {"const": "first"}}, "required": ["x"]},
          {"type": "object", "properties": {"y": {"const": "second"}}, "required": ["y"]}
        ]}
        """#
        #expect(try instance(schema) == ["x": "first"])
    }
}
