/// Something worth telling about a link that still routed, e.g. a value that looks double encoded.
public struct DeeplinkWarning: Sendable, Equatable, CustomStringConvertible {
    /// Where: "path.<name>", "query.<name>" (e.g. "query.variant").
    public let field: String
    public let message: String
    /// Set when the app will not act on all of the link: a value it drops, the whole link refused
    /// from its channel, or a link too long to arrive whole. `route --strict` fails on these.
    public let losesPart: Bool

    public init(field: String, message: String, losesPart: Bool = false) {
        self.field = field
        self.message = message
        self.losesPart = losesPart
    }

    public var description: String { "\(field): \(message)" }
}

/// Why a URL did not become a ParsedDeeplink. Where the link was meant for us (a known host or
/// our custom scheme) the error carries the https fallback: the web page of the same path, so an
/// app that does not know a route still lands the person somewhere sensible. A foreign host never
/// gets a fallback: we never build a URL on somebody else's host.
public enum DeeplinkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The scheme is neither https nor the link configuration's custom scheme.
    case wrongScheme(String, fallback: String?)
    /// Not one of the link configuration's Universal Link hosts (or not on the default port).
    case unknownHost(String, fallback: String?)
    /// The path matches no route in the table.
    case noMatchingRoute(path: String, fallback: String?)
    /// A value does not have its declared type. `name` is "path.<parameter>" or "query.<field>".
    case badParameter(name: String, value: String, expected: ParameterType, fallback: String?)
    /// Invalid percent-encoding (`%ZZ`, a truncated `%E`, or bytes that are not UTF-8 once decoded).
    /// `field` is "host", "path.<parameter or segment index>", "query" or "query.<name>".
    case badEncoding(field: String, value: String)
    /// A push payload without a usable link under the link configuration's pushURLKey.
    case invalidPushPayload(String)
    /// Not a URL at all: no scheme, spaces or control characters, userinfo...
    case malformedURL(String)
    /// An external route (a map app) whose destination is incomplete or names an unknown provider:
    /// it never reaches the opener.
    case invalidDestination(route: String, reason: String, fallback: String?)

    public var fallbackURL: String? {
        switch self {
        case .wrongScheme(_, let fallback), .unknownHost(_, let fallback),
             .noMatchingRoute(_, let fallback), .badParameter(_, _, _, let fallback), .invalidDestination(_, _, let fallback):
            return fallback
        case .badEncoding, .invalidPushPayload, .malformedURL:
            return nil
        }
    }

    public var description: String {
        switch self {
        case .wrongScheme(let scheme, _):
            return "wrong scheme \"\(scheme)\" (deep links are https Universal Links or the app's custom scheme)"
        case .unknownHost(let host, _):
            return "unknown host \"\(host)\" (not one of the app's Universal Link hosts on the default port)"
        case .noMatchingRoute(let path, _):
            return "no route matches path \(path)"
        case .badParameter(let name, let value, let expected, _):
            return "\(name): \"\(value)\" is not a valid \(expected.rawValue) (\(ParameterRules.describe(expected)))"
        case .badEncoding(let field, let value):
            return "\(field): invalid percent-encoding in \"\(value)\""
        case .invalidPushPayload(let message):
            return "push payload: \(message)"
        case .malformedURL(let message):
            return "malformed URL: \(message)"
        case .invalidDestination(let route, let reason, _):
            return "route \(route): invalid destination: \(reason)"
        }
    }
}

/// A routes table that cannot be used safely.
public enum RouteTableError: Error, Sendable, Equatable, CustomStringConvertible {
    case duplicateName(String)
    /// Two patterns that are the same up to parameter names: a URL could not choose between them.
    case ambiguous(route: String, pattern: String, otherRoute: String, otherPattern: String)
    case invalidPattern(route: String, pattern: String, reason: String)
    /// A query field that could never be read back (it names a path parameter or a campaign field).
    case queryFieldConflict(route: String, field: String, reason: String)

    public var description: String {
        switch self {
        case .duplicateName(let name):
            return "route \"\(name)\" is declared twice"
        case .ambiguous(let route, let pattern, let otherRoute, let otherPattern):
            return "routes \"\(otherRoute)\" (\(otherPattern)) and \"\(route)\" (\(pattern)) match the same URLs; make one of the segments a literal or remove one"
        case .invalidPattern(let route, let pattern, let reason):
            return "route \"\(route)\": pattern \(pattern): \(reason)"
        case .queryFieldConflict(let route, let field, let reason):
            return "route \"\(route)\": query field \"\(field)\" \(reason)"
        }
    }
}

/// Why a URL (or a CTA destination) could not be built. Each case lists what would have been valid.
public enum LinkBuildError: Error, Sendable, Equatable, CustomStringConvertible {
    case unknownRoute(String, valid: [String])
    case missingParameter(String, route: String, valid: [String])
    case unknownParameter(String, route: String, valid: [String])
    case unknownQueryField(String, route: String, valid: [String])
    /// `field` is "path.<name>", "query.<name>" or "campaign.<name>".
    case badValue(field: String, value: String, expected: ParameterType)
    /// A utm key that is not "utm_" followed by a name.
    case badCampaignField(String, reason: String)
    /// An external route's destination is incomplete or names an unknown provider.
    case invalidDestination(route: String, reason: String)
    /// A campaign value that breaks the contract's campaign rules. `field` is "campaign.<name>".
    case campaignRule(field: String, value: String, violation: CampaignRuleViolation)
    /// A value that looks percent-encoded already, refused in strict mode; `plain` is its decoded text.
    case alreadyEncoded(field: String, value: String, plain: String?)

    public var description: String {
        func list(_ names: [String]) -> String { names.isEmpty ? "none" : names.joined(separator: ", ") }
        switch self {
        case .unknownRoute(let name, let valid):
            return "unknown route \"\(name)\" (routes: \(list(valid)))"
        case .missingParameter(let name, let route, let valid):
            return "route \(route) needs parameter \"\(name)\" (parameters: \(list(valid)))"
        case .unknownParameter(let name, let route, let valid):
            return "route \(route) has no parameter \"\(name)\" (parameters: \(list(valid)))"
        case .unknownQueryField(let name, let route, let valid):
            return "route \(route) has no query field \"\(name)\" (query fields: \(list(valid)))"
        case .badValue(let field, let value, let expected):
            return "\(field): \"\(value)\" is not a valid \(expected.rawValue) (\(ParameterRules.describe(expected)))"
        case .badCampaignField(let name, let reason):
            return "campaign field \"\(name)\": \(reason)"
        case .invalidDestination(let route, let reason):
            return "route \(route): invalid destination: \(reason)"
        case .campaignRule(let field, let value, let violation):
            return "\(field): " + violation.refusal(of: value)
        case .alreadyEncoded(let field, let value, let plain):
            return "\(field): \(LinkText.shown(value)) looks percent-encoded already" + (plain.map { "; give the plain text (\(LinkText.shown($0))) instead" } ?? "")
        }
    }
}
