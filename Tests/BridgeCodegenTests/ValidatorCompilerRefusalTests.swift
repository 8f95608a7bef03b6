import BridgeContracts
import Testing

@testable import BridgeCodegen

/// What the JS validator compiler cannot compile is refused with the file and the JSON Pointer
/// of the keyword, never compiled into a validator that checks something else.
@Suite struct ValidatorCompilerRefusalTests {
    /// The problems of compiling `t.json` (the repository's contracts plus it).
    private func problems(_ schema: String) throws -> [String] {
        let contracts = try RepositoryContracts.set { files in files["schemas/t.json"] = schema }
        var compiler = ValidatorCompiler(contracts: contracts)
        _ = compiler.root(file: "t.json")
        return compiler.problems.map(\.description)
    }

    @Test(arguments: [
        (#"{"items": [{"type": "string"}]}"#, "t.json#/items: items as an array is draft-07; 2020-12 uses prefixItems"),
        (#"{"prefixItems": {"type": "string"}}"#, "t.json#/prefixItems: prefixItems must be an array of schemas"),
        (#"{"allOf": []}"#, "t.json#/allOf: allOf must be a non-empty array of schemas"),
        (#"{"anyOf": []}"#, "t.json#/anyOf: anyOf must be a non-empty array of schemas"),
        (#"{"oneOf": {}}"#, "t.json#/oneOf: oneOf must be a non-empty array of schemas"),
        (#"{"minContains": -1}"#, "t.json#/minContains: minContains must be a non-negative integer"),
        (#"{"maxLength": 1.5}"#, "t.json#/maxLength: maxLength must be a non-negative integer"),
        (#"{"minItems": -1}"#, "t.json#/minItems: minItems must be a non-negative integer"),
        (#"{"multipleOf": 0}"#, "t.json#/multipleOf: multipleOf must be a number greater than 0"),
        (#"{"minimum": "1"}"#, "t.json#/minimum: minimum must be a number"),
        (#"{"enum": "a"}"#, "t.json#/enum: enum must be an array"),
        (#"{"type": "text"}"#, "t.json#/type: type must name JSON Schema types"),
        (#"{"pattern": 1}"#, "t.json#/pattern: pattern must be a string"),
        (#"{"format": 1}"#, "t.json#/format: format must be a string"),
        (#"{"uniqueItems": "yes"}"#, "t.json#/uniqueItems: uniqueItems must be a boolean"),
        (#"{"required": [1]}"#, "t.json#/required: required must be an array of strings"),
        (#"{"properties": []}"#, "t.json#/properties: properties must be an object"),
        (#"{"patternProperties": []}"#, "t.json#/patternProperties: patternProperties must be an object"),
        (#"{"dependentRequired": []}"#, "t.json#/dependentRequired: dependentRequired must be an object"),
        (#"{"dependentRequired": {"a": "b"}}"#, "t.json#/dependentRequired/a: dependentRequired maps names to arrays of names"),
        (#"{"dependentSchemas": {"a": 1}}"#, "t.json#/dependentSchemas/a: dependentSchemas maps names to schemas"),
        (#"{"$ref": 1}"#, "t.json#/$ref: $ref must be a string"),
        (##"{"$ref": "#/$defs/none"}"##, ##"t.json#/$ref: $ref "#/$defs/none" points at nothing"##),
        (#"{"properties": {"a": 1}}"#, "t.json#/properties/a: a schema is an object or a boolean"),
        (#"{"properties": {"a": {"$id": "https://example.test/a"}}}"#, "t.json#/properties/a/$id: a nested $id is not supported by the JS validator generator"),
        (#"{"$schema": "http://json-schema.org/draft-07/schema#"}"#, "t.json#/$schema: the JS validator generator compiles JSON Schema 2020-12 only, not http://json-schema.org/draft-07/schema#"),
        (#"{"unevaluatedProperties": false}"#, "t.json#/unevaluatedProperties: keyword \"unevaluatedProperties\" is not supported by the JS validator generator"),
        (#"{"unevaluatedItems": false}"#, "t.json#/unevaluatedItems: keyword \"unevaluatedItems\" is not supported by the JS validator generator"),
    ] as [(String, String)])
    func aSchemaTheCompilerCannotCompileIsRefusedAtItsKeyword(_ schema: String, _ expected: String) throws {
        let found = try problems(schema)
        #expect(found == [expected], "\(schema)")
    }

    /// Each refusal above is of the keyword, not of the schema: the same keywords written well
    /// compile, and a keyword the generator does not know is an annotation.
    @Test func theSameKeywordsWrittenWellCompile() throws {
        #expect(try problems(##"""
        {"prefixItems": [{"type": "string"}], "items": {"type": "integer"}, "allOf": [true], "anyOf": [{"minContains": 0, "contains": true}],
         "oneOf": [{"maxLength": 2, "minItems": 1}], "multipleOf": 0.5, "minimum": 1, "enum": ["a", 1], "type": ["string", "integer"],
         "pattern": "^a", "format": "date", "uniqueItems": true, "required": ["a"], "properties": {"a": true},
         "patternProperties": {"^x": false}, "dependentRequired": {"a": ["b"]}, "dependentSchemas": {"a": {}},
         "$defs": {"d": {}}, "$ref": "#/$defs/d", "x-annotation": 1}
        """##) == [])
    }
}
