/// A deep link resolved to one configuration: what every entry channel (Universal Link, custom
/// scheme, push, AlimTalk, a CTA message) turns into before navigation. Only `DeepLinkHandler`
/// makes checked ones; the public initializer is for test doubles further up.
public struct ParsedDeeplink: Sendable, Equatable {
    public let configuration: RouteDefinition
    /// Decoded path parameters by name.
    public let pathParameters: [String: String]
    /// Decoded query values by name, repeated keys kept in order. Campaign fields are not here
    /// (they are in `campaignMetadata`), nor query keys named like a path parameter.
    public let queryParameters: [String: [String]]
    public let campaignMetadata: CampaignMetadata
    public let warnings: [DeeplinkWarning]
    /// Order of the query keys in `url`: the route's declared fields in their order (for a CTA,
    /// the order of the action's query mapping), then undeclared keys as they first appeared.
    public let queryOrder: [String]
    /// The link configuration's webBaseURL, e.g. "https://sendy.co.kr".
    public let webBaseURL: String

    public init(
        configuration: RouteDefinition, pathParameters: [String: String], queryParameters: [String: [String]] = [:],
        campaignMetadata: CampaignMetadata, warnings: [DeeplinkWarning] = [], queryOrder: [String]? = nil,
        webBaseURL: String
    ) {
        self.configuration = configuration
        self.pathParameters = pathParameters
        self.queryParameters = queryParameters
        self.campaignMetadata = campaignMetadata
        self.warnings = warnings
        self.queryOrder = queryOrder ?? URLAssembly.defaultQueryOrder(for: configuration, keys: Array(queryParameters.keys).sorted())
        self.webBaseURL = URLAssembly.trimmedBase(webBaseURL)
    }

    /// The canonical encoded path, e.g. "/event/new-user-promo".
    public var path: String {
        URLAssembly.path(for: configuration, parameters: pathParameters)
    }

    /// Canonical Universal Link of the destination (no campaign fields), per the shared URL conventions.
    public var url: String {
        var items: [(name: String, value: String)] = []
        for key in queryOrder {
            for value in queryParameters[key] ?? [] where !value.isEmpty { items.append((key, value)) }
        }
        return webBaseURL + path + URLAssembly.query(items)
    }

    /// The first value of a query field.
    public func query(_ name: String) -> String? {
        queryParameters[name]?.first
    }
}

/// How URLs are put together from raw values; shared by ParsedDeeplink.url and the builder.
enum URLAssembly {
    static func trimmedBase(_ base: String) -> String {
        var base = base
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }

    /// The pattern with each literal and each parameter value encoded once. A missing parameter
    /// stays as its ":name" placeholder (only reachable through the unchecked public initializer).
    static func path(for route: RouteDefinition, parameters: [String: String]) -> String {
        let segments = route.segments.map { segment -> String in
            if segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                return parameters[name].map(PercentEncoding.encode) ?? segment
            }
            return PercentEncoding.encode(segment)
        }
        return "/" + segments.joined(separator: "/")
    }

    /// "?a=1&b=2", or "" for no items.
    static func query(_ items: [(name: String, value: String)]) -> String {
        guard !items.isEmpty else { return "" }
        return "?" + items.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }.joined(separator: "&")
    }

    /// Declared fields in declaration order, then the other keys in the order given.
    static func defaultQueryOrder(for route: RouteDefinition, keys: [String]) -> [String] {
        let declared = route.query.map(\.name)
        return declared.filter { keys.contains($0) } + keys.filter { !declared.contains($0) }
    }
}
