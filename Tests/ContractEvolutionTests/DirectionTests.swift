import Testing
import TestSupport
import BridgeContracts
import SchemaCheck
import JSONCore
@testable import ContractEvolution

/// Which side a finding breaks, proven per direction, and the seeds the search starts from.
@Suite struct DirectionTests {
    func diff(old: JSONValue, new: JSONValue) throws -> (ContractSet, ContractSet, DiffReport) {
        let before = try GoldenTests.contracts(payload: old, defs: nil, assertFormat: false)
        let after = try GoldenTests.contracts(payload: new, defs: nil, assertFormat: false)
        return (before, after, try ContractDiff.compare(old: before, new: after, today: "2026-01-01"))
    }

    func object(_ member: JSONValue) -> JSONValue { ["type": "object", "properties": ["x": member]] }

    /// object -> array: `{}` breaks old pages against new builds, `[{}]`-like arrays break new
    /// pages against old builds; both are proven, each through both real checkers.
    @Test func aTypeChangeIsProvenInBothDirections() throws {
        let (old, new, report) = try diff(old: object(["type": "object"]), new: object(["type": "array"]))
        let finding = try #require(report.findings.first { $0.kind == .typeChanged }, "\(report.text)")
        #expect(finding.severity == .breaking)
        #expect(finding.counterexamples.map(\.acceptedBy) == [.old, .new], "\(report.text)")
        #expect(finding.doubtedSides.isEmpty)
        let checkers = [Side.old: try CompiledContracts(contracts: old), .new: try CompiledContracts(contracts: new)]
        for example in finding.counterexamples {
            let message = try #require(example.message)
            let document = try JSONDocument(message.serialized(), limits: .bridgeMessage)
            #expect(checkers[example.acceptedBy]!.check(document).isValid)
            #expect(!checkers[example.acceptedBy.other]!.check(document).isValid)
        }
        #expect(finding.counterexamples[0].message?["payload"]?["x"]?.objectValue != nil)
        #expect(finding.counterexamples[1].message?["payload"]?["x"]?.arrayValue != nil)
        #expect(finding.line.contains("breaks pages in the field") && finding.line.contains("; and breaks app builds in the field"),
                "\(finding.line)")
        #expect(finding.breaksWhom == "pages in the field and app builds in the field")
        #expect(finding.json["counterexamples"]?.arrayValue?.count == 2)
        // One fixture per direction: invalid for the new contracts (old side's), valid (new side's).
        let fixtures = report.counterexampleFixtures.map(\.path)
        #expect(fixtures.filter { $0.contains("type-changed") }.count == 2, "\(fixtures)")
        #expect(fixtures.contains { $0.contains("invalid-diff-type-changed") } && fixtures.contains { $0.contains("/valid-diff-type-changed") })
    }

    /// An enum with no value in common: each side's own value is the proof, found from seeds
    /// only that side accepts.
    @Test func disjointEnumsAreProvenFromEachSidesOwnValue() throws {
        let (_, _, report) = try diff(old: object(["enum": ["red"]]), new: object(["enum": ["blue"]]))
        let finding = try #require(report.findings.first { $0.kind == .enumChanged }, "\(report.text)")
        let values = finding.counterexamples.map { $0.message?["payload"]?["x"] }
        #expect(values == [.string("red"), .string("blue")], "\(report.text)")
    }

    /// A direction without a proof is named in the finding, with the reason.
    @Test func aDoubtedDirectionIsNamedWithTheReason() throws {
        // contains of integers -> contains of integers twice: no message the new side accepts
        // and the old rejects exists, and the old direction is proven.
        let (_, _, report) = try diff(old: object(["type": "array", "contains": ["type": "integer"]]),
                                      new: object(["type": "array", "contains": ["type": "integer"], "minContains": 2]))
        let finding = try #require(report.findings.first { $0.kind == .keywordChanged }, "\(report.text)")
        #expect(finding.counterexamples.map(\.acceptedBy) == [.old], "\(report.text)")
        #expect(finding.doubtedSides == [.new])
        #expect(finding.line.contains("possibly also new pages against old app builds"), "\(finding.line)")
        #expect(finding.json["inDoubt"] == ["new pages against old app builds"])
    }

    /// Every valid fixture of a set is a seed, whatever its origin (stated or not).
    @Test func everyValidFixtureIsASeedWhateverItsOrigin() throws {
        let contracts = try ContractSet(files: ExampleContracts.files(), origin: "example")
        let run = try DiffRun(old: contracts, new: contracts)
        let valid = contracts.fixtures.filter { $0.action == "apply" && $0.version == 1 && $0.expect.valid }
        #expect(valid.contains { $0.origin == nil }, "the example set has a valid fixture without an origin")
        let expected = valid.compactMap(\.message)
        let seeds = run.fixtureMessages(action: "apply", version: 1)
        #expect(!expected.isEmpty)
        #expect(expected.allSatisfy { seeds.contains($0) }, "\(seeds.count) seeds of \(expected.count) valid fixtures")
    }
}
