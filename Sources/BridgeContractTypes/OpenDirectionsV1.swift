// Generated from the contracts (open_directions.v1.json, envelope.v1.json) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// open_directions (길찾기), v1: Directions to a place (a pickup point) in the person's map app: Naver Map, TMAP or Kakao Map. The app opens the map app when it can, else its fallback (mobile web or App Store).
public struct OpenDirectionsV1: BridgeMessage {
    /// Envelope version.
    public static let v = 1
    public static let action = "open_directions"
    public static let version = 1

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
        public var destination: Destination
        /// The map app: nmap (Naver Map), tmap (TMAP), kakaomap (Kakao Map).
        public var provider: Provider

        public init(destination: Destination, provider: Provider) {
            self.destination = destination
            self.provider = provider
        }

        enum CodingKeys: String, CodingKey {
            case destination
            case provider
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            destination = try container.decode(Destination.self, forKey: .destination)
            provider = try container.decode(Provider.self, forKey: .provider)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(destination, forKey: .destination)
            try container.encode(provider, forKey: .provider)
        }

        public struct Destination: Codable, Sendable, Equatable {
            /// WGS84 latitude in degrees.
            public var lat: Double
            /// WGS84 longitude in degrees.
            public var lng: Double
            /// What the map app shows for the destination (Korean allowed; no control characters).
            public var name: String

            public init(lat: Double, lng: Double, name: String) {
                self.lat = lat
                self.lng = lng
                self.name = name
            }

            enum CodingKeys: String, CodingKey {
                case lat
                case lng
                case name
            }

            public init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                lat = try container.decode(Double.self, forKey: .lat)
                lng = try container.decode(Double.self, forKey: .lng)
                name = try container.decode(String.self, forKey: .name)
            }

            public func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(lat, forKey: .lat)
                try container.encode(lng, forKey: .lng)
                try container.encode(name, forKey: .name)
            }
        }

        public enum Provider: String, Codable, Sendable, CaseIterable {
            case nmap
            case tmap
            case kakaomap
        }
    }
}
