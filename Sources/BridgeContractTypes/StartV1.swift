// Generated from the contracts (start.v1.json, envelope.v1.json) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// start (센디 시작하기), v1: Starts onboarding from an event page.
public struct StartV1: BridgeMessage {
    /// Envelope version.
    public static let v = 1
    public static let action = "start"
    public static let version = 1

    /// Request id chosen by the page (a UUID from crypto.randomUUID); replies echo it.
    public var id: String?
    public var payload: Payload
    public var campaign: CampaignV1?
    /// When the page sent it (RFC 3339).
    public var sentAt: String?

    public init(id: String? = nil, payload: Payload, campaign: CampaignV1? = nil, sentAt: String? = nil) {
        self.id = id
        self.payload = payload
        self.campaign = campaign
        self.sentAt = sentAt
    }

    enum CodingKeys: String, CodingKey {
        case v
        case id
        case action
        case version
        case payload
        case campaign
        case sentAt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.decodeConstant(Self.v, forKey: .v)
        id = try container.decodeIfPresent(String.self, forKey: .id)
        try container.decodeConstant(Self.action, forKey: .action)
        try container.decodeConstant(Self.version, forKey: .version)
        payload = try container.decode(Payload.self, forKey: .payload)
        campaign = try container.decodeIfPresent(CampaignV1.self, forKey: .campaign)
        sentAt = try container.decodeIfPresent(String.self, forKey: .sentAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.v, forKey: .v)
        try container.encodeIfPresent(id, forKey: .id)
        try container.encode(Self.action, forKey: .action)
        try container.encode(Self.version, forKey: .version)
        try container.encode(payload, forKey: .payload)
        try container.encodeIfPresent(campaign, forKey: .campaign)
        try container.encodeIfPresent(sentAt, forKey: .sentAt)
    }

    public struct Payload: Codable, Sendable, Equatable {
        /// Slug of the event page.
        public var referrer: String?
        public var promoCode: String?

        public init(referrer: String? = nil, promoCode: String? = nil) {
            self.referrer = referrer
            self.promoCode = promoCode
        }

        enum CodingKeys: String, CodingKey {
            case referrer
            case promoCode
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            referrer = try container.decodeIfPresent(String.self, forKey: .referrer)
            promoCode = try container.decodeIfPresent(String.self, forKey: .promoCode)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(referrer, forKey: .referrer)
            try container.encodeIfPresent(promoCode, forKey: .promoCode)
        }
    }
}
