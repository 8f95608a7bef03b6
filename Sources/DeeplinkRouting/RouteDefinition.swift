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
public struct RouteDefinition: Sendable, Equatable {
    public let name: String
    /// e.g. "/event/:slug"; a segment starting with ":" is a parameter.
    public let pattern: String
    public let requiresAuth: Bool
    /// Path parameters and their types, in pattern order.
    public let parameters: [String: ParameterType]
    /// Known query fields and their types, in declaration order (others are kept untyped).
    public let query: [QueryField]
    /// The tab that hosts the destination.
    public let tab: String
    /// The route whose screen is attached beneath the destination for back navigation.
    public let list: String?
    /// The analytics screen name of the destination.
    public let screen: String
    public let presentation: Presentation
    /// The channels that may open this route (routes.json `enabledFrom`; every channel when absent).
    /// A request from any other channel is refused by the navigator, on record.
    public let enabledFrom: Set<EntryChannel>
    /// Set for a destination outside the app (a map app): the navigator hands it to its opener
    /// instead of selecting a tab. `tab` is then empty and `list` nil.
    public let external: ExternalRoute?

    public var isExternal: Bool { external != nil }

    public struct QueryField: Sendable, Equatable {
        public let name: String
        public let type: ParameterType
        public init(name: String, type: ParameterType) {
            self.name = name
            self.type = type
        }
    }

    public init(
        name: String, pattern: String, requiresAuth: Bool, parameters: [String: ParameterType] = [:],
        query: [QueryField] = [], tab: String, list: String? = nil, screen: String, presentation: Presentation = .push,
        enabledFrom: Set<EntryChannel> = Set(EntryChannel.allCases), external: ExternalRoute? = nil
    ) {
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
    }

    /// Whether a request arriving through `channel` may open this route.
    public func isEnabled(from channel: EntryChannel) -> Bool {
        enabledFrom.contains(channel)
    }

    /// The pattern's segments, e.g. ["event", ":slug"].
    public var segments: [String] {
        pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    /// Names of the path parameters in pattern order.
    public var parameterNames: [String] {
        segments.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
    }
}
