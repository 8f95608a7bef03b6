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
/// navigates. A value whose fields live in one `ValueBox` (its doc comment says why and states
/// the inlining policy).
public struct RouteDefinition: Sendable, Equatable {
    @usableFromInline let box: ValueBox<Fields>

    @inlinable public var name: String { box.fields.name }
    /// e.g. "/event/:slug"; a segment starting with ":" is a parameter.
    @inlinable public var pattern: String { box.fields.pattern }
    @inlinable public var requiresAuth: Bool { box.fields.requiresAuth }
    /// Path parameters and their types, in pattern order.
    @inlinable public var parameters: [String: ParameterType] { box.fields.parameters }
    /// Known query fields and their types, in declaration order (others are kept untyped).
    @inlinable public var query: [QueryField] { box.fields.query }
    /// The tab that hosts the destination.
    @inlinable public var tab: String { box.fields.tab }
    /// The route whose screen is attached beneath the destination for back navigation.
    @inlinable public var list: String? { box.fields.list }
    /// The analytics screen name of the destination.
    @inlinable public var screen: String { box.fields.screen }
    @inlinable public var presentation: Presentation { box.fields.presentation }
    /// The channels that may open this route (routes.json `enabledFrom`; every channel when absent).
    /// A request from any other channel is refused by the navigator, on record.
    @inlinable public var enabledFrom: Set<EntryChannel> { box.fields.enabledFrom }
    /// Set for a destination outside the app (a map app): the navigator hands it to its opener
    /// instead of selecting a tab. `tab` is then empty and `list` nil.
    @inlinable public var external: ExternalRoute? { box.fields.external }
    @inlinable public var isExternal: Bool { box.fields.isExternal }
    /// The pattern's segments, e.g. ["event", ":slug"] (split once: every link built reads them).
    @inlinable public var segments: [String] { box.fields.segments }
    /// Names of the path parameters in pattern order.
    @inlinable public var parameterNames: [String] { box.fields.parameterNames }
    /// The segments as a link is written from them: literals already encoded, parameters by name.
    var pathParts: [PathPart] { box.fields.pathParts }

    enum PathPart: Sendable, Equatable {
        case literal(encoded: [UInt8])
        case parameter(name: String, placeholder: String)
    }

    public struct QueryField: Sendable, Equatable {
        public let name: String
        public let type: ParameterType
        public init(name: String, type: ParameterType) {
            self.name = name
            self.type = type
        }
    }

    /// The declared fields, then what follows from the pattern (worked out once).
    @usableFromInline struct Fields: Sendable, Equatable {
        @usableFromInline let name: String
        @usableFromInline let pattern: String
        @usableFromInline let requiresAuth: Bool
        @usableFromInline let parameters: [String: ParameterType]
        @usableFromInline let query: [QueryField]
        @usableFromInline let tab: String
        @usableFromInline let list: String?
        @usableFromInline let screen: String
        @usableFromInline let presentation: Presentation
        @usableFromInline let enabledFrom: Set<EntryChannel>
        @usableFromInline let external: ExternalRoute?
        @usableFromInline let isExternal: Bool
        @usableFromInline let segments: [String]
        @usableFromInline let parameterNames: [String]
        let pathParts: [PathPart]
    }

    public init(
        name: String, pattern: String, requiresAuth: Bool, parameters: [String: ParameterType] = [:],
        query: [QueryField] = [], tab: String, list: String? = nil, screen: String, presentation: Presentation = .push,
        enabledFrom: Set<EntryChannel> = Set(EntryChannel.builtIn), external: ExternalRoute? = nil
    ) {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let pathParts = segments.map { segment -> PathPart in
            if segment.hasPrefix(":") { return .parameter(name: String(segment.dropFirst()), placeholder: segment) }
            var encoded: [UInt8] = []
            PercentEncoding.appendEncoded(segment, to: &encoded)
            return .literal(encoded: encoded)
        }
        box = ValueBox(Fields(
            name: name, pattern: pattern, requiresAuth: requiresAuth, parameters: parameters, query: query, tab: tab,
            list: list, screen: screen, presentation: presentation, enabledFrom: enabledFrom, external: external,
            isExternal: external != nil, segments: segments, parameterNames: segments.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) },
            pathParts: pathParts))
    }

    /// Whether a request arriving through `channel` may open this route.
    public func isEnabled(from channel: EntryChannel) -> Bool {
        box.fields.enabledFrom.contains(channel)
    }
}
