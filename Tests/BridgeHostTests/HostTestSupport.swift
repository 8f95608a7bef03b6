import JSONCore
import BridgeContracts
import DeeplinkRouting
import BridgeHost
import BridgeHostTesting
import TestSupport

/// The repository's contracts/ folder, read from disk (fixtures included).
func repositoryContracts() throws -> ContractSet {
    try ContractSet.load(directory: RepositoryPaths.contracts.path)
}

let seedEntry = "https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3_signup_retarget&group_id=B&variant=card_scanner_cta&utm_source=kakaotalk&utm_medium=alimtalk"

/// A CTA message as the shim sends it.
func message(_ action: String = "apply", id: String? = "req-00000001", version: JSONValue = 1,
             payload: JSONValue = ["slug": "new-user-promo"], campaign: JSONValue? = nil) -> String {
    var object = JSONObject([("v", 1)])
    if let id { object["id"] = .string(id) }
    object["action"] = .string(action)
    object["version"] = version
    object["payload"] = payload
    if let campaign { object["campaign"] = campaign }
    object["sentAt"] = "2026-11-29T12:00:00Z"
    return JSONValue.object(object).serialized()
}

/// Everything about a mock host's navigator and records that a rejected message must not change.
struct HostState: Equatable {
    let navigations: Int
    let events: Int
    let logins: Int
    let pending: Int?
    let waiting: [Int]
    let logCount: Int

    @MainActor
    init(_ host: MockBridgeHost) {
        navigations = host.navigations.count
        events = host.analyticsEvents.count
        logins = host.loginPresentations
        pending = host.navigator.pending?.id.rawValue
        waiting = host.navigator.waiting.map(\.id.rawValue)
        logCount = host.navigator.log.entries.count
    }
}

/// The reply the bridge gives before `receive` returns (nil for a notification, or a reply that
/// waits for its navigation).
@MainActor
func immediateReply(_ bridge: BridgeHost, body: [UInt8], origin: String, isMainFrame: Bool) -> BridgeReply? {
    final class Box { var reply: BridgeReply? }
    let box = Box()
    bridge.receive(body: body, origin: origin, isMainFrame: isMainFrame) { box.reply = $0 }
    return box.reply
}

extension CampaignMetadata.Source {
    /// The example set's declared messenger channel.
    static let kakaotalk = CampaignMetadata.Source(rawValue: "kakaotalk")
}
