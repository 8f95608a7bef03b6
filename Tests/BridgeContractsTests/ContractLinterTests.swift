import BridgeContracts
import Testing
import TestSupport

/// The repository's contracts/ as relative path -> text, read once; each test lints a broken copy.
enum RepositoryContractFiles {
    static let files: [String: String] = (try? RepositoryPaths.jsonFiles(under: "contracts")) ?? [:]

    /// The files with `old` replaced by `new` in `file` (which must contain it), or `file` removed.
    static func editing(_ edits: [(file: String, old: String, new: String?)]) throws -> [String: String] {
        var copy = files
        for edit in edits {
            let text = try #require(copy[edit.file], "no \(edit.file) in contracts/")
            guard let new = edit.new else {
                copy[edit.file] = nil
                continue
            }
            try #require(text.contains(edit.old), "\(edit.file) has no \(edit.old)")
            copy[edit.file] = text.replacingOccurrences(of: edit.old, with: new)
        }
        return copy
    }
}

@Suite("ContractLinter finds each problem it claims to find")
struct ContractLinterTests {
    private func findings(_ edits: [(file: String, old: String, new: String?)]) throws -> [LintFinding] {
        let contracts = try ContractSet(files: try RepositoryContractFiles.editing(edits), origin: "a broken copy")
        return ContractLinter(contracts: contracts).lint()
    }

    @Test func theRepositoryContractsAreClean() throws {
        #expect(RepositoryContractFiles.files.count > 40)
        #expect(try findings([]) == [])
    }

    @Test func aSchemaThatBreaksItsMetaSchema() throws {
        let found = try findings([("schemas/apply.v1.json", #""maxLength": 200"#, #""maxLength": -1"#)])
        #expect(found.count == 1)
        #expect(found.first?.file == "schemas/apply.v1.json")
        #expect(found.first?.pointer == "/$defs/payload/properties/memo/maxLength")
        #expect(found.first?.message.contains("by the meta-schema at") == true)
    }

    @Test func anUnknownDialect() throws {
        let found = try findings([("schemas/start.v1.json", "https://json-schema.org/draft/2020-12/schema", "https://example.com/my-dialect")])
        #expect(found.map(\.description) == [
            "schemas/start.v1.json: /$schema: unknown dialect https://example.com/my-dialect (use one of https://json-schema.org/draft/2020-12/schema, https://json-schema.org/draft/2019-09/schema, http://json-schema.org/draft-07/schema#, http://json-schema.org/draft-06/schema#, http://json-schema.org/draft-04/schema#)",
        ])
    }

    @Test func aSchemaWithoutAnID() throws {
        let found = try findings([("schemas/campaign.v1.json", #""$id": "https://bridge.sendy.co.kr/contracts/schemas/campaign.v1.json","#, "")])
        #expect(found.contains { $0.file == "schemas/campaign.v1.json" && $0.message.contains("has no $id") })
    }

    @Test func aSchemaThatDoesNotCompile() throws {
        // Valid for the meta-schema, but the reference leads nowhere.
        let found = try findings([("schemas/apply.v1.json", ##""$ref": "#/$defs/payload""##, ##""$ref": "#/$defs/nowhere""##)])
        let compile = found.filter { $0.message.hasPrefix("does not compile:") }
        #expect(compile.map(\.file) == ["schemas/apply.v1.json"], "\(found)")
        // The manifest's mappings into the payload can no longer be followed either.
        #expect(found.contains { $0.pointer == "/actions/apply/versions/1/parameters/slug" })
    }

    @Test func manifestReferencesThatDoNotResolve() throws {
        let found = try findings([
            ("manifest.json", #""envelopeSchema": "envelope.v1.json""#, #""envelopeSchema": "envelope.v9.json""#),
            ("manifest.json", #""schema": "start.v1.json""#, #""schema": "start.v2.json""#),
            ("manifest.json", #""route": "vehicleList""#, #""route": "vehicles""#),
        ]).map(\.description)
        #expect(found.contains("manifest.json: /envelopeSchema: names schemas/envelope.v9.json, which does not exist"))
        #expect(found.contains("manifest.json: /actions/start/versions/1/schema: names schemas/start.v2.json, which does not exist"))
        #expect(found.contains { $0.hasPrefix("manifest.json: /actions/view_vehicles/versions/1/route: names route \"vehicles\", which routes.json does not declare (routes: eventCampaign, applyForm,") })
    }

    @Test func mappingsThatDoNotFitTheSchemaOrTheRoute() throws {
        let found = try findings([
            ("manifest.json", #""plan": "/payload/plan""#, #""plan": "/payload/plans""#),
            ("manifest.json", #""parameters": { "slug": "/payload/slug" }"#, #""parameters": { "slug": "/payload/slug", "id": "/payload/slug" }"#),
            ("manifest.json", #""referrer": "/payload/referrer""#, #""referer": "/payload/referrer""#),
        ]).map(\.description)
        #expect(found.contains("manifest.json: /actions/apply/versions/1/query/plan: maps /payload/plans, which schemas/apply.v1.json does not declare"))
        #expect(found.contains("manifest.json: /actions/apply/versions/1/parameters/id: route applyForm (/event/:slug/apply) has no path parameter \"id\""))
        #expect(found.contains("manifest.json: /actions/start/versions/1/query/referer: route onboardingStart declares no query field \"referer\" in routes.json"))
    }

    @Test func aPathParameterLeftUnmapped() throws {
        let found = try findings([("manifest.json", #""parameters": { "slug": "/payload/slug" },"#, "")]).map(\.description)
        // The edit removes the mapping from every version of apply, and each is named.
        #expect(found == [
            "manifest.json: /actions/apply/versions/1/parameters: route applyForm needs path parameter \"slug\", which is not mapped",
            "manifest.json: /actions/apply/versions/2/parameters: route applyForm needs path parameter \"slug\", which is not mapped",
        ])
    }

    @Test func anActionRouteNotEnabledFromTheBridge() throws {
        let everything = #""enabledFrom": ["push", "kakaotalk", "externalURL", "appInternal", "bridge", "deferred"]"#
        let text = try #require(RepositoryContractFiles.files["routes.json"])
        // The first route declaring every channel is eventCampaign; applyForm (apply's route) is the second.
        let applyStart = try #require(text.range(of: #""name": "applyForm""#))
        let entry = try #require(text.range(of: everything, range: applyStart.upperBound..<text.endIndex))
        var edited = text
        edited.replaceSubrange(entry, with: #""enabledFrom": ["push", "appInternal"]"#)
        var files = RepositoryContractFiles.files
        files["routes.json"] = edited
        let found = ContractLinter(contracts: try ContractSet(files: files, origin: "a broken copy")).lint().map(\.description)
        #expect(found == [1, 2].map { "manifest.json: /actions/apply/versions/\($0)/route: names route applyForm, which routes.json does not enable from bridge (enabledFrom: push, appInternal): every message would be refused" })
    }

    /// A `$ref` loop in any action's schema, not only the first one's, is a warning on that file
    /// (lint stays green: the loop fails only the messages that enter it).
    @Test func aRefLoopInALaterActionsSchemaIsAWarningOnItsFile() throws {
        let found = try findings([("schemas/start.v1.json", ##""payload": { "$ref": "#/$defs/payload" }"##,
                                   ##""payload": { "$ref": "#/$defs/payload" }, "extra": { "$ref": "#/$defs/loop" }"##),
                                  ("schemas/start.v1.json", ##""$defs": {"##, ##""$defs": { "loop": { "allOf": [{ "$ref": "#/$defs/loop" }] },"##)])
        let loops = found.filter { $0.message.contains("applies itself to the same value in a loop") }
        #expect(loops.map(\.file) == ["schemas/start.v1.json"], "\(found)")
        #expect(loops.allSatisfy { $0.severity == .warning && $0.message.contains("start.v1.json#/$defs/loop") }, "\(loops)")
    }

    @Test func aListRouteThatIsNotDeclared() throws {
        let found = try findings([("routes.json", #""list": "orderList""#, #""list": "orders""#)]).map(\.description)
        #expect(found.contains("routes.json: /routes/5/list: names list route \"orders\", which is not declared"))
    }

    @Test func fixturesMissingOrMisplaced() throws {
        let validStart = RepositoryContractFiles.files.keys.filter { $0.hasPrefix("fixtures/start/v1/valid-") }
        var edits: [(file: String, old: String, new: String?)] = validStart.map { ($0, "", nil) }
        edits.append(("fixtures/apply/v1/valid-basic.json", "", nil))
        var files = try RepositoryContractFiles.editing(edits)
        files["fixtures/stray.json"] = RepositoryContractFiles.files["fixtures/apply/v1/valid-basic.json"]
        let found = ContractLinter(contracts: try ContractSet(files: files, origin: "a broken copy")).lint().map(\.description)
        #expect(found == [
            "fixtures/start/v1/: (root): no valid fixture for start v1",
            "fixtures/stray.json: (root): fixtures live in fixtures/<action>/v<version>/",
        ])
    }

    @Test func anActionVersionWithoutInvalidFixtures() throws {
        let invalid = RepositoryContractFiles.files.keys.filter { $0.hasPrefix("fixtures/view_vehicles/v1/invalid-") }
        let found = try findings(invalid.map { ($0, "", nil) }).map(\.description)
        #expect(found == ["fixtures/view_vehicles/v1/: (root): no invalid fixture for view_vehicles v1"])
    }
}
