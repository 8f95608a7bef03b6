#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import DeeplinkRouting

/// What the app's handler of a custom action (`"handler": "custom"` in the manifest) is given: the
/// payload of a message that passed every check (envelope, origin, action schema, request id),
/// the campaign metadata of the page (the entry link's, authoritative, filled in by the message),
/// and where the message came from.
public struct CustomActionRequest<Payload: Sendable>: Sendable {
    public let action: String
    public let version: Int
    /// nil for a notification (a message without `id`): the handler still runs; nobody reads its result.
    public let requestID: String?
    public let payload: Payload
    public let campaign: CampaignMetadata
    /// The WebView-attested origin of the page, e.g. "https://event.example.com".
    public let origin: String
    public let isMainFrame: Bool

    public init(action: String, version: Int, requestID: String?, payload: Payload, campaign: CampaignMetadata,
                origin: String, isMainFrame: Bool) {
        self.action = action
        self.version = version
        self.requestID = requestID
        self.payload = payload
        self.campaign = campaign
        self.origin = origin
        self.isMainFrame = isMainFrame
    }

    func with<Other: Sendable>(payload: Other) -> CustomActionRequest<Other> {
        CustomActionRequest<Other>(action: action, version: version, requestID: requestID, payload: payload,
                                   campaign: campaign, origin: origin, isMainFrame: isMainFrame)
    }
}

/// App code that answers one custom action version: a typed payload in (a payload type of
/// `bridgectl generate swift` such as `ShareV1.Payload`, or any Decodable that reads the
/// payload object), an Encodable result out. The host checks the result against the action's
/// result schema before the page gets it. Throw a `BridgeError` to choose the reply's code (e.g.
/// UNAVAILABLE when the device cannot share); any other error is replied as INTERNAL.
public protocol CustomActionHandler: Sendable {
    associatedtype Payload: Decodable & Sendable
    /// Sendable: the handler makes it in a task of its own, off the main actor, and it is encoded there.
    associatedtype Result: Encodable & Sendable
    func handle(_ request: CustomActionRequest<Payload>) async throws -> Result
}

/// The app's handlers of custom actions, by action and version, handed to `BridgeHost` at setup.
/// The host refuses to start (`BridgeHostSetupError`) when a custom action version it takes has no
/// handler here, or when a handler names an action version the contracts do not declare custom.
public struct CustomActions: Sendable {
    public struct Key: Hashable, Sendable, Comparable, CustomStringConvertible {
        public let action: String
        public let version: Int

        public init(action: String, version: Int) {
            self.action = action
            self.version = version
        }

        public static func < (left: Key, right: Key) -> Bool {
            (left.action, left.version) < (right.action, right.version)
        }

        public var description: String { "\(action) v\(version)" }
    }

    /// A handler with its payload and result already turned into JSON values.
    enum Body: Sendable {
        /// Runs in a task; the reply comes when it returns.
        case async(@Sendable (CustomActionRequest<JSONValue>) async throws -> JSONValue)
        /// Runs on the main actor before `receive` returns (copying to the pasteboard, a test host's
        /// stand-in): the reply comes at once, like a navigation that completes at once.
        case immediate(@MainActor @Sendable (CustomActionRequest<JSONValue>) throws -> JSONValue)
    }

    private(set) var bodies: [Key: Body] = [:]

    public init() {}

    /// The action versions with a handler, in name and version order.
    public var registered: [Key] { bodies.keys.sorted() }

    /// The payload and the result as JSON values (`JSONValue`), no Codable types involved.
    public mutating func register(_ action: String, version: Int,
                                  handler: @escaping @Sendable (CustomActionRequest<JSONValue>) async throws -> JSONValue) {
        bodies[Key(action: action, version: version)] = .async(handler)
    }

    /// A handler that does its work on the main actor without suspending; its reply is given before
    /// `BridgeHost.receive` returns.
    public mutating func registerImmediate(_ action: String, version: Int,
                                           handler: @escaping @MainActor @Sendable (CustomActionRequest<JSONValue>) throws -> JSONValue) {
        bodies[Key(action: action, version: version)] = .immediate(handler)
    }

    /// The payload decoded as `payload` (e.g. `ShareV1.Payload.self`), the result encoded to JSON.
    public mutating func register<Payload: Decodable & Sendable, Result: Encodable & Sendable>(
        _ action: String, version: Int, payload: Payload.Type,
        handler: @escaping @Sendable (CustomActionRequest<Payload>) async throws -> Result
    ) {
        let key = Key(action: action, version: version)
        bodies[key] = .async { request in
            let typed = try CustomActionCoding.decode(Payload.self, from: request.payload, for: key)
            return try CustomActionCoding.encode(try await handler(request.with(payload: typed)), for: key)
        }
    }

    public mutating func register<Handler: CustomActionHandler>(_ action: String, version: Int, handler: Handler) {
        register(action, version: version, payload: Handler.Payload.self) { request in
            try await handler.handle(request)
        }
    }

    func body(for action: String, version: Int) -> Body? {
        bodies[Key(action: action, version: version)]
    }
}

/// Between the validated JSON and the app's Codable types. A payload the schema accepted but the
/// Swift type cannot read, or a result that cannot be encoded, is the app's bug: INTERNAL.
enum CustomActionCoding {
    static func decode<Payload: Decodable>(_ type: Payload.Type, from payload: JSONValue,
                                           for key: CustomActions.Key) throws(BridgeError) -> Payload {
        do {
            return try JSONDecoder().decode(Payload.self, from: Data(payload.serialized().utf8))
        } catch {
            throw BridgeError(.internal, "\(key): the app cannot read the validated payload as \(Payload.self)")
        }
    }

    static func encode<Result: Encodable>(_ result: Result, for key: CustomActions.Key) throws(BridgeError) -> JSONValue {
        let data: Data
        do {
            // Sorted keys: the reply's text is the same on every run, whatever the hash seed.
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            data = try encoder.encode(result)
        } catch {
            throw BridgeError(.internal, "\(key): the app's result cannot be encoded as JSON")
        }
        do {
            return try JSONValue(parsing: Array(data))
        } catch {
            throw BridgeError(.internal, "\(key): the app's result is not JSON the bridge can read")
        }
    }
}

/// A custom action that did not answer with a result matching its schema, or threw: what the page
/// was told (`error`) and, for a thrown error that is not a `BridgeError`, what the app threw.
public struct CustomActionFailure: Sendable, Equatable {
    public let action: String
    public let version: Int
    public let requestID: String?
    public let error: BridgeError
    /// The thrown error's text, kept for the app's own logs and never sent to the page.
    public let cause: String?

    public init(action: String, version: Int, requestID: String?, error: BridgeError, cause: String?) {
        self.action = action
        self.version = version
        self.requestID = requestID
        self.error = error
        self.cause = cause
    }

    public var json: JSONValue {
        var object = JSONObject([("action", .string(action)), ("version", .integer(Int64(version))),
                                 ("requestId", requestID.map(JSONValue.string) ?? .null), ("error", error.json)])
        if let cause { object["cause"] = .string(cause) }
        return .object(object)
    }
}
