import BridgeContracts
import BridgeHost
import BridgeHostTesting
import DeeplinkRouting
import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// The shared table of hostile link values (Tests/shared/hostile-link-values.json), run on the
/// Swift side: the link builder, the link reader and the app's host. Node runs the same table
/// against the web shim (js/test/hostile-link-values.test.mjs); both must give every answer.
@MainActor @Suite struct HostileLinkValuesTests {
    nonisolated static let table: JSONValue = {
        let text = (try? RepositoryPaths.text("Tests/shared/hostile-link-values.json")) ?? ""
        return (try? JSONValue(parsing: text)) ?? .null
    }()
    nonisolated static let base = "https://sendy.co.kr/event/new-user-promo"

    nonisolated static func rows(_ kind: String) -> [JSONValue] { table[kind]?.arrayValue ?? [] }
    nonisolated static func names(_ kind: String) -> [String] { rows(kind).compactMap { $0["name"]?.stringValue } }
    nonisolated static func row(_ kind: String, _ name: String) -> JSONValue? { rows(kind).first { $0["name"]?.stringValue == name } }

    /// Swift's String == compares canonical equivalents as equal (decomposed and composed Hangul
    /// are "equal"), which would hide exactly what the table is about: compare UTF-8 bytes.
    nonisolated static func sameBytes(_ first: JSONValue?, _ second: JSONValue?) -> Bool {
        Array((first?.serialized() ?? "nil").utf8) == Array((second?.serialized() ?? "nil").utf8)
    }

    let contracts: ContractSet
    let handler: DeeplinkHandler

    init() throws {
        contracts = try ContractSet.load(directory: ExampleContracts.path)
        handler = try DeeplinkHandler(contracts: contracts)
    }

    @Test func theTableIsThere() {
        #expect(Self.names("build").count >= 30)
        #expect(Self.names("read").count >= 20)
    }

    @Test(arguments: names("build"))
    func builderGivesTheTablesAnswer(name: String) throws {
        let row = try #require(Self.row("build", name))
        let given = try #require(row["campaign"]?.objectValue)
        var campaign = CampaignMetadata(source: .externalURL)
        for (field, value) in given {
            let text = try #require(value.stringValue)
            switch field {
            case "campaign_id": campaign.campaignId = text
            case "group_id": campaign.groupId = text
            case "variant": campaign.variant = text
            default: campaign.utm[field] = text
            }
        }
        let expect = try #require(row["expect"])
        do {
            let built = try handler.urlBuilder.link(
                route: "eventCampaign", parameters: ["slug": "new-user-promo"], campaign: campaign,
                strict: row["strict"]?.boolValue ?? false)
            #expect(expect["refused"] == nil, "built \(built.url), the table says it is refused")
            #expect(Self.sameBytes(.string(built.url), expect["url"]), "\(built.url)")
            #expect(Self.sameBytes(.array(built.warnings.map { .string($0.description) }), expect["warnings"]), "\(built.warnings)")
        } catch {
            #expect(Self.sameBytes(.string(error.description), expect["refused"]), "refused: \(error); the table expects \(expect)")
        }
    }

    /// What the link reader keeps and warns about, and what the host keeps when the page is opened
    /// from that link: the same campaign.
    @Test(arguments: names("read"))
    func readerAndHostGiveTheTablesAnswer(name: String) throws {
        let row = try #require(Self.row("read", name))
        let url = try row["url"]?.stringValue ?? Self.base + "?" + #require(row["query"]?.stringValue)
        let expect = try #require(row["expect"])
        let expectedCampaign = try #require(expect["campaign"])

        let host = try MockBridgeHost(contracts: contracts)
        do {
            let parsed = try handler.parse(url)
            #expect(expect["unreadable"] == nil, "the link parsed; the table says it is unreadable")
            var campaign = parsed.campaignMetadata.json.objectValue!
            campaign["source"] = nil
            #expect(Self.sameBytes(.object(campaign), expectedCampaign), "\(campaign)")
            let campaignWarnings = parsed.warnings.filter { warning in
                warning.field == "url" || (warning.field.hasPrefix("query.") && CampaignMetadata.isCampaignKey(String(warning.field.dropFirst(6))))
            }
            #expect(Self.sameBytes(.array(campaignWarnings.map { .string($0.description) }), expect["warnings"]), "\(campaignWarnings)")
            try host.open(entry: url)
        } catch {
            #expect(Self.sameBytes(.string(error.description), expect["unreadable"]), "\(error)")
            #expect(throws: DeeplinkError.self) { try host.open(entry: url) }
        }
        var entry = host.bridge.campaign.entry.json.objectValue!
        entry["source"] = nil
        #expect(Self.sameBytes(.object(entry), expectedCampaign), "the host's campaign for a page opened from the link: \(entry)")
    }

    /// The rules are the schema: on every campaign value of the table, and on generated ones, the
    /// rules and the JSON Schema checker (the envelope's campaign schema, as the host checks a
    /// message) agree.
    @Test func rulesAndTheSchemaCheckerAgree() throws {
        let compiled = try CompiledContracts(contracts: contracts)
        let rules = handler.campaignRules
        var values: [(String, String)] = []
        for row in Self.rows("build") {
            for (field, value) in row["campaign"]?.objectValue ?? JSONObject() { values.append((field, value.stringValue ?? "")) }
        }
        for row in Self.rows("read") {
            for (field, value) in row["expect"]?["campaign"]?.objectValue ?? JSONObject() { values.append((field, value.stringValue ?? "")) }
        }
        var generator = SeededGenerator(seed: 0xCA_4A16)
        let pieces = ["a", "Z", "0", "_", ".", "-", " ", "+", "%41", "카드", "😀", "\u{301}", "\t", "\u{200B}", "é", "~", "/"]
        for _ in 0..<1500 {
            let field = rules.fields.map(\.name).randomElement(using: &generator)!
            let length = Int.random(in: 0...70, using: &generator)
            values.append((field, (0..<length).map { _ in pieces.randomElement(using: &generator)! }.joined()))
        }
        values.append(("utm_id", "x"))
        for (field, value) in values where !value.isEmpty {
            let message: JSONValue = [
                "v": 1, "id": "req-00000001", "action": "apply", "version": 1,
                "payload": ["slug": "new-user-promo"], "campaign": .object(JSONObject([(field, .string(value))])),
            ]
            let schemaSays = compiled.check(try JSONDocument(message.serialized(), limits: .unlimited)).isValid
            let rulesSay = rules.violation(name: field, value: value) == nil
            #expect(schemaSays == rulesSay, "\(field) = \(value.debugDescription): schema \(schemaSays), rules \(rulesSay)")
        }
    }
}
