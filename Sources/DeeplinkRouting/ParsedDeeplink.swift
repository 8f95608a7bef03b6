/// A deep link resolved to one configuration: what every entry channel (Universal Link, custom
/// scheme, push, a messenger link, a CTA message) turns into before navigation. Only `DeeplinkHandler`
/// makes checked ones; the public initializer is for test doubles further up.
///
/// A value whose fields live in one `ValueBox` (its doc comment says why and states the inlining
/// policy).
public struct ParsedDeeplink: Sendable, Equatable {
    @usableFromInline let box: ValueBox<Fields>

    @inlinable public var configuration: RouteDefinition { box.fields.configuration }
    /// Decoded path parameters by name.
    @inlinable public var pathParameters: [String: String] { box.fields.pathParameters }
    /// Decoded query values by name, repeated keys kept in order. Campaign fields are not here
    /// (they are in `campaignMetadata`), nor query keys named like a path parameter.
    @inlinable public var queryParameters: [String: [String]] { box.fields.queryParameters }
    @inlinable public var campaignMetadata: CampaignMetadata { box.fields.campaignMetadata }
    @inlinable public var warnings: [DeeplinkWarning] { box.fields.warnings }
    /// Order of the query keys in `url`: the route's declared fields in their order (for a CTA,
    /// the order of the action's query mapping), then undeclared keys as they first appeared.
    @inlinable public var queryOrder: [String] { box.fields.queryOrder }
    /// The link configuration's webBaseURL, e.g. "https://www.example.com".
    @inlinable public var webBaseURL: String { box.fields.webBaseURL }
    /// The canonical encoded path, e.g. "/event/new-user-promo".
    public var path: String { box.fields.path }
    /// Canonical Universal Link of the destination (no campaign fields), per the shared URL
    /// conventions. Both are put together once: replies, events and logs read them many times.
    @inlinable public var url: String { box.fields.url }

    /// The fields given, then the URL worked out from them once.
    @usableFromInline struct Fields: Sendable, Equatable {
        @usableFromInline let configuration: RouteDefinition
        @usableFromInline let pathParameters: [String: String]
        @usableFromInline let queryParameters: [String: [String]]
        @usableFromInline let campaignMetadata: CampaignMetadata
        @usableFromInline let warnings: [DeeplinkWarning]
        @usableFromInline let queryOrder: [String]
        @usableFromInline let webBaseURL: String
        @usableFromInline let url: String
        /// Where the path lies in `url`'s UTF-8 (it is read rarely, so it is not kept apart).
        let pathBytes: Range<Int>

        init(configuration: RouteDefinition, pathParameters: [String: String], queryParameters: [String: [String]],
             campaignMetadata: CampaignMetadata, warnings: [DeeplinkWarning], queryOrder: [String], webBaseURL: String) {
            self.configuration = configuration
            self.pathParameters = pathParameters
            self.queryParameters = queryParameters
            self.campaignMetadata = campaignMetadata
            self.warnings = warnings
            self.queryOrder = queryOrder
            self.webBaseURL = webBaseURL
            // Written as bytes once; the path and the URL are read out of them.
            var url: [UInt8] = []
            url.reserveCapacity(webBaseURL.utf8.count + 64 + 32 * queryOrder.count)
            url.append(contentsOf: webBaseURL.utf8)
            let pathStart = url.count
            URLAssembly.appendPath(for: configuration, parameters: pathParameters, to: &url)
            pathBytes = pathStart..<url.count
            var items = 0
            for key in queryOrder {
                for value in queryParameters[key] ?? [] where !value.isEmpty {
                    URLAssembly.appendQueryItem(name: key, value: value, first: items == 0, to: &url)
                    items += 1
                }
            }
            self.url = String(decoding: url, as: UTF8.self)
        }

        /// The bytes `pathBytes` of `url`.
        var path: String {
            let utf8 = url.utf8
            let start = utf8.index(utf8.startIndex, offsetBy: pathBytes.lowerBound)
            let end = utf8.index(utf8.startIndex, offsetBy: pathBytes.upperBound)
            return String(Substring(utf8[start..<end]))
        }
    }

    public init(
        configuration: RouteDefinition, pathParameters: [String: String], queryParameters: [String: [String]] = [:],
        campaignMetadata: CampaignMetadata, warnings: [DeeplinkWarning] = [], queryOrder: [String]? = nil,
        webBaseURL: String
    ) {
        box = ValueBox(Fields(
            configuration: configuration, pathParameters: pathParameters, queryParameters: queryParameters,
            campaignMetadata: campaignMetadata, warnings: warnings,
            queryOrder: queryOrder ?? URLAssembly.defaultQueryOrder(for: configuration, keys: Array(queryParameters.keys).sorted()),
            webBaseURL: URLAssembly.trimmedBase(webBaseURL)))
    }

    /// The first value of a query field.
    public func query(_ name: String) -> String? {
        box.fields.queryParameters[name]?.first
    }
}

/// How URLs are put together from raw values; shared by ParsedDeeplink.url and the builder.
enum URLAssembly {
    static func trimmedBase(_ base: String) -> String {
        var base = base
        while base.utf8.last == UInt8(ascii: "/") { base.removeLast() }
        return base
    }

    /// The pattern with each literal and each parameter value encoded once. A missing parameter
    /// stays as its ":name" placeholder (only reachable through the unchecked public initializer).
    static func path(for route: RouteDefinition, parameters: [String: String]) -> String {
        var path: [UInt8] = []
        path.reserveCapacity(64)
        appendPath(for: route, parameters: parameters, to: &path)
        return String(decoding: path, as: UTF8.self)
    }

    static func appendPath(for route: RouteDefinition, parameters: [String: String], to url: inout [UInt8]) {
        let parts = route.pathParts
        guard !parts.isEmpty else { return url.append(UInt8(ascii: "/")) }
        for part in parts {
            url.append(UInt8(ascii: "/"))
            switch part {
            case .literal(let encoded):
                url.append(contentsOf: encoded)
            case .parameter(let name, let placeholder):
                if let value = parameters[name] {
                    PercentEncoding.appendEncoded(value, to: &url)
                } else {
                    url.append(contentsOf: placeholder.utf8)
                }
            }
        }
    }

    /// "?a=1&b=2", or "" for no items.
    static func query(_ items: [(name: String, value: String)]) -> String {
        var query: [UInt8] = []
        for (index, item) in items.enumerated() {
            appendQueryItem(name: item.name, value: item.value, first: index == 0, to: &query)
        }
        return String(decoding: query, as: UTF8.self)
    }

    /// "?name=value" for the first item, "&name=value" for the others, both encoded.
    static func appendQueryItem(name: String, value: String, first: Bool, to url: inout [UInt8]) {
        url.append(first ? UInt8(ascii: "?") : UInt8(ascii: "&"))
        PercentEncoding.appendEncoded(name, to: &url)
        url.append(UInt8(ascii: "="))
        PercentEncoding.appendEncoded(value, to: &url)
    }

    /// Declared fields in declaration order, then the other keys in the order given.
    static func defaultQueryOrder(for route: RouteDefinition, keys: [String]) -> [String] {
        let declared = route.query.map(\.name)
        return declared.filter { keys.contains($0) } + keys.filter { !declared.contains($0) }
    }
}
