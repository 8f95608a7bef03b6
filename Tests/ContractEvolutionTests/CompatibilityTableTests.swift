import Foundation
import Testing
import BridgeContracts
import SchemaCheck
import JSONCore
import TestSupport
@testable import ContractEvolution

/// The compatibility table (Tests/compat-table/table.json): payload schema pairs in every dialect the checker
/// reads, each with a witness per direction when one exists (a payload the old side accepts and
/// the new one rejects: old pages break against new app builds; and the reverse: new pages
/// against old builds), or null when none exists. The witnesses themselves are run through the
/// real checker first, so the table cannot claim a break that is not there. Then `ContractDiff`
/// must, per direction, prove it, or say "possibly breaking" only where no message exists or
/// where the table documents why the search does not reach it (`unreached`); a direction it
/// calls compatible that a witness breaks is wrong.
@Suite struct CompatibilityTableTests {
    static let file = RepositoryPaths.url("Tests/compat-table/table.json")

    struct Pair {
        let name: String
        let dialect: String
        let old: JSONValue
        let new: JSONValue
        let witness: [Side: JSONValue]
        let unreached: [Side: String]
    }

    static func pairs() throws -> [Pair] {
        let data = try Data(contentsOf: file)
        let table = try JSONDocument(String(decoding: data, as: UTF8.self), limits: .unlimited).value
        return try #require(table["pairs"]?.arrayValue).map { entry in
            var witness: [Side: JSONValue] = [:], unreached: [Side: String] = [:]
            for (side, key) in [(Side.old, "oldOnly"), (.new, "newOnly")] {
                if let value = entry[key], value != .null { witness[side] = value }
                if let reason = entry["unreached"]?[side.rawValue]?.stringValue { unreached[side] = reason }
            }
            return Pair(name: entry["name"]?.stringValue ?? "?", dialect: entry["dialect"]?.stringValue ?? "?",
                        old: entry["old"] ?? .null, new: entry["new"] ?? .null, witness: witness, unreached: unreached)
        }
    }

    static let dialects: [String: (uri: String, idKeyword: String)] = [
        "draft4": ("http://json-schema.org/draft-04/schema#", "id"),
        "draft6": ("http://json-schema.org/draft-06/schema#", "$id"),
        "draft7": ("http://json-schema.org/draft-07/schema#", "$id"),
        "2019-09": ("https://json-schema.org/draft/2019-09/schema", "$id"),
        "2020-12": ("https://json-schema.org/draft/2020-12/schema", "$id"),
    ]

    /// The golden one-action set, its payload a `$ref` to payload.json written in the dialect.
    static func contracts(_ schema: JSONValue, dialect: String) throws -> ContractSet {
        let written = try #require(dialects[dialect], "dialect \(dialect)")
        var document = try #require(schema.objectValue, "a payload schema is an object")
        document["$schema"] = .string(written.uri)
        document[written.idKeyword] = "https://example.test/schemas/payload.json"
        return try GoldenTests.contracts(payload: ["$ref": "payload.json"], defs: nil, assertFormat: false,
                                         extraFiles: ["schemas/payload.json": JSONValue.object(document).serialized()])
    }

    static func message(_ payload: JSONValue) -> JSONValue {
        ["v": 1, "action": "act", "version": 1, "payload": payload]
    }

    enum Outcome: String, CaseIterable {
        case proven, compatible
        case possiblyNoneExists = "possibly breaking, no counterexample exists"
        case possiblyUnreached = "possibly breaking, counterexample not reached (documented)"
        case wrong

        /// How the row of docs/contracts.md's table starts.
        var documentedRow: String {
            switch self {
            case .proven: return "| proven ("
            case .compatible: return "| compatible, and no counterexample exists |"
            case .possiblyNoneExists: return "| possibly breaking, no counterexample exists |"
            case .possiblyUnreached: return "| possibly breaking, a counterexample exists but the search does not reach it |"
            case .wrong: return "| wrong ("
            }
        }
    }

    /// The counts docs/contracts.md gives for the table, by outcome, and its number of pairs.
    static func documentedCounts() throws -> (pairs: Int?, counts: [Outcome: Int]) {
        let docs = try String(contentsOf: RepositoryPaths.url("docs/contracts.md"), encoding: .utf8)
        var counts: [Outcome: Int] = [:]
        for line in docs.split(separator: "\n") {
            guard let outcome = Outcome.allCases.first(where: { line.hasPrefix($0.documentedRow) }) else { continue }
            counts[outcome] = line.split(separator: "|").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        }
        let pairs = docs.components(separatedBy: "`Tests/compat-table/table.json` holds ").dropFirst().first?
            .split(separator: " ").first.flatMap { Int($0) }
        return (pairs, counts)
    }

    @Test func everyPairGetsTheRightVerdictInEachDirection() throws {
        let pairs = try Self.pairs()
        #expect(pairs.count >= 150)
        #expect(Set(pairs.map(\.dialect)) == Set(Self.dialects.keys))
        var counts: [Outcome: Int] = [:]
        var wrong: [String] = [], doubtedOnly: [String] = []
        for pair in pairs {
            let label = "\(pair.name) (\(pair.dialect))"
            let old = try Self.contracts(pair.old, dialect: pair.dialect)
            let new = try Self.contracts(pair.new, dialect: pair.dialect)
            let checkers = [Side.old: try CompiledContracts(contracts: old), .new: try CompiledContracts(contracts: new)]
            func accepts(_ side: Side, _ message: JSONValue) throws -> Bool {
                try checkers[side]!.check(JSONDocument(message.serialized(), limits: .bridgeMessage)).isValid
            }
            for (side, payload) in pair.witness {
                let message = Self.message(payload)
                #expect(try accepts(side, message) && !accepts(side.other, message),
                        "table: \(label) witness \(payload.serialized()) must be accepted by \(side) only")
            }
            let report = try ContractDiff.compare(old: old, new: new, today: "2026-01-01")
            for finding in report.findings {
                for example in finding.counterexamples {
                    guard let message = example.message else { continue }
                    #expect(try accepts(example.acceptedBy, message) && !accepts(example.acceptedBy.other, message),
                            "\(label) \(finding.kind.rawValue): counterexample \(message.serialized())")
                }
            }
            let schemaFindings = report.findings.filter { $0.kind != .versionNotBumped }
            for side in [Side.old, .new] {
                let proven = schemaFindings.contains { $0.counterexamples.contains { $0.acceptedBy == side } }
                let doubted = schemaFindings.contains { $0.doubtedSides.contains(side) }
                let exists = pair.witness[side] != nil
                let outcome: Outcome
                switch (exists, proven, doubted) {
                case (true, true, _): outcome = .proven
                case (true, false, true): outcome = pair.unreached[side] != nil ? .possiblyUnreached : .wrong
                case (true, false, false): outcome = .wrong
                case (false, true, _): outcome = .wrong
                case (false, false, true): outcome = .possiblyNoneExists
                case (false, false, false): outcome = .compatible
                }
                counts[outcome, default: 0] += 1
                if outcome == .possiblyNoneExists { doubtedOnly.append("\(label) \(side)") }
                if outcome == .wrong {
                    wrong.append("\(label), \(side) side (\(doubted ? "possibly breaking without a documented reason" : "called compatible")): \(report.text)")
                }
            }
        }
        let summary = Outcome.allCases.map { "\($0.rawValue): \(counts[$0, default: 0])" }.joined(separator: ", ")
        print("compatibility table, \(pairs.count) pairs, \(pairs.count * 2) directions: \(summary)")
        print("in doubt where no counterexample exists: " + doubtedOnly.joined(separator: "; "))
        #expect(wrong.isEmpty, "\(wrong.count) wrong:\n\(wrong.joined(separator: "\n"))")
        // The docs give these figures: they follow the table.
        let documented = try Self.documentedCounts()
        #expect(documented.pairs == pairs.count, "docs/contracts.md: the table holds \(pairs.count) pairs")
        for outcome in Outcome.allCases {
            #expect(documented.counts[outcome] == counts[outcome, default: 0],
                    "docs/contracts.md: \(outcome.rawValue) is \(counts[outcome, default: 0]) directions")
        }
    }
}
