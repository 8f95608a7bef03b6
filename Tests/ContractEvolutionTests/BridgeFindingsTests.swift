import Foundation
import Testing
import BridgeContracts
import DeeplinkRouting
import SchemaCheck
import JSONCore
import TestSupport
@testable import ContractEvolution

/// The bridge's own findings, on edited copies of the bundled contracts: routes and links,
/// the manifest, actions and versions, and the shared schemas reported once. Every
/// counterexample is checked again here with the sets' own `DeeplinkHandler` or compiled
/// contracts.
@Suite struct BridgeFindingsTests {
    static let bundled = (try? ExampleContracts.files()) ?? [:]

    /// The bundled files with text replaced (each replacement must apply).
    func contracts(_ edits: [String: [(String, String)]]) throws -> ContractSet {
        var files = Self.bundled
        for (file, replacements) in edits {
            var text = try #require(files[file], "\(file)")
            for (old, new) in replacements {
                #expect(text.contains(old), "\(file) has \(old)")
                text = text.replacingOccurrences(of: old, with: new)
            }
            files[file] = text
        }
        return try ContractSet(files: files, origin: "edited")
    }

    func diff(_ edits: [String: [(String, String)]]) throws -> (old: ContractSet, new: ContractSet, report: DiffReport) {
        let old = try ContractSet(files: Self.bundled, origin: "bundled")
        let new = try contracts(edits)
        return (old, new, try ContractDiff.compare(old: old, new: new, today: "2026-01-01"))
    }

    func only(_ kind: FindingKind, in report: DiffReport) throws -> Finding {
        let found = report.findings.filter { $0.kind == kind }
        #expect(found.count == 1, "\(report.text)")
        return try #require(found.first)
    }

    /// A link counterexample: the old routes read it, the new ones reject it or read it otherwise.
    func expectBrokenLink(_ finding: Finding, old: ContractSet, new: ContractSet) throws {
        #expect(finding.severity == .breaking)
        let url = try #require(finding.counterexample?.url)
        let before = try DeeplinkHandler(contracts: old).parse(url)
        if let after = try? DeeplinkHandler(contracts: new).parse(url) {
            #expect(after.configuration.name != before.configuration.name || after.pathParameters != before.pathParameters, "\(url)")
        }
    }

    @Test func aRoutePatternChangeIsProvenByALinkAlreadySent() throws {
        let (old, new, report) = try diff(["routes.json": [(#""/event/:slug/apply""#, #""/events/:slug/apply""#)]])
        let finding = try only(.routePatternChanged, in: report)
        #expect(finding.subject == .route("applyForm"))
        try expectBrokenLink(finding, old: old, new: new)
        #expect(report.fails)
    }

    /// A route moved to another path: each action version that navigates there opens another
    /// URL for the same message (the finding shows both), and the link the old URL was breaks.
    @Test func aMovedRoutePathIsAMessageFindingOnEachActionVersionWithBothURLs() throws {
        let (old, new, report) = try diff(["routes.json": [(#""/event/:slug/apply""#, #""/events/:slug/join""#)]])
        let moved = report.findings.filter { $0.kind == .actionPathChanged }
        #expect(moved.map(\.subject) == [.actionVersion(action: "apply", version: 1), .actionVersion(action: "apply", version: 2)],
                "\(report.text)")
        for finding in moved {
            #expect(finding.severity == .breaking, "\(report.text)")
            #expect(finding.detail == "route applyForm moved from /event/:slug/apply to /events/:slug/join")
            let proof = try #require(finding.counterexamples.first)
            let message = try #require(proof.message)
            let before = try #require(proof.oldURL), after = try #require(proof.newURL)
            #expect(before.contains("/event/") && before.contains("/apply"), "\(before)")
            #expect(after.contains("/events/") && after.contains("/join"), "\(after)")
            #expect(finding.line.contains(before) && finding.line.contains(after), "\(finding.line)")
            for contracts in [old, new] {
                #expect(try CompiledContracts(contracts: contracts).check(JSONDocument(message.serialized(), limits: .bridgeMessage)).isValid)
            }
            // The old URL, shared before the move, no longer opens the form.
            let link = try #require(finding.counterexamples.dropFirst().first, "\(finding.line)")
            #expect(link.url == before)
            try expectBrokenLink(Finding(kind: .routePatternChanged, severity: .breaking, subject: .route("applyForm"),
                                         schemaPointer: "", detail: "", counterexample: link), old: old, new: new)
        }
        #expect(try only(.routePatternChanged, in: report).severity == .breaking)
    }

    @Test func aRenamedPathParameterChangesWhatTheLinkMeans() throws {
        let (old, new, report) = try diff(["routes.json": [(#""pattern": "/order/:id","#, #""pattern": "/order/:orderId","#),
                                                           (#""parameters": { "id": "int" },"#, #""parameters": { "orderId": "int" },"#)]])
        let finding = try only(.routeParameterRenamed, in: report)
        try expectBrokenLink(finding, old: old, new: new)
        let parsed = try DeeplinkHandler(contracts: new).parse(try #require(finding.counterexample?.url))
        #expect(parsed.pathParameters.keys.sorted() == ["orderId"])
    }

    @Test func removedRoutesAndNarrowedTypesBreakLinks() throws {
        let (old, new, report) = try diff(["routes.json": [(#""page": "int""#, #""page": "uuid""#),
                                                           (#""name": "reviewWrite""#, #""name": "reviewWriteRenamed""#),
                                                           (#""pattern": "/review/:orderId""#, #""pattern": "/reviews/:orderId""#)]])
        try expectBrokenLink(try only(.routeQueryTypeChanged, in: report), old: old, new: new)
        try expectBrokenLink(try only(.routeRemoved, in: report), old: old, new: new)
        let added = try only(.routeAdded, in: report)
        #expect(added.severity == .info)
        // A new Universal Link path: iOS caches the AASA, so a device may keep opening it on the web for a while.
        #expect(added.detail.contains("new path: devices may not open it in the app for up to 48 h after the AASA is deployed"))
    }

    /// apply v1's plan moved from ?plan= to ?tier=: every message still validates on both
    /// sides, but opens another URL in new app builds. One finding, proven with the message and
    /// both URLs, each checked again with the sets' own checkers and routers.
    @Test func aMovedQueryMappingIsOneBreakingRenameShowingBothURLs() throws {
        let (old, new, report) = try diff([
            "manifest.json": [(#""query": { "plan": "/payload/plan", "memo": "/payload/memo" },"#,
                               #""query": { "tier": "/payload/plan", "memo": "/payload/memo" },"#)],
            "routes.json": [(#""query": { "plan": "string","#, #""query": { "plan": "string", "tier": "string","#)],
        ])
        let finding = try only(.mappingRenamed, in: report)
        #expect(finding.subject == .actionVersion(action: "apply", version: 1))
        #expect(!report.findings.contains { $0.kind == .mappingRemoved || $0.kind == .mappingAdded }, "\(report.text)")
        #expect(finding.severity == .breaking, "\(report.text)")
        let proof = try #require(finding.counterexample)
        let message = try #require(proof.message)
        let plan = try #require(message["payload"]?["plan"]?.stringValue, "the message carries the moved field")
        let before = try #require(proof.oldURL), after = try #require(proof.newURL)
        #expect(before.contains("plan=\(plan)") && !before.contains("tier="), "\(before)")
        #expect(after.contains("tier=\(plan)") && !after.contains("plan="), "\(after)")
        #expect(finding.line.contains(before) && finding.line.contains(after), "\(finding.line)")
        for contracts in [old, new] {
            let document = try JSONDocument(message.serialized(), limits: .bridgeMessage)
            #expect(try CompiledContracts(contracts: contracts).check(document).isValid)
        }
        #expect(report.fails)
    }

    /// The same mapping under another name and another pointer is two findings, not a rename.
    @Test func aMappingWithAnotherPointerIsNotARename() throws {
        let (_, _, report) = try diff([
            "manifest.json": [(#""query": { "plan": "/payload/plan", "memo": "/payload/memo" },"#,
                               #""query": { "tier": "/payload/memo", "memo": "/payload/memo" },"#)],
            "routes.json": [(#""query": { "plan": "string","#, #""query": { "plan": "string", "tier": "string","#)],
        ])
        #expect(!report.findings.contains { $0.kind == .mappingRenamed }, "\(report.text)")
        #expect(report.findings.contains { $0.kind == .mappingRemoved } && report.findings.contains { $0.kind == .mappingAdded })
    }

    /// routes.json renames a query field (same type): one finding for the links already sent.
    @Test func aRenamedQueryFieldIsOneFindingForLinksInTheField() throws {
        let (_, _, report) = try diff(["routes.json": [(#""query": { "plan": "string","#, #""query": { "tier": "string","#)]])
        let finding = try only(.routeQueryFieldRenamed, in: report)
        #expect(finding.subject == .route("applyForm"))
        #expect(finding.severity == .possiblyBreaking)
        #expect(finding.detail == "query field plan renamed to tier (string)")
        #expect(!report.findings.contains { $0.kind == .routeQueryFieldAdded || $0.kind == .routeQueryFieldRemoved }, "\(report.text)")
        #expect(report.fails)
    }

    @Test func anAddedStringQueryFieldIsCompatible() throws {
        let (_, _, report) = try diff(["routes.json": [(#""query": { "referrer": "slug", "promoCode": "string" }"#,
                                                        #""query": { "referrer": "slug", "promoCode": "string", "channel": "string" }"#)]])
        #expect(try only(.routeQueryFieldAdded, in: report).severity == .compatible)
        #expect(!report.fails)
    }

    @Test func removingAnOriginBreaksPagesServedFromIt() throws {
        let (old, new, report) = try diff(["manifest.json": [(#", "https://event.sendy.co.kr""#, "")]])
        let finding = try only(.originRemoved, in: report)
        let example = try #require(finding.counterexample)
        #expect(example.origin == "https://event.sendy.co.kr")
        #expect(old.manifest.allowedOrigins.contains("https://event.sendy.co.kr"))
        #expect(!new.manifest.allowedOrigins.contains("https://event.sendy.co.kr"))
        let message = try JSONDocument(try #require(example.message).serialized(), limits: .bridgeMessage)
        #expect(try CompiledContracts(contracts: new).check(message).isValid, "the message itself is fine: only its origin is refused")
    }

    @Test func aLoweredSizeLimitIsProvenByAMessageBetweenTheTwoLimits() throws {
        let (old, new, report) = try diff(["manifest.json": [(#""maxMessageBytes": 65536"#, #""maxMessageBytes": 1000"#),
                                                             (#""duplicateWindowMs": 2000"#, #""duplicateWindowMs": 3000"#)]])
        let finding = try only(.limitLowered, in: report)
        #expect(finding.severity == .breaking)
        let text = try #require(finding.counterexample?.message).serialized()
        #expect(text.utf8.count > new.manifest.limits.maxMessageBytes && text.utf8.count <= old.manifest.limits.maxMessageBytes)
        #expect(try CompiledContracts(contracts: old).check(try JSONDocument(text, limits: .unlimited)).isValid)
        #expect(try only(.duplicateWindowChanged, in: report).severity == .info)
    }

    @Test func removedActionsAndVersionsAreProvenAndNewOnesAreInfo() throws {
        let new = try contracts(["manifest.json": [(#""start": {"#, #""begin": {"#)]])
        let old = try ContractSet(files: Self.bundled, origin: "bundled")
        let report = try ContractDiff.compare(old: old, new: new, today: "2026-01-01")
        let removed = try only(.actionRemoved, in: report)
        let message = try JSONDocument(try #require(removed.counterexample?.message).serialized(), limits: .bridgeMessage)
        #expect(try CompiledContracts(contracts: old).check(message).isValid)
        #expect(try CompiledContracts(contracts: new).check(message).errorCode == "UNKNOWN_ACTION")
        #expect(try only(.actionAdded, in: report).severity == .info)

        let back = try ContractDiff.compare(old: new, new: old, today: "2026-01-01")
        #expect(back.findings.contains { $0.kind == .actionRemoved && $0.subject == .action("begin") })
    }

    @Test func aTimeoutOrFallbackChangeIsInfo() throws {
        let (_, _, report) = try diff(["manifest.json": [(#""timeoutMs": 3000,\#n          "fallback": "universalLink"\#n        }\#n      }\#n    },\#n    "start""#,
                                                          #""timeoutMs": 4000,\#n          "fallback": "none"\#n        }\#n      }\#n    },\#n    "start""#)]])
        #expect(try only(.timeoutChanged, in: report).severity == .info)
        #expect(try only(.fallbackChanged, in: report).severity == .info)
        #expect(!report.fails)
    }

    /// A version added beside released ones is info, named with the versions beside it, and
    /// compared with the version before it (not with an older one).
    @Test func anAddedVersionIsInfoComparedWithTheVersionBeforeIt() throws {
        var files = Self.bundled
        let v2 = try #require(files["schemas/apply.v2.json"])
        files["schemas/apply.v3.json"] = v2.replacingOccurrences(of: "apply.v2.json", with: "apply.v3.json")
            .replacingOccurrences(of: #""version": { "const": 2 }"#, with: #""version": { "const": 3 }"#)
            .replacingOccurrences(of: #""maxLength": 200"#, with: #""maxLength": 100"#)
        guard case .object(var manifest) = try JSONValue(parsing: try #require(files["manifest.json"])),
              case .object(var actions)? = manifest["actions"], case .object(var apply)? = actions["apply"],
              case .object(var versions)? = apply["versions"], case .object(var entry)? = versions["2"] else {
            Issue.record("manifest.json has no apply v2")
            return
        }
        entry["schema"] = "apply.v3.json"
        versions["3"] = .object(entry)
        apply["versions"] = .object(versions)
        actions["apply"] = .object(apply)
        manifest["actions"] = .object(actions)
        files["manifest.json"] = JSONValue.object(manifest).prettyPrinted()
        let old = try ContractSet(files: Self.bundled, origin: "bundled")
        let report = try ContractDiff.compare(old: old, new: try ContractSet(files: files, origin: "edited"), today: "2026-01-01")
        let added = try only(.actionVersionAdded, in: report)
        #expect(added.subject == .actionVersion(action: "apply", version: 3))
        #expect(added.detail == "new version, side by side with v1, v2")
        #expect(added.severity == .info)
        let compared = report.findings.filter { $0.subject == .actionVersion(action: "apply", version: 3) && $0.kind != .actionVersionAdded }
        #expect(compared.map(\.kind) == [.maxLengthTightened], "\(report.text)")
        #expect(compared.allSatisfy { $0.severity == .info && $0.note == "compared with v2" }, "\(report.text)")
        #expect(!report.fails)
    }

    @Test func anEnvelopeChangeIsReportedOnceForTheEnvelope() throws {
        let (old, new, report) = try diff(["schemas/envelope.v1.json": [(#""maxLength": 40"#, #""maxLength": 30"#)]])
        let finding = try only(.maxLengthTightened, in: report)
        #expect(finding.subject == .schema(file: "envelope.v1.json"))
        #expect(finding.schemaPointer == "/properties/sentAt")
        let message = try JSONDocument(try #require(finding.counterexample?.message).serialized(), limits: .bridgeMessage)
        #expect(try CompiledContracts(contracts: old).check(message).isValid)
        #expect(try CompiledContracts(contracts: new).check(message).errorCode == "INVALID_MESSAGE")
        #expect(report.findings.filter { $0.kind == .versionNotBumped }.map(\.subject) == [.schema(file: "envelope.v1.json")])
    }

    @Test func anEnvelopeChangeWhereActionsAlsoConstrainIsStillTheEnvelopes() throws {
        // Every action's payload merges the envelope's `payload` with its own: the change is seen
        // in each action's message, and reported once, proven by an action whose payload may be empty.
        let (_, new, report) = try diff(["schemas/envelope.v1.json": [(#""payload": { "type": "object","#, #""payload": { "type": "object", "minProperties": 1,"#)]])
        let finding = try only(.minPropertiesAdded, in: report)
        #expect(finding.subject == .schema(file: "envelope.v1.json"))
        #expect(finding.severity == .breaking)
        let message = try #require(finding.counterexample?.message)
        #expect(message["action"] != "apply", "apply's payload always has a slug")
        #expect(try CompiledContracts(contracts: new).check(try JSONDocument(message.serialized(), limits: .bridgeMessage)).errorCode == "INVALID_MESSAGE")
        #expect(!report.findings.contains { $0.subject.action != nil && $0.kind != .actionVersionAdded })
    }

    @Test func anEnvelopeChangeNoActionCanShowIsCompatible() throws {
        let (_, _, report) = try diff(["schemas/envelope.v1.json": [(#""maximum": 999"#, #""maximum": 99"#)]])
        let finding = try only(.maximumTightened, in: report)
        #expect(finding.severity == .compatible)
        #expect(!report.fails)
    }

    @Test func aCampaignChangeIsTheCampaignSchemasAtEachUseOfTheDefinition() throws {
        let (_, _, report) = try diff(["schemas/campaign.v1.json": [(#""maxLength": 128"#, #""maxLength": 64"#)]])
        let tightened = report.findings.filter { $0.kind == .maxLengthTightened }
        #expect(tightened.map(\.schemaPointer) == ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"].map { "/properties/\($0)" })
        #expect(tightened.allSatisfy { $0.subject == .schema(file: "campaign.v1.json") && $0.severity == .breaking })
        #expect(!report.findings.contains { $0.subject == .schema(file: "envelope.v1.json") || $0.subject.action != nil })
    }
}
