import DeeplinkRouting
import JSONCore

/// What one version of a CTA action maps to: its schema, and either the declarative mapping from
/// payload fields (JSON Pointers into the message) to route parameters and query fields, or app
/// code registered on the host (`"handler": "custom"`) whose reply result has its own schema.
public struct ActionContract: Sendable, Equatable {
    /// Who answers a valid message of this version.
    public enum Handler: Sendable, Equatable {
        /// The shared navigator, at this route of routes.json (the manifest's `"route"`); the reply
        /// says where it led.
        case route(String)
        /// Swift code the app registers on `BridgeHost`; its result must match this schema file
        /// inside schemas/ (the manifest's `"result"`) before the page gets it.
        case custom(result: String)
    }

    public enum Fallback: String, Sendable {
        /// Outside the app, or in an app that does not support the action, open the route's Universal Link.
        case universalLink
        case none
    }

    public struct Mapping: Sendable, Equatable {
        public let name: String
        /// A JSON Pointer into the message, e.g. "/payload/slug".
        public let pointer: String
        /// The pointer's reference tokens, read once: every message mapped follows them.
        public let tokens: [String]
    }

    @inlinable public var action: String { box.fields.action }
    @inlinable public var version: Int { box.fields.version }
    /// Schema file name inside schemas/, e.g. "apply.v1.json".
    @inlinable public var schema: String { box.fields.schema }
    @inlinable public var handler: Handler { box.fields.handler }
    @inlinable public var parameters: [Mapping] { box.fields.parameters }
    @inlinable public var query: [Mapping] { box.fields.query }
    @inlinable public var timeoutMs: Int { box.fields.timeoutMs }
    @inlinable public var fallback: Fallback { box.fields.fallback }
    /// Whether messages from subframes are accepted for this action (default: main frame only).
    @inlinable public var allowFrames: Bool { box.fields.allowFrames }

    /// The fields in one `ValueBox` (DeeplinkRouting; its doc comment says why and states the
    /// inlining policy): the host looks a message's contract up and hands it on for every message.
    @usableFromInline let box: ValueBox<Fields>

    @usableFromInline struct Fields: Sendable, Equatable {
        @usableFromInline let action: String
        @usableFromInline let version: Int
        @usableFromInline let schema: String
        @usableFromInline let handler: Handler
        @usableFromInline let parameters: [Mapping]
        @usableFromInline let query: [Mapping]
        @usableFromInline let timeoutMs: Int
        @usableFromInline let fallback: Fallback
        @usableFromInline let allowFrames: Bool
    }

    init(action: String, version: Int, schema: String, handler: Handler, parameters: [Mapping], query: [Mapping],
         timeoutMs: Int, fallback: Fallback, allowFrames: Bool) {
        box = ValueBox(Fields(action: action, version: version, schema: schema, handler: handler, parameters: parameters,
                              query: query, timeoutMs: timeoutMs, fallback: fallback, allowFrames: allowFrames))
    }

    /// The route a route-handled version navigates to; nil for a custom action.
    public var route: String? {
        if case .route(let name) = handler { return name }
        return nil
    }

    /// The result schema file of a custom action; nil for a route-handled version.
    public var resultSchema: String? {
        if case .custom(let result) = handler { return result }
        return nil
    }

    public var isCustom: Bool { resultSchema != nil }
}

public struct BridgeAction: Sendable, Equatable {
    @inlinable public var name: String { box.fields.name }
    @inlinable public var title: String { box.fields.title }
    /// Versions in ascending order.
    @inlinable public var versions: [ActionContract] { box.fields.versions }

    /// One `ValueBox`, as `ActionContract`'s: the host looks the action up for every message.
    @usableFromInline let box: ValueBox<Fields>

    @usableFromInline struct Fields: Sendable, Equatable {
        @usableFromInline let name: String
        @usableFromInline let title: String
        @usableFromInline let versions: [ActionContract]
    }

    init(name: String, title: String, versions: [ActionContract]) {
        box = ValueBox(Fields(name: name, title: title, versions: versions))
    }

    public func contract(version: Int) -> ActionContract? {
        box.fields.versions.first { $0.version == version }
    }
}

public struct BridgeLimits: Sendable, Equatable {
    public var maxMessageBytes: Int
    public var maxDepth: Int
    public var duplicateWindowMs: Int

    public static let defaults = BridgeLimits(maxMessageBytes: 65_536, maxDepth: 64, duplicateWindowMs: 2_000)
}

/// contracts/manifest.json.
public struct BridgeManifest: Sendable, Equatable {
    /// The script message handler name, e.g. window.webkit.messageHandlers.<bridge>.
    public let bridge: String
    public let envelopeVersion: Int
    public let schemaBase: String
    public let envelopeSchema: String
    /// Exact origins (scheme://host[:port]) allowed to post messages.
    public let allowedOrigins: [String]
    public let allowFrames: Bool
    public let universalLinkHosts: [String]
    public let customScheme: String
    public let webBaseURL: String
    public let pushURLKey: String
    /// The URL schemes the app declares in Info.plist's LSApplicationQueriesSchemes: the only
    /// ones `canOpenURL` may say yes to. Every scheme an external route opens must be here.
    public let queriedURLSchemes: [String]
    /// When true, "format" in the contract schemas is an assertion (date-time, uuid, ...),
    /// not only an annotation, for every checker that uses this contract set.
    public let assertFormat: Bool
    public let limits: BridgeLimits
    /// Actions in manifest order.
    public let actions: [BridgeAction]
    /// The analytics event names the hosts emit and the funnel reads (`"analytics"`).
    public var analytics: AnalyticsNames = .neutral
    /// The funnel's home screens and sign-in event (`"funnel"`).
    public var funnel: FunnelNames = .neutral
    /// The events the app sends its pages (`"events"`), in manifest order; `allEvents` adds the
    /// built-in ones.
    public var events: [BridgeEvent] = []

    public func action(named name: String) -> BridgeAction? {
        actions.first { $0.name == name }
    }

    /// The link settings the routing layer needs (hosts, scheme, web base, push key).
    public var links: LinkConfiguration {
        LinkConfiguration(universalLinkHosts: universalLinkHosts, customScheme: customScheme, webBaseURL: webBaseURL,
                          pushURLKey: pushURLKey)
    }
}

extension BridgeManifest {
    static func load(from reader: FieldReader) throws(ContractError) -> BridgeManifest {
        let allowFrames = try reader.optionalChild("allowFrames")?.bool() ?? false
        var limits = BridgeLimits.defaults
        if let declared = try reader.optionalChild("limits") {
            if let value = try declared.optionalChild("maxMessageBytes") { limits.maxMessageBytes = try value.integer() }
            if let value = try declared.optionalChild("maxDepth") { limits.maxDepth = try value.integer() }
            if let value = try declared.optionalChild("duplicateWindowMs") { limits.duplicateWindowMs = try value.integer() }
        }
        let actionsReader = try reader.child("actions")
        var actions: [BridgeAction] = []
        for (name, _) in try actionsReader.object() {
            actions.append(try loadAction(name: name, reader: try actionsReader.child(name), frames: allowFrames))
        }
        var manifest = BridgeManifest(
            bridge: try reader.child("bridge").string(),
            envelopeVersion: try reader.child("envelope").integer(),
            schemaBase: try reader.child("schemaBase").string(),
            envelopeSchema: try reader.child("envelopeSchema").string(),
            allowedOrigins: try reader.child("allowedOrigins").strings(),
            allowFrames: allowFrames,
            universalLinkHosts: try reader.child("universalLinkHosts").strings().map { $0.lowercased() },
            customScheme: try reader.child("customScheme").string().lowercased(),
            webBaseURL: try reader.child("webBaseURL").string(),
            pushURLKey: try reader.optionalChild("pushURLKey")?.string() ?? "deeplink",
            queriedURLSchemes: try reader.optionalChild("queriedURLSchemes")?.strings().map { $0.lowercased() } ?? [],
            assertFormat: try reader.optionalChild("assertFormat")?.bool() ?? false,
            limits: limits,
            actions: actions
        )
        manifest.analytics = try AnalyticsNames.load(reader.optionalChild("analytics"))
        manifest.funnel = try FunnelNames.load(reader.optionalChild("funnel"))
        manifest.events = try loadEvents(reader.optionalChild("events"))
        return manifest
    }

    private static func loadAction(name: String, reader: FieldReader, frames: Bool) throws(ContractError) -> BridgeAction {
        let versionsReader = try reader.child("versions")
        var versions: [ActionContract] = []
        for (key, _) in try versionsReader.object() {
            guard let version = Int(key), version >= 1 else {
                throw versionsReader.fail("version keys must be positive integers", at: key)
            }
            let entry = try versionsReader.child(key)
            let fallbackName = try entry.optionalChild("fallback")?.string() ?? "none"
            guard let fallback = ActionContract.Fallback(rawValue: fallbackName) else {
                throw entry.fail("fallback must be universalLink or none", at: "fallback")
            }
            versions.append(ActionContract(
                action: name, version: version,
                schema: try entry.child("schema").string(),
                handler: try handler(entry, fallback: fallback),
                parameters: try mappings(entry.optionalChild("parameters")),
                query: try mappings(entry.optionalChild("query")),
                timeoutMs: try entry.optionalChild("timeoutMs")?.integer() ?? 5_000,
                fallback: fallback,
                allowFrames: try entry.optionalChild("allowFrames")?.bool() ?? frames
            ))
        }
        versions.sort { $0.version < $1.version }
        return BridgeAction(name: name, title: try reader.optionalChild("title")?.string() ?? name, versions: versions)
    }

    /// `"handler"` is "route" (the default: `"route"` names the route) or "custom" (`"result"` names
    /// the result schema). A custom version maps nothing and has no route to fall back to.
    private static func handler(_ entry: FieldReader, fallback: ActionContract.Fallback) throws(ContractError) -> ActionContract.Handler {
        let kind = try entry.optionalChild("handler")?.string() ?? "route"
        switch kind {
        case "route":
            if try entry.optionalChild("result") != nil {
                throw entry.fail("\"result\" belongs to a custom action (\"handler\": \"custom\"); a route action replies with where it led", at: "result")
            }
            return .route(try entry.child("route").string())
        case "custom":
            for field in ["route", "parameters", "query"] {
                guard try entry.optionalChild(field) != nil else { continue }
                throw entry.fail("a custom action (\"handler\": \"custom\") has no \"\(field)\": app code answers it, not a route", at: field)
            }
            if fallback == .universalLink {
                throw entry.fail("a custom action has no route to fall back to: \"fallback\" must be none", at: "fallback")
            }
            return .custom(result: try entry.child("result").string())
        default:
            throw entry.fail("handler must be route or custom, not \"\(kind)\"", at: "handler")
        }
    }

    private static func mappings(_ reader: FieldReader?) throws(ContractError) -> [ActionContract.Mapping] {
        guard let reader else { return [] }
        var result: [ActionContract.Mapping] = []
        for (name, pointer) in try reader.stringMap() {
            guard let tokens = JSONPointer.tokens(of: pointer) else {
                throw reader.fail("\"\(pointer)\" is not a JSON Pointer", at: name)
            }
            result.append(.init(name: name, pointer: pointer, tokens: tokens))
        }
        return result
    }
}

extension ContractSet {
    /// The first of a custom action's result `examples`: the deterministic stand-in answer of test
    /// hosts (the mock host, `bridgectl simulate`, the web team's fake host). Lint checks it matches
    /// the result schema. nil for a route-handled version or a schema without examples.
    public func exampleResult(for contract: ActionContract) -> JSONValue? {
        contract.resultSchema.flatMap { schema(file: $0)?["examples"]?.arrayValue?.first }
    }
}
