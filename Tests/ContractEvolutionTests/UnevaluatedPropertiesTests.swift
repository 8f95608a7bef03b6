import Testing
import TestSupport
import BridgeContracts
import JSONCore
@testable import ContractEvolution

/// `unevaluatedProperties` sees what the schema beside it evaluated. Where nothing evaluates
/// members conditionally it is `additionalProperties` over the declared properties, and `diff`
/// compares it as that; beside an `additionalProperties` it has nothing left to see.
@Suite struct UnevaluatedPropertiesTests {
    func diff(old: JSONValue, new: JSONValue) throws -> DiffReport {
        let before = try GoldenTests.contracts(payload: old, defs: nil, assertFormat: false)
        let after = try GoldenTests.contracts(payload: new, defs: nil, assertFormat: false)
        return try ContractDiff.compare(old: before, new: after, today: "2026-01-01")
    }

    func payload(_ extra: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject([("type", "object"), ("properties", ["a": ["type": "string"]])] + extra))
    }

    func schemaFindings(_ report: DiffReport) -> [Finding] {
        report.findings.filter { !$0.schemaPointer.isEmpty }
    }

    @Test func unevaluatedPropertiesWithNothingConditionalIsAdditionalProperties() throws {
        let report = try diff(old: payload([("unevaluatedProperties", false)]), new: payload([("additionalProperties", false)]))
        #expect(schemaFindings(report).isEmpty, "\(report.text)")
        let widened = try diff(old: payload([("unevaluatedProperties", false)]), new: payload([]))
        #expect(!schemaFindings(widened).isEmpty, "dropping it lets other members in: \(widened.text)")
    }

    /// additionalProperties evaluates every member the properties do not name: the
    /// unevaluatedProperties beside it is never reached, and dropping it changes nothing.
    @Test func besideAdditionalPropertiesItChangesNothing() throws {
        let strings: JSONValue = ["type": "string"]
        let report = try diff(old: payload([("additionalProperties", strings), ("unevaluatedProperties", false)]),
                              new: payload([("additionalProperties", strings)]))
        #expect(schemaFindings(report).isEmpty, "\(report.text)")
    }

    /// Beside a subschema that evaluates members conditionally (a branch that matched, an `if`,
    /// a member's dependent schema), which members were evaluated depends on the message: it is
    /// kept as written, so it is not mistaken for the additionalProperties that refuses those members.
    @Test(arguments: [
        ("anyOf", ["anyOf": [["properties": ["b": ["type": "integer"]], "required": ["b"]], ["required": ["a"]]]]),
        ("oneOf", ["oneOf": [["properties": ["b": ["type": "integer"]], "required": ["b"]], ["required": ["a"], "not": ["required": ["b"]]]]]),
        ("allOf", ["allOf": [["if": ["required": ["a"]], "then": ["properties": ["b": ["type": "integer"]]]]]]),
        ("if", ["if": ["required": ["a"]], "then": ["properties": ["b": ["type": "integer"]]]]),
        ("dependentSchemas", ["dependentSchemas": ["a": ["properties": ["b": ["type": "integer"]]]]]),
    ] as [(String, JSONValue)])
    func besideAConditionalSubschemaItIsKeptAsWritten(_ keyword: String, _ conditional: JSONValue) throws {
        let beside = conditional.objectValue!.map { ($0.key, $0.value) }
        let old = payload(beside + [("unevaluatedProperties", false)])
        let report = try diff(old: old, new: payload(beside + [("additionalProperties", false)]))
        #expect(!schemaFindings(report).isEmpty, "\(keyword): \(report.text)")
        #expect(schemaFindings(try diff(old: old, new: old)).isEmpty)
    }
}
