import JSONCore
import SchemaCheck
import Testing

/// When a schema needs the built-in meta-schemas registered: a reference or identifier under
/// json-schema.org, over http or https, anywhere in the document; a `$schema` there only when it
/// is not one of the five dialects the checker knows by URI.
struct MetaSchemaNeedTests {
    @Test(arguments: [
        (#"{"$ref":"https://json-schema.org/draft/2020-12/schema"}"#, true),
        (#"{"$ref":"http://json-schema.org/draft-07/schema#"}"#, true),
        (#"{"$recursiveRef":"https://json-schema.org/draft/2019-09/schema"}"#, true),
        (#"{"id":"http://json-schema.org/draft-04/custom"}"#, true),
        (#"{"$schema":"https://json-schema.org/draft/2020-12/schema"}"#, false),
        (#"{"$schema":"https://json-schema.org/draft/2020-12/schema#"}"#, false),
        (#"{"$schema":"http://json-schema.org/draft-04/schema#"}"#, false),
        (#"{"$schema":"http://json-schema.org/draft-06/schema"}"#, false),
        (#"{"$schema":"https://json-schema.org/draft/next/schema"}"#, true),
        (#"{"$schema":"http://json-schema.org/draft-07/schema/"}"#, true),
        (#"{"$ref":"https://example.com/json-schema.org/draft-07/schema"}"#, false),
        (#"{"$ref":"json-schema.org/draft-07/schema"}"#, false),
        (#"{"title":"https://json-schema.org/draft/2020-12/schema"}"#, false),
        (#"{"allOf":[{"not":{"$ref":"http://json-schema.org/draft-07/schema#"}}]}"#, true),
        (#"[{"$ref":"https://json-schema.org/draft/2020-12/schema"}]"#, true),
        (#"true"#, false),
    ])
    func metaSchemasAreNeededOnlyForReferencesIntoJSONSchemaOrg(schema: String, needed: Bool) throws {
        #expect(SchemaRegistry.needsMetaSchemas(try JSONDocument(schema).value) == needed)
    }
}
