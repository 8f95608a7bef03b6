import BridgeContracts
import Testing
@testable import ContractEvolution

/// contracts/accepted-changes.json read: each subject form, and each malformed entry refused
/// with the file and the field at fault.
@Suite struct AcceptedChangesFileTests {
    func entry(_ members: String) -> String {
        #"{"accepted": [{"kind": "enum-narrowed", "reason": "no page sends it", "expires": "2026-12-31"\#(members.isEmpty ? "" : ", ")\#(members)}]}"#
    }

    func refusal(_ text: String) -> String? {
        do {
            _ = try AcceptedChanges(text: text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func eachSubjectFormIsRead() throws {
        let forms: [(String, Subject)] = [
            (#""action": "apply", "version": 2"#, .actionVersion(action: "apply", version: 2)),
            (#""action": "apply""#, .action("apply")),
            (#""event": "state_changed", "version": 1"#, .eventVersion(event: "state_changed", version: 1)),
            (#""event": "state_changed""#, .event("state_changed")),
            (#""schema": "campaign.v1.json""#, .schema(file: "campaign.v1.json")),
            (#""route": "applyForm""#, .route("applyForm")),
            ("", .manifest),
        ]
        for (members, subject) in forms {
            let read = try AcceptedChanges(text: entry(members))
            #expect(read.entries.map(\.subject) == [subject], "\(members)")
        }
        let full = try #require(try AcceptedChanges(text: entry(#""action": "apply", "version": 1, "schemaPointer": "/properties/plan""#)).entries.first)
        #expect(full == AcceptedChange(kind: .enumNarrowed, subject: .actionVersion(action: "apply", version: 1), schemaPointer: "/properties/plan",
                                       reason: "no page sends it", expires: "2026-12-31", pointer: "/accepted/0"))
    }

    @Test func eachMalformedEntryIsRefusedAtItsField() {
        let file = "accepted-changes.json"
        #expect(refusal("{")?.hasPrefix(file + ": not valid JSON") == true, "\(refusal("{") ?? "read")")
        #expect(refusal(#"{"accepted": {}}"#) == file + ": /accepted: expected an array of accepted changes")
        #expect(refusal(#"{"accepted": [1]}"#) == file + ": /accepted/0: expected an object")
        #expect(refusal(#"{"accepted": [{"kind": "enum-narrowed", "expires": "2026-12-31"}]}"#) == file + ": /accepted/0: missing \"reason\"")
        #expect(refusal(entry(#""action": 1"#)) == file + ": /accepted/0/action: expected a string")
        #expect(refusal(#"{"accepted": [{"kind": "enum-shrunk", "reason": "r", "expires": "2026-12-31"}]}"#)
                == file + ": /accepted/0/kind: unknown finding kind \"enum-shrunk\" (the kinds are listed in docs/contracts.md)")
        for version in ["0", "-1", "\"1\"", "1.5"] {
            #expect(refusal(entry(#""action": "apply", "version": "# + version)) == file + ": /accepted/0/version: expected a version number", "\(version)")
        }
        #expect(refusal(entry(#""event": "e", "version": 0"#)) == file + ": /accepted/0/version: expected a version number")
        #expect(refusal(#"{"accepted": [{"kind": "enum-narrowed", "reason": "   ", "expires": "2026-12-31"}]}"#)
                == file + ": /accepted/0/reason: say why the change is accepted")
        #expect(refusal(#"{"accepted": [{"kind": "enum-narrowed", "reason": "r", "expires": "31.12.2026"}]}"#)
                == file + ": /accepted/0/expires: \"31.12.2026\" is not a date YYYY-MM-DD")
    }

    /// A date is YYYY-MM-DD with a month from 1 to 12 and a day from 1 to 31.
    @Test(arguments: [("2026-01-01", true), ("2026-12-31", true), ("2026-00-10", false), ("2026-13-01", false),
                      ("2026-06-00", false), ("2026-06-32", false), ("2026-6-01", false), ("26-06-01", false),
                      ("2026-06-01-01", false), ("2026-0a-01", false), ("abcd-06-01", false), ("", false)])
    func aDateIsYearMonthDay(_ text: String, _ valid: Bool) {
        #expect(AcceptedChanges.isDate(text) == valid, "\(text)")
    }
}
