// Generated from the contracts (login_state_changed.v1.json) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// login_state_changed (로그인 상태 변경), v1: The app tells its pages that the person logged in or out, so a CTA that asked for login can update.
public struct LoginStateChangedEventV1: BridgeEventMessage {
    public static let v = 1
    public static let event = "login_state_changed"
    public static let version = 1

    public var payload: Payload

    public init(payload: Payload) {
        self.payload = payload
    }

    enum CodingKeys: String, CodingKey {
        case v
        case event
        case version
        case payload
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try container.decodeConstant(Self.v, forKey: .v)
        try container.decodeConstant(Self.event, forKey: .event)
        try container.decodeConstant(Self.version, forKey: .version)
        payload = try container.decode(Payload.self, forKey: .payload)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.v, forKey: .v)
        try container.encode(Self.event, forKey: .event)
        try container.encode(Self.version, forKey: .version)
        try container.encode(payload, forKey: .payload)
    }

    public struct Payload: Codable, Sendable, Equatable {
        /// Whether a person is logged in now.
        public var loggedIn: Bool
        /// What changed it.
        public var reason: Reason?

        public init(loggedIn: Bool, reason: Reason? = nil) {
            self.loggedIn = loggedIn
            self.reason = reason
        }

        enum CodingKeys: String, CodingKey {
            case loggedIn
            case reason
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            loggedIn = try container.decode(Bool.self, forKey: .loggedIn)
            reason = try container.decodeIfPresent(Reason.self, forKey: .reason)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(loggedIn, forKey: .loggedIn)
            try container.encodeIfPresent(reason, forKey: .reason)
        }

        public enum Reason: String, Codable, Sendable, CaseIterable {
            case login
            case logout
            case session_expired
        }
    }
}
