import Testing
import TestSupport
import BridgeContracts
import SchemaCheck
import JSONCore
@testable import ContractEvolution

/// Events go from the app to pages, so `diff` checks them the other way round: an event version
/// changed in place breaks the pages that read it when the new schema accepts a message the old
/// one rejects; a stricter schema is compatible. Each pair of sets has one event, `state_changed`.
@Suite struct EventEvolutionTests {
    static let event = "state_changed"

    /// The schema of a whole page-bound message of `state_changed` vN.
    static func schema(version: Int, payload: JSONValue) -> String {
        let document: JSONValue = [
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": .string("https://example.test/schemas/\(event).v\(version).json"),
            "type": "object", "required": ["v", "event", "version", "payload"], "additionalProperties": false,
            "properties": ["v": ["const": 1], "event": .object(JSONObject([("const", .string(event))])),
                           "version": ["const": .integer(Int64(version))], "payload": payload],
        ]
        return document.serialized()
    }

    /// A set whose event has these versions (version -> payload schema); `actionPayload` is act v1's.
    static func contracts(_ versions: [Int: JSONValue], actionPayload: JSONValue = ["type": "object"]) throws -> ContractSet {
        var files: [String: String] = [:]
        var declared = JSONObject()
        for (version, payload) in versions {
            files["schemas/\(event).v\(version).json"] = schema(version: version, payload: payload)
            declared[String(version)] = .object(JSONObject([("schema", .string("\(event).v\(version).json"))]))
        }
        let events: JSONValue = versions.isEmpty ? [:] : .object(JSONObject([(event, ["title": "State", "versions": .object(declared)])]))
        return try GoldenTests.contracts(payload: actionPayload, defs: nil, assertFormat: false, extraFiles: files, events: events)
    }

    static func state(_ values: [JSONValue], required: [JSONValue] = ["state"]) -> JSONValue {
        ["type": "object", "required": .array(required), "additionalProperties": false,
         "properties": ["state": ["enum": .array(values)], "note": ["type": "string"]]]
    }

    func diff(_ old: [Int: JSONValue], _ new: [Int: JSONValue]) throws -> (ContractSet, ContractSet, DiffReport) {
        let before = try Self.contracts(old), after = try Self.contracts(new)
        return (before, after, try ContractDiff.compare(old: before, new: after, today: "2026-01-01"))
    }

    /// Whether one side's schema for state_changed v1 accepts the message.
    func accepts(_ contracts: ContractSet, _ message: JSONValue) throws -> Bool {
        try #require(try CompiledContracts(contracts: contracts).eventSchema(Self.event, version: 1)).isValid(message)
    }

    // MARK: Changed in place

    @Test func aNewEnumValueBreaksThePagesThatReadTheVersion() throws {
        let (old, new, report) = try diff([1: Self.state(["in", "out"])], [1: Self.state(["in", "out", "away"])])
        let finding = try #require(report.findings.first { $0.kind == .enumWidened }, "\(report.text)")
        #expect(finding.subject == .eventVersion(event: Self.event, version: 1))
        #expect(finding.severity == .breaking)
        let example = try #require(finding.counterexample)
        #expect(example.acceptedBy == .new)
        let message = try #require(example.message)
        #expect(message["payload"]?["state"] == "away")
        // Run through both real schemas: the new one accepts it, pages built on the old one drop it.
        #expect(try accepts(new, message))
        #expect(try !accepts(old, message))
        #expect(finding.line.hasPrefix("event state_changed v1 /properties/payload/properties/state: enum widened"), "\(finding.line)")
        #expect(finding.line.contains("breaks pages that read v1: they get messages they reject (checked app to page"), "\(finding.line)")
        #expect(finding.json["event"] == "state_changed" && finding.json["version"] == 1)
        #expect(report.findings.contains { $0.kind == .versionNotBumped && $0.detail.contains("add state_changed v2 instead") },
                "\(report.text)")
        // The event's own schema file is not reported again as a shared schema.
        #expect(!report.findings.contains { $0.subject == .schema(file: "state_changed.v1.json") })
        #expect(report.fails)
    }

    /// A bound lowered in the number branch of an `anyOf`: pages on the old schema drop the
    /// message for that bound, and the refusal quoted says so, not the string branch's type.
    @Test func aLoweredBoundInOneTypedBranchIsQuotedByItsOwnKeyword() throws {
        func payload(minimum: Int) -> JSONValue {
            ["type": "object", "required": ["x"], "additionalProperties": false,
             "properties": ["x": ["anyOf": [["type": "string", "maxLength": 3], ["type": "integer", "minimum": .integer(Int64(minimum))]]]]]
        }
        let (_, _, report) = try diff([1: payload(minimum: 10)], [1: payload(minimum: 5)])
        let finding = try #require(report.findings.first { $0.kind == .minimumRelaxed }, "\(report.text)")
        let example = try #require(finding.counterexample)
        #expect(example.acceptedBy == .new)
        #expect(example.rejection.hasPrefix("pages built against the old schema drop it as invalid"), "\(example.rejection)")
        #expect(example.rejection.hasSuffix(": /payload/x (minimum)"), "\(example.rejection)")
    }

    @Test func aDroppedRequiredBreaksWithAMessageWithoutTheMember() throws {
        let (old, new, report) = try diff([1: Self.state(["in", "out"])], [1: Self.state(["in", "out"], required: [])])
        let finding = try #require(report.findings.first { $0.kind == .requiredRemoved }, "\(report.text)")
        #expect(finding.severity == .breaking)
        let message = try #require(finding.counterexample?.message)
        #expect(message["payload"]?["state"] == nil)
        #expect(try accepts(new, message))
        #expect(try !accepts(old, message))
        #expect(finding.counterexample?.rejection.contains("pages built against the old schema drop it") == true)
    }

    /// The same change is breaking for an action (pages in the field still send the value) and
    /// compatible for an event (the app no longer sends it; pages still accept everything it sends).
    @Test func aTightenedEventSchemaIsCompatible() throws {
        let loose = Self.state(["in", "out", "away"]), tight = Self.state(["in", "out"])
        let before = try Self.contracts([1: loose], actionPayload: loose)
        let after = try Self.contracts([1: tight], actionPayload: tight)
        let report = try ContractDiff.compare(old: before, new: after, today: "2026-01-01")
        let event = try #require(report.findings.first { $0.kind == .enumNarrowed && $0.subject.event != nil }, "\(report.text)")
        #expect(event.severity == .compatible)
        #expect(event.counterexamples.isEmpty)
        #expect(event.line.contains("compatible (checked app to page"), "\(event.line)")
        let action = try #require(report.findings.first { $0.kind == .enumNarrowed && $0.subject.action == "act" }, "\(report.text)")
        #expect(action.severity == .breaking)
        #expect(!report.findings.contains { $0.subject.event != nil && $0.fails }, "\(report.text)")
    }

    // MARK: Removed and added

    @Test func aRemovedEventVersionBreaksThePagesThatSubscribe() throws {
        let (old, _, report) = try diff([1: Self.state(["in"]), 2: Self.state(["in", "out"])], [2: Self.state(["in", "out"])])
        let finding = try #require(report.findings.first { $0.kind == .eventVersionRemoved }, "\(report.text)")
        #expect(finding.subject == .eventVersion(event: Self.event, version: 1))
        #expect(finding.severity == .breaking)
        // The proof is a message of v1: what the pages that read v1 wait for.
        let message = try #require(finding.counterexample?.message)
        #expect(try accepts(old, message))
        #expect(finding.line.contains("breaks pages that read v1 (checked app to page"), "\(finding.line)")
        #expect(report.fails)
    }

    @Test func aRemovedEventBreaksThePagesThatSubscribe() throws {
        let (_, _, report) = try diff([1: Self.state(["in"])], [:])
        let finding = try #require(report.findings.first { $0.kind == .eventRemoved }, "\(report.text)")
        #expect(finding.subject == .event(Self.event))
        #expect(finding.severity == .breaking)
        #expect(report.fails)
    }

    @Test func anAddedEventOrVersionIsCompatible() throws {
        let (_, _, added) = try diff([:], [1: Self.state(["in"])])
        #expect(added.findings.map(\.kind) == [.eventAdded], "\(added.text)")
        #expect(!added.fails)
        let (_, _, newVersion) = try diff([1: Self.state(["in"])], [1: Self.state(["in"]), 2: Self.state(["in", "out"])])
        #expect(newVersion.findings.map(\.kind) == [.eventVersionAdded], "\(newVersion.text)")
        #expect(newVersion.findings.first?.subject == .eventVersion(event: Self.event, version: 2))
        #expect(!newVersion.fails)
    }

    // MARK: Accepting

    @Test func anEventFindingCanBeAccepted() throws {
        let accepted = try AcceptedChanges(text: """
            {"accepted": [{"kind": "enum-widened", "event": "state_changed", "version": 1,
              "schemaPointer": "/properties/payload/properties/state", "reason": "no page reads state yet", "expires": "2026-12-31"}]}
            """)
        #expect(accepted.entries.first?.subject == .eventVersion(event: Self.event, version: 1))
        let before = try Self.contracts([1: Self.state(["in"])]), after = try Self.contracts([1: Self.state(["in", "out"])])
        let report = try ContractDiff.compare(old: before, new: after, accepted: accepted, today: "2026-01-01")
        #expect(!report.fails, "\(report.text)")
        #expect(report.findings.contains { $0.kind == .enumWidened && $0.accepted != nil })
    }
}
