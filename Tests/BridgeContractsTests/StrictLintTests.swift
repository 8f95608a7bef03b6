@testable import BridgeContracts
import Testing
import TestSupport
import JSONCore

/// Lint refuses what a JSON Schema checker would silently ignore: an unknown keyword (a typo
/// drops the rule it meant) and a link value mapped from a field that may be an array or object.
@Suite("lint is strict where a typo would weaken a contract")
struct StrictLintTests {
    private func findings(_ edits: [(file: String, old: String, new: String?)]) throws -> [String] {
        let contracts = try ContractSet(files: try RepositoryContractFiles.editing(edits), origin: "a broken copy")
        return ContractLinter(contracts: contracts).lint().map(\.description)
    }

    private let region = #""region": { "type": "string", "minLength": 1, "maxLength": 40"#

    @Test func aTypoedKeywordIsNamedWithItsPointerAndTheNearestKnownOne() throws {
        let found = try findings([("schemas/view_vehicles.v1.json", region, region + #", "maxItem": 20"#)])
        #expect(found == [
            #"schemas/view_vehicles.v1.json: /$defs/payload/properties/region/maxItem: unknown keyword "maxItem" for draft 2020-12: a JSON Schema checker ignores it, so the rule it meant is not applied (did you mean "maxItems"?); annotations of your own start with "x-""#,
        ])
    }

    @Test func aKeywordOfAnotherDialectIsUnknown() throws {
        // prefixItems is 2020-12's; the apply schema is 2020-12, so try $recursiveRef (2019-09 only).
        let found = try findings([("schemas/view_vehicles.v1.json", region, region + ##", "$recursiveRef": "#""##)])
        #expect(found.count == 1)
        #expect(found.first?.contains(#"/region/$recursiveRef: unknown keyword "$recursiveRef" for draft 2020-12"#) == true)
    }

    @Test func aWordFarFromEveryKeywordGetsNoSuggestion() throws {
        let found = try findings([("schemas/view_vehicles.v1.json", region, region + #", "colour": "red""#)])
        #expect(found.count == 1)
        #expect(found.first?.contains(#"unknown keyword "colour""#) == true)
        #expect(found.first?.contains("did you mean") == false)
    }

    @Test func annotationsAndXKeywordsStayAllowed() throws {
        let annotated = region + #", "x-owner": "growth", "$comment": "c", "examples": ["서울"], "default": "서울", "deprecated": false, "readOnly": false, "writeOnly": false, "title": "t""#
        #expect(try findings([("schemas/view_vehicles.v1.json", region, annotated)]) == [])
    }

    @Test func valuesOfConstEnumExamplesAndDefaultAreDataNotSchemas() throws {
        let data = region + #", "examples": [{"maxItem": 1}], "default": {"maxItem": 1}"#
        let constant = #""action": { "const": "view_vehicles" }"#
        #expect(try findings([
            ("schemas/view_vehicles.v1.json", region, data),
            ("schemas/view_vehicles.v1.json", constant, #""action": { "enum": ["view_vehicles", {"maxItem": 1}] }"#),
        ]) == [])
    }

    @Test func unknownKeywordsAreFoundUnderEverySchemaPosition() throws {
        let nested = region + #", "allOf": [{ "not": { "minLenght": 2 } }]"#
        let found = try findings([("schemas/view_vehicles.v1.json", region, nested)])
        #expect(found.count == 1)
        #expect(found.first?.contains(#"/region/allOf/0/not/minLenght: unknown keyword "minLenght" for draft 2020-12"#) == true)
        #expect(found.first?.contains(#"did you mean "minLength"?"#) == true)
    }

    @Test func theSuggestionIsWithinAThirdOfTheWordsLength() {
        // "maxItem" (7 characters) may be 2 edits away; "maxI" (4) only 1.
        #expect(nearest("maxItem") == "maxItems")
        #expect(nearest("mxItm") == nil)
        #expect(nearest("tipe") == "type")
        #expect(nearest("tpx") == nil)
    }

    /// The keyword walk reads schemas 63 levels below the root and stops at the 64th, through each
    /// kind of nesting: one subschema, a list of them, a map of them.
    @Test(arguments: ["not", "allOf", "properties"])
    func theKeywordWalkStopsAtTheSixtyFourthLevel(keyword: String) {
        func wrap(_ inner: JSONValue) -> JSONValue {
            switch keyword {
            case "not": return ["not": inner]
            case "allOf": return ["allOf": [true, inner]]
            default: return ["properties": ["p": inner]]
            }
        }
        func found(atLevel level: Int) -> Int {
            var schema: JSONValue = ["typo": true]
            for _ in 0..<level { schema = wrap(schema) }
            return SchemaKeywordCheck(dialect: .draft2020).findings(in: schema, file: "deep.json").count
        }
        #expect(found(atLevel: 62) == 1, "\(keyword)")
        #expect(found(atLevel: 63) == 1, "\(keyword)")
        #expect(found(atLevel: 64) == 0, "\(keyword)")
    }

    private func nearest(_ word: String) -> String? {
        SchemaKeywordCheck.nearest(to: word, among: SchemaKeywordCheck(dialect: .draft2020).known)
    }

    @Test func anArrayMappedIntoALinkQueryIsRefused() throws {
        let found = try findings([("schemas/view_vehicles.v1.json", region, #""region": { "type": "array", "items": { "type": "string" }"#)])
        #expect(found == [
            "manifest.json: /actions/view_vehicles/versions/1/query/region: maps /payload/region to query field region, but schemas/view_vehicles.v1.json lets it be array: a link value is one piece of text (type the field as string, number, boolean, null)",
        ])
    }

    @Test func anUntypedFieldMappedIntoARouteParameterIsRefused() throws {
        let found = try findings([("schemas/apply.v1.json", "\"slug\": {\n          \"type\": \"string\",", "\"slug\": {")])
        #expect(found.contains { $0.hasPrefix("manifest.json: /actions/apply/versions/1/parameters/slug: maps /payload/slug to route parameter slug, but schemas/apply.v1.json declares no type there") })
    }

    @Test func aFieldThatMayBeAnObjectOrAStringIsRefused() throws {
        let found = try findings([("schemas/view_vehicles.v1.json", region, #""region": { "type": ["string", "object"]"#)])
        #expect(found.count == 1)
        #expect(found.first?.contains("lets it be object") == true)
    }

    /// A definition that reaches itself through `allOf` and `$ref` declares nothing and narrows
    /// nothing: the walk stops at its depth bound instead of recursing for ever.
    @Test func aSchemaThatReachesItselfThroughAllOfAndRefNarrowsNothing() throws {
        let contracts = try ContractSet(files: try RepositoryContractFiles.editing([]), origin: "the example")
        let resolver = SchemaPointerResolver(contracts: contracts)
        let cyclic: JSONValue = ["$ref": "#/$defs/a", "$defs": ["a": ["allOf": [["$ref": "#/$defs/a"]]]]]
        #expect(resolver.admittedTypes(pointer: "/payload/x", in: cyclic) == nil)
        #expect(!resolver.declares(pointer: "/payload/x", in: cyclic, file: "cyclic.json"))
        // The same walk with a typed member inside the cycle still finds the member.
        let typed: JSONValue = ["$ref": "#/$defs/a", "$defs": ["a": ["allOf": [["$ref": "#/$defs/a"]],
            "properties": ["payload": ["properties": ["x": ["type": "string"]]]]]]]
        #expect(resolver.admittedTypes(pointer: "/payload/x", in: typed) == ["string"])
    }

    /// A `$ref` fragment is percent-decoded before it is read as a pointer: `%20` and the UTF-8
    /// of `%EC%83%81` name the definitions "a b" and "상"; a `%` without two hex digits after it
    /// is kept as written, with what follows it.
    @Test func aPercentEncodedReferenceReachesItsDefinition() throws {
        let contracts = try ContractSet(files: try RepositoryContractFiles.editing([]), origin: "the example")
        let resolver = SchemaPointerResolver(contracts: contracts)
        let schema: JSONValue = [
            "properties": ["payload": ["properties": [
                "spaced": ["$ref": "#/$defs/a%20b"], "korean": ["$ref": "#/$defs/%EC%83%81"], "stray": ["$ref": "#/$defs/100%"],
                "loose": ["$ref": "#/$defs/%zz%2"], "signed": ["$ref": "#/$defs/%+1"],
            ]]],
            "$defs": ["a b": ["type": "integer"], "상": ["type": "boolean"], "100%": ["type": "string"],
                      "%zz%2": ["type": "array"], "%+1": ["type": "null"]],
        ]
        #expect(resolver.admittedTypes(pointer: "/payload/spaced", in: schema) == ["number"])
        #expect(resolver.admittedTypes(pointer: "/payload/korean", in: schema) == ["boolean"])
        #expect(resolver.admittedTypes(pointer: "/payload/stray", in: schema) == ["string"])
        #expect(resolver.admittedTypes(pointer: "/payload/loose", in: schema) == ["array"])
        #expect(resolver.admittedTypes(pointer: "/payload/signed", in: schema) == ["null"])
    }

    @Test func aFixtureFromAnUndeclaredChannelIsNamed() throws {
        let file = "fixtures/start/v1/valid-push-entry.json"
        let found = try findings([(file, #""source": "push","#, #""source": "sms","#)])
        #expect(found == [
            #"fixtures/start/v1/valid-push-entry.json: /source: unknown channel "sms" (known: push, externalURL, appInternal, kakaotalk; declare others in routes.json "channels")"#,
        ])
        // Declared, the same fixture is clean.
        let declared = try findings([
            (file, #""source": "push","#, #""source": "sms","#),
            ("routes.json", #""kakaotalk": { "utm_source""#, #""sms": { "utm_source": ["sms"] }, "kakaotalk": { "utm_source""#),
        ])
        #expect(declared.filter { $0.contains("/source") } == [])
    }

    @Test func scalarEnumsAndNullableQueryFieldsPass() throws {
        #expect(try findings([("schemas/view_vehicles.v1.json", region, #""region": { "type": ["string", "null"], "minLength": 1, "maxLength": 40"#)]) == [])
    }
}
