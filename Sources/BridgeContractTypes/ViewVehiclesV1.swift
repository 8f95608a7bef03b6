// Generated from the contracts (view_vehicles.v1.json, envelope.v1.json) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// view_vehicles (더 많은 차량 보러가기), v1: Opens the native vehicle list, optionally filtered.
public struct ViewVehiclesV1: BridgeMessage {
    /// Envelope version.
    public static let v = 1
    public static let action = "view_vehicles"
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
        /// Vehicle class filter.
        public var vehicleType: VehicleType?
        /// Region name, e.g. 서울.
        public var region: String?
        public var sort: Sort?
        public var page: Int?
        /// Slug of the event page.
        public var from: String?

        public init(vehicleType: VehicleType? = nil, region: String? = nil, sort: Sort? = nil, page: Int? = nil, from: String? = nil) {
            self.vehicleType = vehicleType
            self.region = region
            self.sort = sort
            self.page = page
            self.from = from
        }

        enum CodingKeys: String, CodingKey {
            case vehicleType
            case region
            case sort
            case page
            case from
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            vehicleType = try container.decodeIfPresent(VehicleType.self, forKey: .vehicleType)
            region = try container.decodeIfPresent(String.self, forKey: .region)
            sort = try container.decodeIfPresent(Sort.self, forKey: .sort)
            page = try container.decodeIfPresent(Int.self, forKey: .page)
            from = try container.decodeIfPresent(String.self, forKey: .from)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(vehicleType, forKey: .vehicleType)
            try container.encodeIfPresent(region, forKey: .region)
            try container.encodeIfPresent(sort, forKey: .sort)
            try container.encodeIfPresent(page, forKey: .page)
            try container.encodeIfPresent(from, forKey: .from)
        }

        public enum VehicleType: String, Codable, Sendable, CaseIterable {
            case damas
            case labo
            case _1ton = "1ton"
            case _2_5ton = "2.5ton"
            case _5ton = "5ton"
        }

        public enum Sort: String, Codable, Sendable, CaseIterable {
            case recommended
            case price
            case distance
        }
    }
}
