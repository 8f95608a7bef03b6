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

    /// An enum added where the old schema bounded the member count: values inside the bound only
    /// narrow; a value under `minProperties` (`{}` against 1) is one old builds refused, so the
    /// change breaks the other way too, and that value is its proof.
    @Test func anEnumAddedBelowAMemberCountMinimumBreaksBothWays() throws {
        let old = object(["type": "object", "minProperties": 1])
        let (_, _, inside) = try diff(old: old, new: object(["enum": [["a": 1], ["a": 1, "b": 2]]]))
        let narrowed = try #require(inside.findings.first { $0.kind == .enumAdded }, "\(inside.text)")
        #expect(narrowed.counterexamples.map(\.acceptedBy) == [.old], "\(inside.text)")
        let (_, _, below) = try diff(old: old, new: object(["enum": [["a": 1], [:]]]))
        let both = try #require(below.findings.first { $0.kind == .enumAdded }, "\(below.text)")
        #expect(both.counterexamples.map(\.acceptedBy) == [.old, .new], "\(below.text)")
        #expect(both.counterexamples.last?.message?["payload"]?["x"] == [:], "\(below.text)")
    }

    /// Every bound the old schema may set, with the value at the bound (still allowed) and the
    /// value one step past it (refused).
    static let bounds: [(keyword: String, bound: JSONValue, type: String, inside: JSONValue, outside: JSONValue)] = [
        ("minLength", 2, "string", "ab", "a"), ("maxLength", 2, "string", "ab", "abc"),
        ("minimum", 5, "integer", 5, 4), ("maximum", 5, "integer", 5, 6),
        ("exclusiveMinimum", 5, "number", 5.5, 5), ("exclusiveMaximum", 5, "number", 4.5, 5),
        ("multipleOf", 3, "integer", 6, 7), ("minItems", 1, "array", [1], []), ("maxItems", 1, "array", [1], [1, 2]),
        ("minProperties", 1, "object", ["a": 1], [:]), ("maxProperties", 1, "object", ["a": 1], ["a": 1, "b": 2]),
    ]

    /// An enum added beside an old bound: values the bound allows only narrow, and nothing is in
    /// doubt; a value past the bound is refused by old builds, and is the proof of that direction.
    @Test(arguments: bounds.indices) func anEnumAddedPastAnOldBoundIsProvenBothWays(_ index: Int) throws {
        let (keyword, bound, type, inside, outside) = Self.bounds[index]
        let old = object(["type": .string(type), keyword: bound])
        let (_, _, allowed) = try diff(old: old, new: object(["enum": [inside]]))
        let narrowed = try #require(allowed.findings.first { $0.kind == .enumAdded }, "\(allowed.text)")
        #expect(narrowed.counterexamples.map(\.acceptedBy) == [.old], "\(keyword): \(allowed.text)")
        #expect(narrowed.doubtedSides.isEmpty, "\(keyword): \(allowed.text)")
        let (_, _, past) = try diff(old: old, new: object(["enum": [inside, outside]]))
        let both = try #require(past.findings.first { $0.kind == .enumAdded }, "\(past.text)")
        #expect(both.counterexamples.map(\.acceptedBy) == [.old, .new], "\(keyword): \(past.text)")
        #expect(both.counterexamples.last?.message?["payload"]?["x"] == outside, "\(keyword): \(past.text)")
    }

    /// A direction without a proof is named in the finding, with the reason.
    @Test func aDoubtedDirectionIsNamedWithTheReason() throws {
        // contains of integers -> contains of integers or strings: the new side accepts ["a"], the
        // old rejects it; no message the old side accepts and the new rejects exists, and the
        // engine compares contains only as written, so it says that direction is in doubt, and why.
        let (_, _, report) = try diff(old: object(["type": "array", "contains": ["type": "integer"]]),
                                      new: object(["type": "array", "contains": ["type": ["integer", "string"]]]))
        let finding = try #require(report.findings.first { $0.kind == .keywordChanged }, "\(report.text)")
        #expect(finding.counterexamples.map(\.acceptedBy) == [.new], "\(report.text)")
        #expect(finding.doubtedSides == [.old])
        #expect(finding.line.contains("possibly also old pages against new app builds"), "\(finding.line)")
        #expect(finding.line.contains("compared only as written: `contains` is not modelled"), "\(finding.line)")
        #expect(finding.json["inDoubt"] == ["old pages against new app builds"])
    }

    /// A pattern replaced by a stricter one: the looser side's string is the proof, and the
    /// other direction says the engine does not decide regex inclusion.
    @Test func aStricterPatternSaysWhyTheOtherDirectionIsInDoubt() throws {
        let (_, _, report) = try diff(old: object(["type": "string", "pattern": "^[a-z]+$"]),
                                      new: object(["type": "string", "pattern": "^[a-c]+$"]))
        let finding = try #require(report.findings.first { $0.kind == .patternChanged }, "\(report.text)")
        #expect(finding.counterexamples.map(\.acceptedBy) == [.old], "\(report.text)")
        #expect(finding.doubtedSides == [.new])
        #expect(finding.line.contains("whether one regex includes the other is not decided"), "\(finding.line)")
    }

    /// Keywords compared only as written still have a direction when adding or removing them
    /// only rejects more or only accepts more: the other direction is not in doubt.
    static let oneWayChanges: [(name: String, old: JSONValue, new: JSONValue, proven: Side)] = [
        ("contains added", ["type": "array"], ["type": "array", "contains": ["type": "integer"]], .old),
        ("contains removed", ["type": "array", "contains": ["type": "integer"]], ["type": "array"], .new),
        ("if then added", ["type": "object"], ["type": "object", "if": ["required": ["a"]], "then": ["required": ["b"]]], .old),
        ("else removed", ["if": ["type": "string"], "else": ["type": "integer"]], ["if": ["type": "string"]], .new),
        ("dependentSchemas added", ["type": "object"], ["type": "object", "dependentSchemas": ["a": ["required": ["b"]]]], .old),
        ("unevaluatedItems closed", ["type": "array"], ["type": "array", "unevaluatedItems": false], .old),
        ("minContains raised", ["type": "array", "contains": ["type": "integer"]],
         ["type": "array", "contains": ["type": "integer"], "minContains": 2], .old),
        ("maxContains added", ["type": "array", "contains": ["type": "integer"]],
         ["type": "array", "contains": ["type": "integer"], "maxContains": 1], .old),
    ]

    @Test(arguments: oneWayChanges.indices) func aOneWayChangeToAnUnmodelledKeywordIsProvenAndNotDoubted(_ index: Int) throws {
        let change = Self.oneWayChanges[index]
        let (_, _, report) = try diff(old: object(change.old), new: object(change.new))
        let findings = report.findings.filter { $0.kind == .keywordChanged }
        #expect(!findings.isEmpty, "\(change.name): \(report.text)")
        #expect(findings.allSatisfy { $0.doubtedSides.isEmpty }, "\(change.name): \(report.text)")
        #expect(Set(findings.flatMap { $0.counterexamples.map(\.acceptedBy) }) == [change.proven], "\(change.name): \(report.text)")
    }

    /// Schemas that accept the same values, written otherwise: nothing to prove or doubt.
    @Test func equivalentRewritesAreNotInDoubt() throws {
        // draft-04 has no const: validators ignore it.
        let draft4Old = try CompatibilityTableTests.contracts(object(["type": "string"]), dialect: "draft4")
        let draft4New = try CompatibilityTableTests.contracts(object(["type": "string", "const": "a"]), dialect: "draft4")
        let constReport = try ContractDiff.compare(old: draft4Old, new: draft4New, today: "2026-01-01")
        #expect(!constReport.fails, "\(constReport.text)")
        // A closed tuple: items false after one prefix item, or maxItems 1.
        let (_, _, tupleReport) = try diff(old: object(["type": "array", "prefixItems": [["type": "string"]], "items": false]),
                                           new: object(["type": "array", "prefixItems": [["type": "string"]], "maxItems": 1]))
        #expect(!tupleReport.fails, "\(tupleReport.text)")
    }

    /// A pattern in a finding is followed by a string it matches, for readers who do not read
    /// regular expressions: `pattern ^[a-z]{3}-[0-9]+$ (e.g. "...") added`.
    @Test func aPatternIsShownWithAStringItMatches() throws {
        let pattern = "^[a-z]{3}-[0-9]+$"
        let (_, _, report) = try diff(old: object(["type": "string"]), new: object(["type": "string", "pattern": .string(pattern)]))
        let finding = try #require(report.findings.first { $0.kind == .patternAdded }, "\(report.text)")
        let prefix = "pattern \(pattern) (e.g. \"", suffix = "\") added"
        #expect(finding.detail.hasPrefix(prefix) && finding.detail.hasSuffix(suffix), "\(finding.detail)")
        let example = String(finding.detail.dropFirst(prefix.count).dropLast(suffix.count))
        #expect(!example.isEmpty && PatternMatcher().matches(pattern, example), "\(example)")
        #expect(finding.line.contains(finding.detail))
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

    /// Branches of different types merge into one schema that keeps each type's own bounds: a
    /// minimum raised in the number branch is found beside an unchanged string branch.
    @Test func aBoundInOneTypedBranchOfAnyOfIsComparedOnItsOwn() throws {
        let before = object(["anyOf": [["type": "string", "maxLength": 3], ["type": "integer", "minimum": 5]]])
        let after = object(["anyOf": [["type": "string", "maxLength": 3], ["type": "integer", "minimum": 10]]])
        let (_, _, report) = try diff(old: before, new: after)
        let finding = try #require(report.findings.first { $0.kind == .minimumTightened }, "\(report.text)")
        #expect(finding.counterexamples.map(\.acceptedBy) == [.old], "\(report.text)")
        let value = try #require(finding.counterexamples.first?.message?["payload"]?["x"]?.integerValue)
        #expect((5..<10).contains(value), "\(report.text)")
        #expect(!report.findings.contains { $0.kind == .maxLengthRemoved || $0.kind == .minimumRemoved }, "\(report.text)")
        // The refusal quoted is the bound that proves it, not the string branch's type.
        let rejection = try #require(finding.counterexamples.first?.rejection)
        #expect(rejection.hasSuffix("/payload/x (minimum)"), "\(rejection)")
    }

    /// The messages around a change start from what both sides accept, written in the old
    /// contract's order: an untouched member whose enum was only reordered keeps the old first
    /// value in the proof of a change beside it.
    @Test func theMessageAroundAChangeKeepsTheOldOrderOfAnUntouchedMember() throws {
        func payload(_ values: [JSONValue], maxLength: Int) -> JSONValue {
            ["type": "object", "required": ["x", "y"], "additionalProperties": false,
             "properties": ["x": ["enum": .array(values)], "y": ["type": "string", "maxLength": .integer(Int64(maxLength))]]]
        }
        let (_, _, report) = try diff(old: payload(["a", "b"], maxLength: 5), new: payload(["b", "a"], maxLength: 3))
        let finding = try #require(report.findings.first { $0.kind == .maxLengthTightened }, "\(report.text)")
        let message = try #require(finding.counterexamples.first?.message, "\(report.text)")
        #expect(message["payload"]?["x"] == "a", "\(message.serialized())")
        #expect(!report.findings.contains { $0.kind == .enumChanged || $0.kind == .enumNarrowed || $0.kind == .enumWidened })
    }
}
