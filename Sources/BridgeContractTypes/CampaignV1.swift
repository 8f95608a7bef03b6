// Generated from the contracts (campaign.v1.json) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// Read by the page from its own URL. The deep link that opened the page is authoritative; these only fill gaps. source is never taken from the page.
public struct CampaignV1: Codable, Sendable, Equatable {
    public var campaignId: String?
    public var groupId: String?
    public var variant: String?
    public var utmSource: String?
    public var utmMedium: String?
    public var utmCampaign: String?
    public var utmTerm: String?
    public var utmContent: String?

    public init(campaignId: String? = nil, groupId: String? = nil, variant: String? = nil, utmSource: String? = nil, utmMedium: String? = nil, utmCampaign: String? = nil, utmTerm: String? = nil, utmContent: String? = nil) {
        self.campaignId = campaignId
        self.groupId = groupId
        self.variant = variant
        self.utmSource = utmSource
        self.utmMedium = utmMedium
        self.utmCampaign = utmCampaign
        self.utmTerm = utmTerm
        self.utmContent = utmContent
    }

    enum CodingKeys: String, CodingKey {
        case campaignId = "campaign_id"
        case groupId = "group_id"
        case variant
        case utmSource = "utm_source"
        case utmMedium = "utm_medium"
        case utmCampaign = "utm_campaign"
        case utmTerm = "utm_term"
        case utmContent = "utm_content"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        campaignId = try container.decodeIfPresent(String.self, forKey: .campaignId)
        groupId = try container.decodeIfPresent(String.self, forKey: .groupId)
        variant = try container.decodeIfPresent(String.self, forKey: .variant)
        utmSource = try container.decodeIfPresent(String.self, forKey: .utmSource)
        utmMedium = try container.decodeIfPresent(String.self, forKey: .utmMedium)
        utmCampaign = try container.decodeIfPresent(String.self, forKey: .utmCampaign)
        utmTerm = try container.decodeIfPresent(String.self, forKey: .utmTerm)
        utmContent = try container.decodeIfPresent(String.self, forKey: .utmContent)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(campaignId, forKey: .campaignId)
        try container.encodeIfPresent(groupId, forKey: .groupId)
        try container.encodeIfPresent(variant, forKey: .variant)
        try container.encodeIfPresent(utmSource, forKey: .utmSource)
        try container.encodeIfPresent(utmMedium, forKey: .utmMedium)
        try container.encodeIfPresent(utmCampaign, forKey: .utmCampaign)
        try container.encodeIfPresent(utmTerm, forKey: .utmTerm)
        try container.encodeIfPresent(utmContent, forKey: .utmContent)
    }
}
