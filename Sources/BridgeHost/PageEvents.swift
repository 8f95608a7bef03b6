#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import BridgeContracts

/// A checked page-bound event message, ready to post: `{"v":1,"event":NAME,"version":N,"payload":{...}}`.
public struct PageEvent: Sendable, Equatable {
    public let event: String
    public let version: Int
    public let payload: JSONValue

    public init(event: String, version: Int, payload: JSONValue) {
        self.event = event
        self.version = version
        self.payload = payload
    }

    public var message: JSONValue {
        .object(JSONObject([("v", .integer(Int64(BuiltInEvents.envelopeVersion))), ("event", .string(event)),
                            ("version", .integer(Int64(version))), ("payload", payload)]))
    }

    /// The message as JSON text that may sit inside a script (U+2028/2029 and `</` escaped).
    public var text: String { message.serialized(escapeForScript: true) }
}

/// The page a transport would post into now, as the platform reports it (WebKit: the web view's
/// current URL; Android: the `sourceOrigin` and `isMainFrame` of the listener's reply proxy).
public struct PageLocation: Sendable, Equatable {
    /// The serialised origin (`https://host[:port]`, `null` when opaque).
    public let origin: String
    public let isMainFrame: Bool

    public init(origin: String, isMainFrame: Bool) {
        self.origin = origin
        self.isMainFrame = isMainFrame
    }
}

/// How events reach the page on one platform: WebKit calls the page's receive function through
/// `evaluateJavaScript` / `callAsyncJavaScript`; Android posts on the message port. The host asks
/// where the page is before every post and posts only into an allowed origin's main frame.
@MainActor
public protocol PageEventTransport: AnyObject {
    /// Where the page is now; nil when no page is loaded.
    var pageLocation: PageLocation? { get }
    /// Posts a checked event (`event.text` is the message) into the page.
    func post(_ event: PageEvent)
}

/// Why an event did not reach the page. Nothing was posted in any case.
public enum PageEventError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither the contracts nor the built-in set declare this event version.
    case undeclared(event: String, version: Int, known: [String])
    /// The contracts declare it, but this build's capabilities do not list it as sent.
    case notSentByThisBuild(event: String, version: Int)
    /// The payload does not match the event version's schema; `details` are its output units.
    case invalidPayload(event: String, version: Int, details: [JSONValue])
    /// No transport, or no page loaded in it.
    case noPage(event: String)
    /// The page's current origin is not allowed, or the target is a subframe.
    case withheld(event: String, reason: String)

    public var code: String {
        switch self {
        case .undeclared: return "undeclared_event"
        case .notSentByThisBuild: return "not_sent_by_this_build"
        case .invalidPayload: return "invalid_payload"
        case .noPage: return "no_page"
        case .withheld: return "withheld"
        }
    }

    public var description: String {
        switch self {
        case .undeclared(let event, let version, let known):
            return "\(event) v\(version) is not a declared event (known: \(known.joined(separator: ", ")))"
        case .notSentByThisBuild(let event, let version):
            return "\(event) v\(version) is not among the events this build's capabilities list"
        case .invalidPayload(let event, let version, let details):
            return "the payload does not match \(event) v\(version) (\(details.count) error\(details.count == 1 ? "" : "s"))"
        case .noPage(let event): return "\(event): no page is loaded to receive it"
        case .withheld(let event, let reason): return "\(event) was not posted: \(reason)"
        }
    }

    public var details: [JSONValue] {
        if case .invalidPayload(_, _, let details) = self { return details }
        return []
    }
}

/// An event the host did not post, and why (recorded as well as thrown).
public struct PageEventFailure: Sendable, Equatable {
    public let event: String
    public let version: Int
    public let error: PageEventError

    public var json: JSONValue {
        var object = JSONObject([("event", .string(event)), ("version", .integer(Int64(version))),
                                 ("reason", .string(error.code)), ("message", .string(error.description))])
        if !error.details.isEmpty { object["details"] = .array(error.details) }
        return .object(object)
    }
}

/// A generated event payload type: its event name and version, and its payload as JSON.
public protocol PageEventPayload: Sendable {
    static var event: String { get }
    static var version: Int { get }
    /// The payload object as the page receives it.
    var payloadJSON: JSONValue { get throws }
}

/// A generated event message type (`bridgectl generate swift`, or the build plugin) becomes a
/// payload with one line, `extension LoginStateChangedEventV1: PageEventPayload {}`: its `event`
/// and `version` constants meet the requirements, and its payload is what it encodes under
/// `"payload"`.
extension PageEventPayload where Self: Encodable {
    public var payloadJSON: JSONValue {
        get throws {
            // Sorted keys: the same value always posts the same text.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let text = String(decoding: try encoder.encode(self), as: UTF8.self)
            guard let payload = try JSONValue(parsing: text)["payload"] else {
                throw PageEventEncodingError(type: "\(Self.self)")
            }
            return payload
        }
    }
}

/// An `Encodable` event type that encodes no `"payload"` member.
public struct PageEventEncodingError: Error, Sendable, CustomStringConvertible {
    public let type: String
    public var description: String { "\(type) encodes no \"payload\" member: it is not a page-bound event message" }
}

/// Which pages may receive events: the manifest's allowed origins, main frame only.
struct PageEventGate: Sendable {
    let originPolicy: OriginPolicy

    /// nil when an event may be posted to `location`, else why not.
    func refusal(for location: PageLocation) -> String? {
        guard location.isMainFrame else { return "the target is a subframe; events go to the main frame only" }
        return originPolicy.rejection(of: location.origin).map { "the page's current origin is refused: " + $0 }
    }
}
