import Foundation
import Testing
import BridgeContracts
import SchemaCheck
import JSONCore
import TestSupport
@testable import ContractEvolution

/// Pairs of payload schemas (golden/*.json) with the findings `ContractDiff` must report:
/// kind, severity, schema pointer and which side a counterexample is accepted by, in order.
/// Each case becomes a one-action contract set (the payload under the envelope below), and
/// every counterexample is run again here through both sets' compiled contracts: the side it
/// names accepts it, the other rejects it.
@Suite struct GoldenTests {
    static let folder = RepositoryPaths.url("Tests/ContractEvolutionTests/golden")

    static let cases: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    /// One action `act` v1, its schema `$ref`s the envelope and puts the case's schema at payload.
    /// `events`: the manifest's "events" member, when the set has events.
    static func contracts(payload: JSONValue, defs: JSONValue?, assertFormat: Bool, extraFiles: [String: String] = [:],
                          events: JSONValue? = nil) throws -> ContractSet {
        var manifest: JSONValue = [
            "bridge": "testBridge", "envelope": 1, "schemaBase": "https://example.test/schemas/",
            "envelopeSchema": "envelope.v1.json", "allowedOrigins": ["https://sendy.co.kr"],
            "universalLinkHosts": ["example.test"], "customScheme": "example", "webBaseURL": "https://example.test",
            "assertFormat": .bool(assertFormat),
            "actions": ["act": ["versions": ["1": ["schema": "act.v1.json", "route": "actPage"]]]],
        ]
        if let events, var object = manifest.objectValue {
            object["events"] = events
            manifest = .object(object)
        }
        let routes: JSONValue = ["routes": [["name": "actPage", "pattern": "/act", "requiresAuth": false, "tab": "home"]]]
        let envelope: JSONValue = [
            "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.test/schemas/envelope.v1.json",
            "type": "object", "required": ["v", "action", "version", "payload"],
            "properties": ["v": ["const": 1], "id": ["type": "string"], "action": ["type": "string"],
                           "version": ["type": "integer"], "payload": ["type": "object"]],
            "additionalProperties": false,
        ]
        var action = JSONObject()
        action["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        action["$id"] = "https://example.test/schemas/act.v1.json"
        action["$ref"] = "envelope.v1.json"
        action["properties"] = ["action": ["const": "act"], "version": ["const": 1], "payload": payload]
        if let defs { action["$defs"] = defs }
        let files = ["manifest.json": manifest.serialized(), "routes.json": routes.serialized(),
                     "schemas/envelope.v1.json": envelope.serialized(), "schemas/act.v1.json": JSONValue.object(action).serialized()]
        return try ContractSet(files: files.merging(extraFiles) { $1 }, origin: "golden")
    }

    @Test func thereIsACaseForEachTrap() {
        #expect(Self.cases.count >= 40)
        for trap in ["open-object-property-added-typed", "null-accepted-through-any-of", "null-branch-refactor", "enum-widened",
                     "required-added-with-default", "ref-refactor-to-defs", "all-of-split", "defs-used-twice-nested-change",
                     "pattern-strict-subset", "unevaluated-closed-property-added", "partly-open-property-added-covered"] {
            #expect(Self.cases.contains(trap), "golden/\(trap).json")
        }
    }

    @Test(arguments: cases) func findingsMatch(_ name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name + ".json"))
        let golden = try JSONDocument(String(decoding: data, as: UTF8.self), limits: .unlimited).value
        let assertFormat = golden["assertFormat"]?.boolValue ?? false
        let old = try Self.contracts(payload: try #require(golden["old"]), defs: golden["oldDefs"], assertFormat: assertFormat)
        let new = try Self.contracts(payload: try #require(golden["new"]), defs: golden["newDefs"], assertFormat: assertFormat)
        let report = try ContractDiff.compare(old: old, new: new, today: "2026-01-01")

        let actual = report.findings.map { finding in
            [finding.kind.rawValue, finding.severity.rawValue, finding.schemaPointer, finding.counterexample?.acceptedBy.rawValue ?? "-"]
        }
        let expected = try #require(golden["expect"]?.arrayValue).map { entry in
            [entry["kind"]?.stringValue ?? "?", entry["severity"]?.stringValue ?? "?", entry["schemaPointer"]?.stringValue ?? "?",
             entry["acceptedBy"]?.stringValue ?? "-"]
        }
        #expect(actual == expected, "\(name): \(report.text)")

        // Every counterexample, checked again with nothing but the compiled contracts.
        let checkers = [Side.old: try CompiledContracts(contracts: old), .new: try CompiledContracts(contracts: new)]
        for finding in report.findings {
            guard let example = finding.counterexample, let message = example.message else { continue }
            let document = try JSONDocument(message.serialized(), limits: .bridgeMessage)
            let accepting = example.acceptedBy
            let rejecting: Side = accepting == .old ? .new : .old
            #expect(checkers[accepting]!.check(document).isValid, "\(name) \(finding.kind.rawValue): \(accepting) must accept \(message.serialized())")
            #expect(!checkers[rejecting]!.check(document).isValid, "\(name) \(finding.kind.rawValue): \(rejecting) must reject \(message.serialized())")
        }
        #expect(report.fails == report.findings.contains { $0.severity == .breaking || $0.severity == .possiblyBreaking })
    }
}
