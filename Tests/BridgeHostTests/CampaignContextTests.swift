import BridgeHost
import DeeplinkRouting
import JSONCore
import Testing

@Suite("CampaignContext: the entry link's campaign is authoritative")
struct CampaignContextTests {
    let entry = CampaignContext(entry: CampaignMetadata(
        campaignId: "2025Q3_signup_retarget", groupId: nil, variant: "card_scanner_cta",
        utm: ["utm_source": "kakaotalk"], source: .kakaotalk))

    @Test func aPageWithoutAnEntryIsInApp() {
        #expect(CampaignContext.none.entry == CampaignMetadata(source: .appInternal))
    }

    @Test func withoutMessageFieldsTheEntryStandsAlone() {
        let (merged, conflicts) = entry.merged(with: nil, requestID: "r1")
        #expect(merged == entry.entry)
        #expect(conflicts.isEmpty)
    }

    @Test func messageFieldsFillOnlyWhatTheEntryLeftEmpty() {
        let message: JSONObject = JSONObject([
            ("campaign_id", "other"), ("group_id", "B"), ("variant", "card_scanner_cta"),
            ("utm_source", "naver"), ("utm_medium", "alimtalk"), ("source", "push"), ("utm_term", 7), ("extra", "x"),
        ])
        let (merged, conflicts) = entry.merged(with: message, requestID: "r1")
        #expect(merged.campaignId == "2025Q3_signup_retarget")
        #expect(merged.groupId == "B")
        #expect(merged.variant == "card_scanner_cta")
        #expect(merged.utm == ["utm_source": "kakaotalk", "utm_medium": "alimtalk"])
        // The channel is the entry's, whatever the page says.
        #expect(merged.source == .kakaotalk)
        #expect(conflicts == [
            CampaignConflict(field: "campaign_id", entryValue: "2025Q3_signup_retarget", messageValue: "other", requestID: "r1"),
            CampaignConflict(field: "utm_source", entryValue: "kakaotalk", messageValue: "naver", requestID: "r1"),
        ])
    }

    /// The entry channel is not a field the page fills: not over an entry's channel, and not when the
    /// page was opened in the app (appInternal, the "no entry link" channel) either.
    @Test("the page cannot set source, whatever the entry", arguments: CampaignMetadata.Source.builtIn + [.kakaotalk])
    func thePageCannotSetSource(entrySource: CampaignMetadata.Source) {
        let context = CampaignContext(entry: CampaignMetadata(source: entrySource))
        for offered in (CampaignMetadata.Source.builtIn + [.kakaotalk]).map(\.rawValue) + ["bridge", ""] {
            let (merged, conflicts) = context.merged(with: JSONObject([("source", .string(offered))]), requestID: "r1")
            #expect(merged.source == entrySource, "the page offered source \(offered)")
            #expect(merged == context.entry)
            #expect(!conflicts.contains { $0.messageValue != offered }, "only the offered value can be in a conflict")
        }
    }
}
