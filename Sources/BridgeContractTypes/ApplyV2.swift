// Generated from the contracts (apply.v2.json, envelope.v1.json) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// apply (신청), v2: The person applies to the event campaign shown by the page, with the plan they chose and when they want a call back. Requires login. Differs from v1: plan is required, contactTime is new.
public struct ApplyV2: BridgeMessage {
    /// Envelope version.
    public static let v = 1
    public static let action = "apply"
    public static let version = 2

    /// Request id chosen by the page (a UUID from crypto.randomUUID); replies echo it.
    public var id: String
    public var payload: Payload
    public var campaign: CampaignV1?
    /// When the page sent it (RFC 3339).
    public var sentAt: String?

    public init(id: String, payload: Payload, campaign: CampaignV1? = nil, sentAt: String? = nil) {
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
        id = try container.decode(String.self, forKey: .id)
        try container.decodeConstant(Self.action, forKey: .action)
        try container.decodeConstant(Self.version, forKey: .version)
        payload = try container.decode(Payload.self, forKey: .payload)
        campaign = try container.decodeIfPresent(CampaignV1.self, forKey: .campaign)
        sentAt = try container.decodeIfPresent(String.self, forKey: .sentAt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.v, forKey: .v)
        try container.encode(id, forKey: .id)
        try container.encode(Self.action, forKey: .action)
        try container.encode(Self.version, forKey: .version)
        try container.encode(payload, forKey: .payload)
        try container.encodeIfPresent(campaign, forKey: .campaign)
        try container.encodeIfPresent(sentAt, forKey: .sentAt)
    }

    public struct Payload: Codable, Sendable, Equatable {
        /// The event's slug, as in /event/:slug.
        public var slug: String
        /// The plan the person chose (required from v2 on).
        public var plan: Plan
        /// When the person wants the call back.
        public var contactTime: ContactTime?
        /// Free text from the person (Korean allowed).
        public var memo: String?

        public init(slug: String, plan: Plan, contactTime: ContactTime? = nil, memo: String? = nil) {
            self.slug = slug
            self.plan = plan
            self.contactTime = contactTime
            self.memo = memo
        }

        enum CodingKeys: String, CodingKey {
            case slug
            case plan
            case contactTime
            case memo
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            slug = try container.decode(String.self, forKey: .slug)
            plan = try container.decode(Plan.self, forKey: .plan)
            contactTime = try container.decodeIfPresent(ContactTime.self, forKey: .contactTime)
            memo = try container.decodeIfPresent(String.self, forKey: .memo)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(slug, forKey: .slug)
            try container.encode(plan, forKey: .plan)
            try container.encodeIfPresent(contactTime, forKey: .contactTime)
            try container.encodeIfPresent(memo, forKey: .memo)
        }

        public enum Plan: String, Codable, Sendable, CaseIterable {
            case basic
            case premium
            case business
        }

        public enum ContactTime: String, Codable, Sendable, CaseIterable {
            case morning
            case afternoon
            case evening
            case anytime
        }
    }
}
