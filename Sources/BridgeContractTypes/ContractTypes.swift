// Generated from the contracts (manifest.json) by bridgectl. Do not edit:
// change the schema, then regenerate with `bridgectl generate swift --contracts contracts --out Sources/BridgeContractTypes`
// (with --check, the same command fails while this file is stale).

/// Every generated message type, in manifest order.
public enum ContractTypes {
    public static let all: [any BridgeMessage.Type] = [
        ApplyV1.self,
        ApplyV2.self,
        ViewVehiclesV1.self,
        StartV1.self,
        OpenDirectionsV1.self,
    ]

    /// The type of one action version, if the contracts define it.
    public static func type(action: String, version: Int) -> (any BridgeMessage.Type)? {
        all.first { $0.action == action && $0.version == version }
    }

    /// Every generated event message type (what the app sends its pages), in manifest order.
    public static let events: [any BridgeEventMessage.Type] = [
        LoginStateChangedEventV1.self,
    ]
}
