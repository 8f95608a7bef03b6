import Testing
import BridgeContracts
import TestSupport
@testable import ContractEvolution

/// An accepted change holds through its expiry day and fails the diff from the day after:
/// tried the day before, on the day and the day after (`expires >= today`).
@Suite struct AcceptedChangeExpiryTests {
    static let bundled = (try? ExampleContracts.files()) ?? [:]

    /// apply v1 with the "business" plan removed: one enum-narrowed finding, accepted until 2026-06-30.
    func diff(today: String) throws -> DiffReport {
        var files = Self.bundled
        let file = "schemas/apply.v1.json"
        let old = #""plan": { "enum": ["basic", "premium", "business"]"#
        let text = try #require(files[file])
        #expect(text.contains(old))
        files[file] = text.replacingOccurrences(of: old, with: #""plan": { "enum": ["basic", "premium"]"#)
        let accepted = try AcceptedChanges(text: """
            {"accepted": [{"kind": "enum-narrowed", "action": "apply", "version": 1,
              "schemaPointer": "/properties/payload/properties/plan", "reason": "no page sent it", "expires": "2026-06-30"}]}
            """)
        return try ContractDiff.compare(old: try ContractSet(files: Self.bundled, origin: "bundled"),
                                        new: try ContractSet(files: files, origin: "edited"), accepted: accepted, today: today)
    }

    func narrowed(_ report: DiffReport) throws -> Finding {
        try #require(report.findings.first { $0.kind == .enumNarrowed })
    }

    @Test func anAcceptanceHoldsTheDayBeforeItExpires() throws {
        let report = try diff(today: "2026-06-29")
        #expect(try narrowed(report).accepted != nil)
        #expect(!report.findings.contains { $0.kind == .acceptedChangeExpired })
        #expect(!report.fails, "\(report.text)")
    }

    @Test func anAcceptanceHoldsOnItsExpiryDay() throws {
        let report = try diff(today: "2026-06-30")
        #expect(try narrowed(report).accepted != nil)
        #expect(!report.findings.contains { $0.kind == .acceptedChangeExpired })
        #expect(!report.fails, "\(report.text)")
    }

    @Test func anAcceptanceFailsTheDayAfterItExpires() throws {
        let report = try diff(today: "2026-07-01")
        #expect(try narrowed(report).accepted == nil)
        #expect(report.findings.contains { $0.kind == .acceptedChangeExpired })
        #expect(report.fails)
    }
}
