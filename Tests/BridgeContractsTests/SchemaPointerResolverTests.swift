import JSONCore
import Testing
import TestSupport
@testable import BridgeContracts

/// Whether a mapping's pointer names a declared property: through properties, `$ref` and
/// `allOf`, up to 32 steps deep, and never forever round a `$ref` loop.
@Suite struct SchemaPointerResolverTests {
    let resolver: SchemaPointerResolver
    init() throws { resolver = SchemaPointerResolver(contracts: try ContractSet(files: ExampleContracts.files(), origin: "example")) }

    /// An object schema with `levels` nested members named `m`.
    func nested(_ levels: Int) -> JSONValue {
        var schema: JSONValue = ["type": "string"]
        for _ in 0..<levels { schema = ["type": "object", "properties": ["m": schema]] }
        return schema
    }

    func pointer(_ tokens: Int) -> String { String(repeating: "/m", count: tokens) }

    @Test(arguments: [(31, true), (32, true), (33, false)])
    func aPointerIsFollowedUpTo32StepsDeep(tokens: Int, declared: Bool) {
        #expect(resolver.declares(pointer: pointer(tokens), in: nested(40), file: "t.json") == declared, "\(tokens) tokens")
    }

    @Test func propertiesRefsAndAllOfAreFollowedAndALoopEnds() {
        let schema: JSONValue = [
            "$defs": ["inner": ["properties": ["b": ["type": "string"]]], "loop": ["$ref": "#/$defs/loop"]],
            "properties": ["a": ["$ref": "#/$defs/inner"], "c": ["allOf": [["properties": ["d": true]]]], "e": ["$ref": "#/$defs/loop"]],
        ]
        #expect(resolver.declares(pointer: "/a/b", in: schema, file: "t.json"))
        #expect(resolver.declares(pointer: "/c/d", in: schema, file: "t.json"))
        #expect(!resolver.declares(pointer: "/a/x", in: schema, file: "t.json"))
        #expect(!resolver.declares(pointer: "/e/f", in: schema, file: "t.json"), "a $ref loop ends undeclared")
        #expect(!resolver.declares(pointer: "", in: schema, file: "t.json"), "the whole message is no property")
    }
}
