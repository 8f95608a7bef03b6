/// A deep link resolved to one configuration: what every entry channel (Universal Link, custom
/// scheme, push, AlimTalk, a CTA message) turns into before navigation. Only `DeepLinkHandler`
/// makes checked ones; the public initializer is for test doubles further up.
///
/// A value whose fields live in one shared immutable box, like `RouteDefinition`'s: the navigator
/// copies the link into every envelope, command and log entry.
public struct ParsedDeeplink: Sendable, Equatable {
    private let fields: Fields

    public var configuration: RouteDefinition { fields.configuration }
    /// Decoded path parameters by name.
    public var pathParameters: [String: String] { fields.pathParameters }
    /// Decoded query values by name, repeated keys kept in order. Campaign fields are not here
    /// (they are in `campaignMetadata`), nor query keys named like a path parameter.
    public var queryParameters: [String: [String]] { fields.queryParameters }
    public var campaignMetadata: CampaignMetadata { fields.campaignMetadata }
    public var warnings: [DeeplinkWarning] { fields.warnings }
    /// Order of the query keys in `url`: the route's declared fields in their order (for a CTA,
    /// the order of the action's query mapping), then undeclared keys as they first appeared.
    public var queryOrder: [String] { fields.queryOrder }
    /// The link configuration's webBaseURL, e.g. "https://sendy.co.kr".
    public var webBaseURL: String { fields.webBaseURL }
    /// The canonical encoded path, e.g. "/event/new-user-promo".
    public var path: String { fields.path }
    /// Canonical Universal Link of the destination (no campaign fields), per the shared URL
    /// conventions. Both are put together once: replies, events and logs read them many times.
    public var url: String { fields.url }

    private final class Fields: Sendable {
        let configuration: RouteDefinition
        let pathParameters: [String: String]
        let queryParameters: [String: [String]]
        let campaignMetadata: CampaignMetadata
        let warnings: [DeeplinkWarning]
        let queryOrder: [String]
        let webBaseURL: String
        let path: String
        let url: String

        init(configuration: RouteDefinition, pathParameters: [String: String], queryParameters: [String: [String]],
             campaignMetadata: CampaignMetadata, warnings: [DeeplinkWarning], queryOrder: [String], webBaseURL: String) {
            self.configuration = configuration
            self.pathParameters = pathParameters
            self.queryParameters = queryParameters
            self.campaignMetadata = campaignMetadata
            self.warnings = warnings
            self.queryOrder = queryOrder
            self.webBaseURL = webBaseURL
            path = URLAssembly.path(for: configuration, parameters: pathParameters)
            var url = webBaseURL
            url.reserveCapacity(webBaseURL.utf8.count + path.utf8.count + 24 * queryOrder.count)
            url += path
            var items = 0
            for key in queryOrder {
                for value in queryParameters[key] ?? [] where !value.isEmpty {
                    URLAssembly.appendQueryItem(name: key, value: value, first: items == 0, to: &url)
                    items += 1
                }
            }
            self.url = url
        }
    }

    public init(
        configuration: RouteDefinition, pathParameters: [String: String], queryParameters: [String: [String]] = [:],
        campaignMetadata: CampaignMetadata, warnings: [DeeplinkWarning] = [], queryOrder: [String]? = nil,
        webBaseURL: String
    ) {
        fields = Fields(configuration: configuration, pathParameters: pathParameters, queryParameters: queryParameters,
                        campaignMetadata: campaignMetadata, warnings: warnings,
                        queryOrder: queryOrder ?? URLAssembly.defaultQueryOrder(for: configuration, keys: Array(queryParameters.keys).sorted()),
                        webBaseURL: URLAssembly.trimmedBase(webBaseURL))
    }

    /// Field by field, as a value's equality (`path` and `url` follow from the others).
    public static func == (lhs: ParsedDeeplink, rhs: ParsedDeeplink) -> Bool {
        let left = lhs.fields, right = rhs.fields
        if left === right { return true }
        return left.configuration == right.configuration && left.pathParameters == right.pathParameters
            && left.queryParameters == right.queryParameters && left.campaignMetadata == right.campaignMetadata
            && left.warnings == right.warnings && left.queryOrder == right.queryOrder && left.webBaseURL == right.webBaseURL
    }

    /// The first value of a query field.
    public func query(_ name: String) -> String? {
        fields.queryParameters[name]?.first
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
        var path = ""
        path.reserveCapacity(64)
        for segment in route.segments {
            path += "/"
            if segment.hasPrefix(":") {
                path += parameters[String(segment.dropFirst())].map(PercentEncoding.encode) ?? segment
            } else {
                path += PercentEncoding.encode(segment)
            }
        }
        return path.isEmpty ? "/" : path
    }

    /// "?a=1&b=2", or "" for no items.
    static func query(_ items: [(name: String, value: String)]) -> String {
        var query = ""
        for (index, item) in items.enumerated() {
            appendQueryItem(name: item.name, value: item.value, first: index == 0, to: &query)
        }
        return query
    }

    /// "?name=value" for the first item, "&name=value" for the others, both encoded.
    static func appendQueryItem(name: String, value: String, first: Bool, to text: inout String) {
        text += first ? "?" : "&"
        text += PercentEncoding.encode(name)
        text += "="
        text += PercentEncoding.encode(value)
    }

    /// Declared fields in declaration order, then the other keys in the order given.
    static func defaultQueryOrder(for route: RouteDefinition, keys: [String]) -> [String] {
        let declared = route.query.map(\.name)
        return declared.filter { keys.contains($0) } + keys.filter { !declared.contains($0) }
    }
}

extension ParsedDeeplink: CustomDebugStringConvertible {
    /// The fields, not the box they live in (test failures and debuggers print this).
    public var debugDescription: String {
        "ParsedDeeplink(route: \(configuration.name), url: \(url), pathParameters: \(pathParameters), "
            + "queryParameters: \(queryParameters), campaignMetadata: \(campaignMetadata), warnings: \(warnings))"
    }
}
