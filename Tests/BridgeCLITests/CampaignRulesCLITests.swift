import BridgeCLI
import Foundation
import JSONCore
import SchemaCheck
import Testing

/// The brief's link, through every command: a campaign_id with a space and a 70-character
/// variant. link build refuses it, route and simulate drop both values with the reason, and no
/// analytics event carries them.
@MainActor @Suite struct CampaignRulesCLITests {
    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    static let variant = String(repeating: "v", count: 70)
    static let link = "https://sendy.co.kr/event/new-user-promo?campaign_id=2025%20Q3&variant=\(variant)&utm_source=kakaotalk"

    @Test func linkBuildRefusesNamingTheFieldAndTheRule() {
        let result = run(["link", "build", "eventCampaign", "--param", "slug=new-user-promo", "--campaign-id", "2025 Q3", "--variant", Self.variant])
        #expect(result.code == 1)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix("bridgectl link build: campaign.campaign_id: \"2025 Q3\" breaks the campaign rule (1 to 64 characters: one of A-Z a-z 0-9, then up to 63 of A-Z a-z 0-9 _ . -)"))
        let variantOnly = run(["link", "build", "eventCampaign", "--param", "slug=new-user-promo", "--variant", Self.variant])
        #expect(variantOnly.code == 1)
        #expect(variantOnly.err.hasSuffix("breaks the campaign rule (1 to 64 characters): it is 70 characters long, at most 64 allowed\n"))
    }

    @Test func routeDropsBothWithTheReason() throws {
        let result = run(["route", Self.link, "--format", "json"])
        #expect(result.code == 0)
        let report = try JSONDocument(result.out, limits: .unlimited).value
        #expect(report["campaign"] == ["utm_source": "kakaotalk", "source": "kakaotalk"])
        #expect(report["warnings"]?.arrayValue?.compactMap { $0["field"]?.stringValue } == ["query.campaign_id", "query.variant"])
    }

    @Test func simulateNotesTheDropsAndNoEventCarriesTheDroppedValues() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/messages/apply.json").path
        let result = run(["simulate", example, "--entry", Self.link, "--format", "json"])
        #expect(result.code == 0)
        #expect(result.err.contains("bridgectl simulate: note: entry link: query.campaign_id: \"2025 Q3\" dropped"))
        #expect(result.err.contains("bridgectl simulate: note: entry link: query.variant: "))
        let outcome = try JSONDocument(result.out, limits: .unlimited).value
        let events = try #require(outcome["events"]?.arrayValue)
        #expect(!events.isEmpty)
        for event in events {
            #expect(event["properties"]?["source"] == "kakaotalk", "the events carry the entry's campaign: \(event)")
            #expect(event["properties"]?["campaign_id"] != "2025 Q3", "\(event)")
            #expect(event["properties"]?["variant"] != .string(Self.variant), "\(event)")
        }
        #expect(outcome["entryWarnings"]?.arrayValue?.count == 2)
    }
}
