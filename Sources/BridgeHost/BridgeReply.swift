import JSONCore

/// The successful outcome of a request: where it led and whether login comes first.
public struct BridgeResult: Sendable, Equatable {
    public let route: String
    /// The destination's Universal Link without campaign fields.
    public let url: String
    public let pendingLogin: Bool
    /// True during a cold start: accepted, and routed once the app is ready.
    public let waitingForReady: Bool
    /// True when the reply could not wait any longer for the navigation (a slow detail fetch, a
    /// navigation queued behind another): accepted, still resolving. Sent just before the
    /// contract's `timeoutMs`, so the page never times out against a slow app.
    public let resolving: Bool
    /// For a destination outside the app: "app" when the provider's app opened, "fallback" when its
    /// fallback (mobile web or App Store) did.
    public let opened: String?
    /// The provider that was opened ("mapsapp").
    public let provider: String?

    public init(route: String, url: String, pendingLogin: Bool = false, waitingForReady: Bool = false, resolving: Bool = false,
                opened: String? = nil, provider: String? = nil) {
        self.route = route
        self.url = url
        self.pendingLogin = pendingLogin
        self.waitingForReady = waitingForReady
        self.resolving = resolving
        self.opened = opened
        self.provider = provider
    }

    public var json: JSONValue {
        var object = JSONObject([("route", .string(route)), ("url", .string(url)), ("pendingLogin", .bool(pendingLogin))])
        if waitingForReady { object["waitingForReady"] = true }
        if resolving { object["resolving"] = true }
        if let opened { object["opened"] = .string(opened) }
        if let provider { object["provider"] = .string(provider) }
        return .object(object)
    }
}

/// What an ok reply carries: where a CTA led, the capability manifest the page asked for, or what
/// the app's code answered a custom action with (already checked against its result schema).
public enum ReplyResult: Sendable, Equatable {
    case navigation(BridgeResult)
    case capabilities(HostCapabilities)
    case custom(JSONValue)

    public var json: JSONValue {
        switch self {
        case .navigation(let result): return result.json
        case .capabilities(let capabilities): return capabilities.json
        case .custom(let result): return result
        }
    }
}

/// A reply to the page: `{"v":1,"id":...,"ok":true,"result":{...}}` or
/// `{"v":1,"id":...,"ok":false,"error":{"code":...,"message":...,"details":[...]}}`.
/// `id` is null when the message was too broken to read one from.
public struct BridgeReply: Sendable, Equatable {
    public let id: String?
    public let outcome: Result<ReplyResult, BridgeError>

    public init(id: String?, outcome: Result<ReplyResult, BridgeError>) {
        self.id = id
        self.outcome = outcome
    }

    public var ok: Bool {
        if case .success = outcome { return true }
        return false
    }

    public var error: BridgeError? {
        if case .failure(let error) = outcome { return error }
        return nil
    }

    /// Where a CTA led (nil for an error, and for the reply to a capabilities request).
    public var result: BridgeResult? {
        if case .success(.navigation(let result)) = outcome { return result }
        return nil
    }

    /// What a custom action answered (nil for errors, navigations and capabilities).
    public var customResult: JSONValue? {
        if case .success(.custom(let result)) = outcome { return result }
        return nil
    }

    /// The manifest a capabilities request was answered with.
    public var capabilities: HostCapabilities? {
        if case .success(.capabilities(let capabilities)) = outcome { return capabilities }
        return nil
    }

    public var json: JSONValue {
        var object = JSONObject([("v", 1), ("id", id.map(JSONValue.string) ?? .null)])
        switch outcome {
        case .success(let result):
            object["ok"] = true
            object["result"] = result.json
        case .failure(let error):
            object["ok"] = false
            object["error"] = error.json
        }
        return .object(object)
    }

    /// The text to hand to the page (escaped so it is safe inside a script evaluated by a WebView).
    public var text: String { json.serialized(escapeForScript: true) }
}
