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
}
