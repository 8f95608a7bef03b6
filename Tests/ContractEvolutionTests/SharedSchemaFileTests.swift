import Testing
import TestSupport
import BridgeContracts
import SchemaCheck
import JSONCore
@testable import ContractEvolution

/// An action whose payload is a schema file of its own (`payload.json`, `$ref`ed from the
/// action's schema): each change in that file is one finding, with one verdict, not one for the
/// action version and another for the file.
@Suite struct SharedSchemaFileTests {
    static let object: JSONValue = ["type": "object", "properties": ["x": ["type": "string"]]]

    static let changes: [(name: String, new: JSONValue, kind: FindingKind)] = [
        ("required added at the payload's root", ["type": "object", "properties": ["x": ["type": "string"]], "required": ["x"]], .requiredAdded),
        ("object closed at the payload's root", ["type": "object", "properties": ["x": ["type": "string"]], "additionalProperties": false], .objectClosed),
        ("type changed inside", ["type": "object", "properties": ["x": ["type": "integer"]]], .typeChanged),
    ]

    @Test(arguments: changes.indices) func aChangeInAPayloadFileOfItsOwnIsReportedOnce(_ index: Int) throws {
        let change = Self.changes[index]
        let old = try CompatibilityTableTests.contracts(Self.object, dialect: "2020-12")
        let new = try CompatibilityTableTests.contracts(change.new, dialect: "2020-12")
        let report = try ContractDiff.compare(old: old, new: new, today: "2026-01-01")
        let findings = report.findings.filter { $0.kind != .versionNotBumped && $0.kind != .annotationChanged }
        #expect(findings.map(\.kind) == [change.kind], "\(change.name): \(report.text)")
        #expect(findings.allSatisfy { $0.severity == .breaking }, "\(change.name): \(report.text)")
    }
}
