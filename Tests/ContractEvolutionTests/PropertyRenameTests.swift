import Testing
import TestSupport
import BridgeContracts
import SchemaCheck
import JSONCore
@testable import ContractEvolution

/// A payload property renamed (one out, one in with the same schema and required-ness) is one
/// `property-renamed` finding, proven in both directions, each proof run through both checkers.
@Suite struct PropertyRenameTests {
    /// `apply` v1's payload, closed, with its required slug under the given name.
    func applyPayload(slugNamed name: String, type: String = "string") -> JSONValue {
        ["type": "object", "required": [.string(name)],
         "properties": [name: ["type": .string(type), "pattern": "^[a-z0-9-]{1,64}$"],
                        "plan": ["enum": ["basic", "premium", "business"]],
                        "memo": ["type": "string", "maxLength": 200]],
         "additionalProperties": false]
    }

    func diff(old: JSONValue, new: JSONValue) throws -> (ContractSet, ContractSet, DiffReport) {
        let before = try GoldenTests.contracts(payload: old, defs: nil, assertFormat: false)
        let after = try GoldenTests.contracts(payload: new, defs: nil, assertFormat: false)
        return (before, after, try ContractDiff.compare(old: before, new: after, today: "2026-01-01"))
    }

    func expectEachProofSeparates(_ finding: Finding, old: ContractSet, new: ContractSet) throws {
        let checkers = [Side.old: try CompiledContracts(contracts: old), .new: try CompiledContracts(contracts: new)]
        for example in finding.counterexamples {
            let document = try JSONDocument(try #require(example.message).serialized(), limits: .bridgeMessage)
            #expect(checkers[example.acceptedBy]!.check(document).isValid)
            #expect(!checkers[example.acceptedBy.other]!.check(document).isValid)
        }
    }

    @Test func aRequiredMemberRenamedInAClosedObjectIsOneFindingProvenBothWays() throws {
        let (old, new, report) = try diff(old: applyPayload(slugNamed: "slug"), new: applyPayload(slugNamed: "eventSlug"))
        let schemaFindings = report.findings.filter { $0.kind != .versionNotBumped }
        #expect(schemaFindings.map(\.kind) == [.propertyRenamed], "\(report.text)")
        let finding = try #require(schemaFindings.first)
        #expect(finding.severity == .breaking)
        #expect(finding.schemaPointer == "/properties/payload/properties/eventSlug")
        #expect(finding.detail == #"property "slug" renamed to "eventSlug" (required, same schema)"#)
        #expect(finding.counterexamples.map(\.acceptedBy) == [.old, .new], "\(report.text)")
        #expect(finding.doubtedSides.isEmpty)
        let payloads = finding.counterexamples.map { $0.message?["payload"] }
        #expect(payloads.first??["slug"] != nil && payloads.last??["eventSlug"] != nil, "\(report.text)")
        try expectEachProofSeparates(finding, old: old, new: new)
        #expect(report.possiblyBreakingCount == 0)
    }

    /// Not a rename (the type changed too): the separate findings, each still proven from the
    /// message only its own side accepts, though the other side rejects it for two reasons.
    @Test func aRenamedAndRetypedMemberIsProvenFromEachSidesOwnMessage() throws {
        let (old, new, report) = try diff(old: applyPayload(slugNamed: "slug"), new: applyPayload(slugNamed: "eventSlug", type: "integer"))
        #expect(!report.findings.contains { $0.kind == .propertyRenamed })
        #expect(report.possiblyBreakingCount == 0, "\(report.text)")
        let proven = Set(report.findings.flatMap { $0.counterexamples.map(\.acceptedBy) })
        #expect(proven == [.old, .new], "\(report.text)")
        for finding in report.findings { try expectEachProofSeparates(finding, old: old, new: new) }
    }

    @Test func anOptionalMemberRenamedInAnOpenObjectIsOneFinding() throws {
        let (old, new, report) = try diff(old: ["type": "object", "properties": ["slug": ["type": "string"]]],
                                          new: ["type": "object", "properties": ["eventSlug": ["type": "string"]]])
        let schemaFindings = report.findings.filter { $0.kind != .versionNotBumped }
        #expect(schemaFindings.map(\.kind) == [.propertyRenamed], "\(report.text)")
        let finding = try #require(schemaFindings.first)
        #expect(finding.counterexamples.map(\.acceptedBy) == [.old, .new], "\(report.text)")
        try expectEachProofSeparates(finding, old: old, new: new)
    }
}
