import Testing
import BridgeContracts
import SchemaCheck
import JSONCore
@testable import ContractEvolution

/// Schemas no one should write, compared anyway: diff finishes, does not crash, and either
/// reports findings or refuses the set with a ContractError (a schema the checker will not
/// compile), never hangs on a bound, a recursion or a huge enum.
@Suite(.timeLimit(.minutes(1))) struct HostileSchemaTests {
    static let cases: [(String, JSONValue, JSONValue, JSONValue?)] = {
        let many: [JSONValue] = (0..<2_000).map { .string("v\($0)") }
        var nested: JSONValue = ["type": "string"]
        for _ in 0..<60 { nested = ["allOf": [nested]] }
        return [
            ("a minimum length past any message", ["type": "object", "properties": ["s": ["type": "string"]]],
             ["type": "object", "properties": ["s": ["type": "string", "minLength": 1_000_000_000]]], nil),
            ("a huge item count", ["type": "object", "properties": ["a": ["type": "array", "minItems": 5]]],
             ["type": "object", "properties": ["a": ["type": "array", "minItems": 100_000_000]]], nil),
            ("a tiny multipleOf", ["type": "object", "properties": ["n": ["type": "number"]]],
             ["type": "object", "properties": ["n": ["type": "number", "multipleOf": 0.0001]]], nil),
            ("two thousand enum values, one removed", ["type": "object", "properties": ["e": ["enum": .array(many)]]],
             ["type": "object", "properties": ["e": ["enum": .array(Array(many.dropLast()))]]], nil),
            ("sixty nested allOf", ["type": "object", "properties": ["x": nested]],
             ["type": "object", "properties": ["x": ["type": "string", "maxLength": 3]]], nil),
            ("a reference to itself", ["type": "object", "properties": ["x": ["$ref": "#/$defs/loop"]]],
             ["type": "object", "properties": ["x": ["$ref": "#/$defs/loop"], "y": ["type": "string"]]],
             ["loop": ["$ref": "#/$defs/loop"]]),
            ("a pattern the engine cannot read", ["type": "object", "properties": ["p": ["type": "string", "pattern": "^(a|b)\\1$"]]],
             ["type": "object", "properties": ["p": ["type": "string", "pattern": "^(a|b)\\1{2}$"]]], nil),
        ]
    }()

    @Test(arguments: cases.indices) func diffFinishes(_ index: Int) throws {
        let (name, old, new, defs) = Self.cases[index]
        do {
            let report = try ContractDiff.compare(
                old: try GoldenTests.contracts(payload: old, defs: defs, assertFormat: false),
                new: try GoldenTests.contracts(payload: new, defs: defs, assertFormat: false), today: "2026-01-01")
            #expect(!report.findings.isEmpty, "\(name)")
            for finding in report.findings where finding.severity == .breaking && finding.kind != .versionNotBumped {
                #expect(finding.counterexample != nil, "\(name): \(finding.line)")
            }
        } catch let error as ContractError {
            // Only a set the checker refuses may be refused.
            #expect(error.message.contains("compile"), "\(name): \(error)")
        }
    }
}
