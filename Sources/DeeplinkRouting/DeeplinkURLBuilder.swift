/// Reverse routing: the URL that `DeepLinkHandler` would parse back into the same route,
/// parameters, query and campaign. The "URL auto-generation" tool for operations, so that
/// campaign links are never double encoded and `+`, `&` and Korean survive.
public struct DeeplinkURLBuilder: Sendable {
    public enum Scheme: String, Sendable, CaseIterable {
        /// A Universal Link on webBaseURL.
        case https
        /// The custom scheme: `sendy://event/new-user-promo?...`.
        case custom
    }

    public let routes: RouteTable
    public let webBaseURL: String
    public let customScheme: String

    public init(webBaseURL: String, customScheme: String, routes: RouteTable) {
        self.routes = routes
        self.webBaseURL = URLAssembly.trimmedBase(webBaseURL)
        self.customScheme = customScheme
    }

    public init(links: LinkConfiguration, routes: RouteTable) {
        self.init(webBaseURL: links.webBaseURL, customScheme: links.customScheme, routes: routes)
    }

    /// Builds the link. Query values are emitted in the route's declared field order (repeated
    /// values in their order), empty values omitted; then the campaign fields in the shared order.
    /// The campaign's `source` is not part of a URL (it is the channel the link travels by).
    public func build(
        route name: String, parameters: [String: String], query: [String: [String]] = [:],
        campaign: CampaignMetadata? = nil, scheme: Scheme = .https
    ) throws(LinkBuildError) -> String {
        let route = try checkedRoute(name, parameters: parameters)
        var items: [(name: String, value: String)] = []
        let checked = try checkedQuery(query, for: route)
        for (field, values) in checked {
            for value in values { items.append((field, value)) }
        }
        if let external = route.external {
            var values = parameters
            for (field, list) in checked where values[field] == nil { values[field] = list.first }
            if let problem = external.problem(with: values) { throw .invalidDestination(route: route.name, reason: problem) }
        }
        if let campaign {
            for key in campaign.utm.keys.sorted() {
                guard key.hasPrefix("utm_"), key.count > 4 else {
                    throw .badCampaignField(key, reason: "utm keys are \"utm_\" followed by a name, e.g. utm_source")
                }
            }
            items += campaign.queryItems.filter { !$0.value.isEmpty }
        }
        let path = URLAssembly.path(for: route, parameters: parameters)
        switch scheme {
        case .https:
            return webBaseURL + path + URLAssembly.query(items)
        case .custom:
            // The first path segment becomes the URL's host: sendy://event/new-user-promo.
            return customScheme + "://" + path.dropFirst() + URLAssembly.query(items)
        }
    }

    /// The route, once every path parameter is known, present and of its type.
    func checkedRoute(_ name: String, parameters: [String: String]) throws(LinkBuildError) -> RouteDefinition {
        guard let route = routes.route(named: name) else { throw .unknownRoute(name, valid: routes.names) }
        let valid = route.parameterNames
        for given in parameters.keys.sorted() where !valid.contains(given) {
            throw .unknownParameter(given, route: name, valid: valid)
        }
        for required in valid {
            guard let value = parameters[required] else { throw .missingParameter(required, route: name, valid: valid) }
            let type = route.parameters[required] ?? .string
            guard ParameterRules.isValid(value, as: type) else {
                throw .badValue(field: "path.\(required)", value: value, expected: type)
            }
        }
        return route
    }

    /// The query in declared field order, empty values dropped, each value of its type.
    func checkedQuery(_ query: [String: [String]], for route: RouteDefinition) throws(LinkBuildError) -> [(String, [String])] {
        let declared = route.query.map(\.name)
        for given in query.keys.sorted() where !declared.contains(given) {
            throw .unknownQueryField(given, route: route.name, valid: declared)
        }
        var result: [(String, [String])] = []
        for field in route.query {
            let values = (query[field.name] ?? []).filter { !$0.isEmpty }
            guard !values.isEmpty else { continue }
            for value in values where !ParameterRules.isValid(value, as: field.type) {
                throw .badValue(field: "query.\(field.name)", value: value, expected: field.type)
            }
            result.append((field.name, values))
        }
        return result
    }
}
