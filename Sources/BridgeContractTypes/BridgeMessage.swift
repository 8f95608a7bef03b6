// Generated (the same for every contract set) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// A message type generated from one action version's schema: the envelope's members and the
/// action's, with `action` and `version` as constants. Decode one from a message the checker
/// accepted; encoding it gives an equivalent message.
public protocol BridgeMessage: Codable, Sendable, Equatable {
    static var action: String { get }
    static var version: Int { get }
}

/// A message type generated from one event version's schema: the page-bound message the app
/// sends, with `event` and `version` as constants and the payload. `BridgeHost.emit` sends
/// one once it also conforms to `PageEventPayload` (`extension T: PageEventPayload {}`).
public protocol BridgeEventMessage: Codable, Sendable, Equatable {
    static var event: String { get }
    static var version: Int { get }
}

extension KeyedDecodingContainer {
    /// Decodes a `const` member and fails unless it has the schema's value.
    public func decodeConstant<Value: Decodable & Equatable>(_ expected: Value, forKey key: Key) throws {
        let found = try decode(Value.self, forKey: key)
        guard found == expected else {
            throw DecodingError.dataCorruptedError(forKey: key, in: self,
                debugDescription: "\(key.stringValue) is \(found), the schema's constant is \(expected)")
        }
    }
}
