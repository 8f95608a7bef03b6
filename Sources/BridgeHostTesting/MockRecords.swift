import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost

/// What the app would have shown: one per destination pushed or presented.
public struct NavigationRecord: Sendable, Equatable {
    public let envelopeID: EnvelopeID
    public let route: String
    public let url: String
    public let tab: String
    /// The list attached beneath the destination for back navigation, if any.
    public let list: String?
    public let screen: String
    public let presentation: Presentation
    public let parameters: [String: String]
    public let query: [String: [String]]
    public let campaign: CampaignMetadata

    public var json: JSONValue {
        var parameterObject = JSONObject()
        for key in parameters.keys.sorted() { parameterObject[key] = .string(parameters[key]!) }
        var queryObject = JSONObject()
        for key in query.keys.sorted() {
            let values = query[key]!
            queryObject[key] = values.count == 1 ? .string(values[0]) : .array(values.map { .string($0) })
        }
        return .object(JSONObject([
            ("route", .string(route)), ("url", .string(url)), ("tab", .string(tab)),
            ("list", list.map(JSONValue.string) ?? .null), ("screen", .string(screen)),
            ("presentation", .string(presentation.rawValue)), ("parameters", .object(parameterObject)),
            ("query", .object(queryObject)), ("campaign", campaign.json), ("pendingLogin", false),
            ("envelope", .integer(Int64(envelopeID.rawValue))),
        ]))
    }
}

/// The mock app was asked to open a URL outside itself (a map app, or a fallback page).
public struct ExternalOpenRecord: Sendable, Equatable {
    public let url: String
    public let scheme: String
    /// Whether it opened (the app is installed, or it is a web page, and the open did not fail).
    public let opened: Bool

    public init(url: String, scheme: String, opened: Bool) {
        self.url = url
        self.scheme = scheme
        self.opened = opened
    }

    public var json: JSONValue {
        .object(JSONObject([("url", .string(url)), ("scheme", .string(scheme)), ("opened", .bool(opened))]))
    }
}

/// Everything the mock host saw, in order. `json` is the line `bridgectl host --stdio` prints.
public enum MockRecord: Sendable, Equatable {
    /// A reply, and which message it answers (the mock host's nth `receive`, from 1): a reply may
    /// come after later messages when its navigation takes time.
    case reply(BridgeReply, message: Int)
    case navigation(NavigationRecord)
    case event(AnalyticsEvent)
    case loginPresented
    case campaignConflict(CampaignConflict)
    case notification(action: String, version: Int, outcome: String)
    /// A custom action's handler threw or answered with a result its schema rejects.
    case customActionFailed(CustomActionFailure)
    case envelope(id: EnvelopeID, route: String, outcome: EnvelopeOutcome)
    /// A navigation step that does not complete at once: it takes `latencyMs` on the clock, or
    /// (nil) waits for `completeStep`.
    case step(id: EnvelopeID, route: String, step: NavigationStep, latencyMs: Int?)
    case externalOpen(ExternalOpenRecord)
    /// A deferred deep link is offered to the person (a snackbar). The offer's id is that of the
    /// envelope consumed as `offered`.
    case offer(id: EnvelopeID, route: String, url: String)
    /// The offer ended and went away (taken, dismissed, expired, replaced, logged out).
    case offerWithdrawn(id: EnvelopeID, route: String, end: OfferEnd)
    /// An event the page received (`{"type":"page-event"}` and the page-bound message's fields).
    case pageEvent(PageEvent)
    /// An event the host did not post.
    case eventFailed(PageEventFailure)

    public var json: JSONValue {
        switch self {
        case .reply(let reply, _):
            var object = JSONObject([("type", "reply")])
            if case .object(let fields) = reply.json { for (key, value) in fields { object[key] = value } }
            return .object(object)
        case .navigation(let navigation):
            var object = JSONObject([("type", "navigation")])
            if case .object(let fields) = navigation.json { for (key, value) in fields { object[key] = value } }
            return .object(object)
        case .event(let event):
            return .object(JSONObject([("type", "event"), ("name", .string(event.name)), ("properties", .object(event.properties))]))
        case .loginPresented:
            return ["type": "login_presented"]
        case .campaignConflict(let conflict):
            var object = JSONObject([("type", "campaign_conflict")])
            if case .object(let fields) = conflict.json { for (key, value) in fields { object[key] = value } }
            return .object(object)
        case .notification(let action, let version, let outcome):
            return .object(JSONObject([("type", "notification"), ("action", .string(action)),
                                       ("version", .integer(Int64(version))), ("outcome", .string(outcome))]))
        case .customActionFailed(let failure):
            var object = JSONObject([("type", "custom_action_failed")])
            if case .object(let fields) = failure.json { for (key, value) in fields { object[key] = value } }
            return .object(object)
        case .envelope(let id, let route, let outcome):
            var object = JSONObject([("type", "envelope"), ("envelope", .integer(Int64(id.rawValue))),
                                     ("route", .string(route)), ("outcome", .string(outcome.name))])
            switch outcome {
            case .queued(let other): object["behind"] = .integer(Int64(other.rawValue))
            case .replacedWhilePending(let other): object["by"] = .integer(Int64(other.rawValue))
            case .duplicate(let other): object["of"] = .integer(Int64(other.rawValue))
            case .failed(let failure):
                object["reason"] = .string(failure.code)
                if let step = failure.step { object["step"] = .string(step.rawValue) }
                if case .external(let error) = failure, let provider = error.provider { object["provider"] = .string(provider) }
                object["message"] = .string(failure.description)
            case .refused(let refusal):
                object["reason"] = .string(refusal.code)
                object["channel"] = .string(refusal.channel.rawValue)
            case .opened(let opened):
                object["provider"] = .string(opened.provider)
            default: break
            }
            return .object(object)
        case .offer(let id, let route, let url):
            return .object(JSONObject([("type", "offer"), ("offer", .integer(Int64(id.rawValue))), ("route", .string(route)),
                                       ("url", .string(url))]))
        case .offerWithdrawn(let id, let route, let end):
            var object = JSONObject([("type", "offer_withdrawn"), ("offer", .integer(Int64(id.rawValue))), ("route", .string(route)),
                                     ("reason", .string(end.name))])
            switch end {
            case .taken(let envelope): object["envelope"] = .integer(Int64(envelope.rawValue))
            case .replaced(let newer): object["by"] = .integer(Int64(newer.rawValue))
            case .dismissed, .expired, .loggedOut: break
            }
            return .object(object)
        case .pageEvent(let event):
            var object = JSONObject([("type", "page-event")])
            if case .object(let fields) = event.message { for (key, value) in fields { object[key] = value } }
            return .object(object)
        case .eventFailed(let failure):
            var object = JSONObject([("type", "event_failed")])
            if case .object(let fields) = failure.json { for (key, value) in fields { object[key] = value } }
            return .object(object)
        case .externalOpen(let record):
            var object = JSONObject([("type", "external_open")])
            if case .object(let fields) = record.json { for (key, value) in fields { object[key] = value } }
            return .object(object)
        case .step(let id, let route, let step, let latency):
            var object = JSONObject([("type", "step"), ("envelope", .integer(Int64(id.rawValue))), ("route", .string(route)),
                                     ("step", .string(step.rawValue)), ("status", "waiting")])
            if let latency { object["ms"] = .integer(Int64(latency)) }
            return .object(object)
        }
    }

    /// One JSON line (no newline), safe to embed in a script.
    public var jsonLine: String { json.serialized(escapeForScript: true) }
}
