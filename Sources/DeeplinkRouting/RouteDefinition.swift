/// The type a path or query parameter must have. Checked when a URL is parsed or built.
public enum ParameterType: String, Sendable, CaseIterable, Codable {
    case string, int, uuid, slug
    /// A WGS84 coordinate in plain decimal (no exponent, no comma): latitude -90...90,
    /// longitude -180...180.
    case latitude, longitude
}

/// How the destination is shown once reached.
public enum Presentation: String, Sendable, Codable {
    case push, modal
}

/// One deep link configuration (an entry of routes.json, read by `RoutesFile`): declares, never
/// navigates.
///
/// A value, whose fields live in one shared immutable box: a route rides on every envelope,
/// command, step and log entry of the navigator, and copying one reference costs less than
/// copying (retaining) its thirteen fields each time. The fields read for every message are
/// inlinable, so a caller in another module reads them through the box without retaining it.
public struct RouteDefinition: Sendable, Equatable {
    @usableFromInline let fields: Fields

    @inlinable public var name: String { fields.name }
    /// e.g. "/event/:slug"; a segment starting with ":" is a parameter.
    public var pattern: String { fields.pattern }
    @inlinable public var requiresAuth: Bool { fields.requiresAuth }
    /// Path parameters and their types, in pattern order.
    public var parameters: [String: ParameterType] { fields.parameters }
    /// Known query fields and their types, in declaration order (others are kept untyped).
    public var query: [QueryField] { fields.query }
    /// The tab that hosts the destination.
    public var tab: String { fields.tab }
    /// The route whose screen is attached beneath the destination for back navigation.
    public var list: String? { fields.list }
    /// The analytics screen name of the destination.
    @inlinable public var screen: String { fields.screen }
    public var presentation: Presentation { fields.presentation }
    /// The channels that may open this route (routes.json `enabledFrom`; every channel when absent).
    /// A request from any other channel is refused by the navigator, on record.
    public var enabledFrom: Set<EntryChannel> { fields.enabledFrom }
    /// Set for a destination outside the app (a map app): the navigator hands it to its opener
    /// instead of selecting a tab. `tab` is then empty and `list` nil.
    public var external: ExternalRoute? { fields.external }
    /// The pattern's segments, e.g. ["event", ":slug"] (split once: every link built reads them).
    public var segments: [String] { fields.segments }
    /// Names of the path parameters in pattern order.
    public var parameterNames: [String] { fields.parameterNames }
    /// The segments as a link is written from them: literals already encoded, parameters by name.
    var pathParts: [PathPart] { fields.pathParts }

    enum PathPart: Sendable {
        case literal(encoded: [UInt8])
        case parameter(name: String, placeholder: String)
    }

    @inlinable public var isExternal: Bool { fields.isExternal }

    public struct QueryField: Sendable, Equatable {
        public let name: String
        public let type: ParameterType
        public init(name: String, type: ParameterType) {
            self.name = name
            self.type = type
        }
    }

    @usableFromInline final class Fields: Sendable {
        @usableFromInline let name: String
        let pattern: String
        @usableFromInline let requiresAuth: Bool
        let parameters: [String: ParameterType]
        let query: [QueryField]
        let tab: String
        let list: String?
        @usableFromInline let screen: String
        let presentation: Presentation
        let enabledFrom: Set<EntryChannel>
        let external: ExternalRoute?
        @usableFromInline let isExternal: Bool
        let segments: [String]
        let parameterNames: [String]
        let pathParts: [PathPart]

        init(name: String, pattern: String, requiresAuth: Bool, parameters: [String: ParameterType], query: [QueryField],
             tab: String, list: String?, screen: String, presentation: Presentation, enabledFrom: Set<EntryChannel>,
             external: ExternalRoute?) {
            self.name = name
            self.pattern = pattern
            self.requiresAuth = requiresAuth
            self.parameters = parameters
            self.query = query
            self.tab = tab
            self.list = list
            self.screen = screen
            self.presentation = presentation
            self.enabledFrom = enabledFrom
            self.external = external
            isExternal = external != nil
            segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            parameterNames = segments.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
            pathParts = segments.map { segment in
                if segment.hasPrefix(":") { return .parameter(name: String(segment.dropFirst()), placeholder: segment) }
                var encoded: [UInt8] = []
                PercentEncoding.appendEncoded(segment, to: &encoded)
                return .literal(encoded: encoded)
            }
        }
    }

    public init(
        name: String, pattern: String, requiresAuth: Bool, parameters: [String: ParameterType] = [:],
        query: [QueryField] = [], tab: String, list: String? = nil, screen: String, presentation: Presentation = .push,
        enabledFrom: Set<EntryChannel> = Set(EntryChannel.builtIn), external: ExternalRoute? = nil
    ) {
        fields = Fields(name: name, pattern: pattern, requiresAuth: requiresAuth, parameters: parameters, query: query,
                        tab: tab, list: list, screen: screen, presentation: presentation, enabledFrom: enabledFrom,
                        external: external)
    }

    /// Field by field, as a value's equality (segments and parameter names follow from the pattern).
    public static func == (lhs: RouteDefinition, rhs: RouteDefinition) -> Bool {
        let left = lhs.fields, right = rhs.fields
        if left === right { return true }
        return left.name == right.name && left.pattern == right.pattern && left.requiresAuth == right.requiresAuth
            && left.parameters == right.parameters && left.query == right.query && left.tab == right.tab
            && left.list == right.list && left.screen == right.screen && left.presentation == right.presentation
            && left.enabledFrom == right.enabledFrom && left.external == right.external
    }

    /// Whether a request arriving through `channel` may open this route.
    public func isEnabled(from channel: EntryChannel) -> Bool {
        fields.enabledFrom.contains(channel)
    }
}

extension RouteDefinition: CustomDebugStringConvertible {
    /// The declaration's fields, not the box they live in.
    public var debugDescription: String {
        "RouteDefinition(name: \(name), pattern: \(pattern), requiresAuth: \(requiresAuth), tab: \(tab), "
            + "list: \(list ?? "nil"), screen: \(screen), presentation: \(presentation.rawValue), external: \(isExternal))"
    }
}
