/// Reverse routing: the URL that `DeeplinkHandler` would parse back into the same route,
/// parameters, query and campaign. The "URL auto-generation" tool for operations, so that
/// campaign links are never double encoded and `+`, `&` and Korean survive.
public struct DeeplinkURLBuilder: Sendable {
    public enum Scheme: String, Sendable, CaseIterable {
        /// A Universal Link on webBaseURL.
        case https
        /// The custom scheme: `myapp://event/new-user-promo?...`.
        case custom
    }

    public let routes: RouteTable
    public let webBaseURL: String
    public let customScheme: String
    /// What each campaign field may be; a value that breaks it is refused.
    public let campaignRules: CampaignRules

    public init(webBaseURL: String, customScheme: String, routes: RouteTable, campaignRules: CampaignRules = .unrestricted) {
        self.routes = routes
        self.webBaseURL = URLAssembly.trimmedBase(webBaseURL)
        self.customScheme = customScheme
        self.campaignRules = campaignRules
    }

    public init(links: LinkConfiguration, routes: RouteTable, campaignRules: CampaignRules = .unrestricted) {
        self.init(webBaseURL: links.webBaseURL, customScheme: links.customScheme, routes: routes, campaignRules: campaignRules)
    }

    /// A link and what was noticed about the values it was built from.
    public struct BuiltLink: Sendable, Equatable {
        public let url: String
        public let warnings: [DeeplinkWarning]
    }

    /// Builds the link from exact values: `DeeplinkHandler` parses it back to the same values.
    /// Query values are emitted in the route's declared field order (repeated values in their
    /// order), empty values omitted; then the campaign fields in the shared order. The campaign's
    /// `source` is not part of a URL (it is the channel the link travels by). Campaign values
    /// must follow `campaignRules`.
    public func build(
        route name: String, parameters: [String: String], query: [String: [String]] = [:],
        campaign: CampaignMetadata? = nil, scheme: Scheme = .https
    ) throws(LinkBuildError) -> String {
        try link(route: name, parameters: parameters, query: query, campaign: campaign, scheme: scheme, tidying: false).url
    }

    /// Builds the link from values as people type and paste them (`bridgectl link build`, the
    /// catalog's link builder). Each value is first tidied, with a warning: surrounding whitespace
    /// removed, decomposed Unicode composed (NFC); a control character or a value that already
    /// looks percent-encoded is warned about (refused with `strict`). Then every value is checked:
    /// path and query values against their types, campaign values against `campaignRules`.
    public func link(
        route name: String, parameters: [String: String], query: [String: [String]] = [:],
        campaign: CampaignMetadata? = nil, scheme: Scheme = .https, strict: Bool = false
    ) throws(LinkBuildError) -> BuiltLink {
        try link(route: name, parameters: parameters, query: query, campaign: campaign, scheme: scheme, strict: strict, tidying: true)
    }

    private func link(
        route name: String, parameters: [String: String], query: [String: [String]],
        campaign: CampaignMetadata?, scheme: Scheme, strict: Bool = false, tidying: Bool
    ) throws(LinkBuildError) -> BuiltLink {
        var warnings: [DeeplinkWarning] = []
        func tidy(_ value: String, _ field: String) throws(LinkBuildError) -> String {
            guard tidying else { return value }
            let tidied = try LinkValueTidying.tidy(value, field: field, strict: strict)
            warnings += tidied.warnings
            return tidied.value
        }
        var cleanParameters: [String: String] = [:]
        for name in parameters.keys.sorted() {
            cleanParameters[name] = try tidy(parameters[name]!, "path.\(name)")
        }
        var cleanQuery: [String: [String]] = [:]
        if let route = routes.route(named: name) {
            // Declared order, so the warnings come in the order of the link.
            let order = route.query.map(\.name).filter { query[$0] != nil } + query.keys.sorted().filter { key in !route.query.contains { $0.name == key } }
            for field in order {
                var values: [String] = []
                for value in query[field]! { values.append(try tidy(value, "query.\(field)")) }
                cleanQuery[field] = values
            }
        }
        let route = try checkedRoute(name, parameters: cleanParameters)
        var items: [(name: String, value: String)] = []
        let checked = try checkedQuery(cleanQuery, for: route)
        for (field, values) in checked {
            for value in values { items.append((field, value)) }
        }
        if let external = route.external {
            var values = cleanParameters
            for (field, list) in checked where values[field] == nil { values[field] = list.first }
            if let problem = external.problem(with: values) { throw .invalidDestination(route: route.name, reason: problem) }
        }
        if let campaign {
            for key in campaign.utm.keys.sorted() {
                guard key.hasPrefix("utm_"), key.count > 4 else {
                    throw .badCampaignField(key, reason: "utm keys are \"utm_\" followed by a name, e.g. utm_source")
                }
            }
            for (field, given) in campaign.queryItems where !given.isEmpty {
                let value = try tidy(given, "campaign.\(field)")
                guard !value.isEmpty else { continue }
                if let violation = campaignRules.violation(name: field, value: value) {
                    throw .campaignRule(field: "campaign.\(field)", value: value, violation: violation)
                }
                items.append((field, value))
            }
        }
        let path = URLAssembly.path(for: route, parameters: cleanParameters)
        switch scheme {
        case .https:
            return BuiltLink(url: webBaseURL + path + URLAssembly.query(items), warnings: warnings)
        case .custom:
            // The first path segment becomes the URL's host: myapp://event/new-user-promo.
            return BuiltLink(url: customScheme + "://" + path.dropFirst() + URLAssembly.query(items), warnings: warnings)
        }
    }

    /// The route, once every path parameter is known, present and of its type.
    func checkedRoute(_ name: String, parameters: [String: String]) throws(LinkBuildError) -> RouteDefinition {
        guard let route = routes.route(named: name) else { throw .unknownRoute(name, valid: routes.names) }
        let valid = route.parameterNames
        // Sorted only to name the same unknown parameter every time.
        if parameters.keys.contains(where: { !valid.contains($0) }) {
            for given in parameters.keys.sorted() where !valid.contains(given) {
                throw .unknownParameter(given, route: name, valid: valid)
            }
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
        try checkQuery(query, for: route)
        var result: [(String, [String])] = []
        for field in route.query {
            let values = (query[field.name] ?? []).filter { !$0.isEmpty }
            if !values.isEmpty { result.append((field.name, values)) }
        }
        return result
    }

    /// Throws unless every query field is declared and each non-empty value is of its type.
    func checkQuery(_ query: [String: [String]], for route: RouteDefinition) throws(LinkBuildError) {
        let declared = route.query
        // Sorted only to name the same unknown field every time.
        if query.keys.contains(where: { given in !declared.contains { $0.name == given } }) {
            let names = declared.map(\.name)
            for given in query.keys.sorted() where !names.contains(given) {
                throw .unknownQueryField(given, route: route.name, valid: names)
            }
        }
        for field in declared {
            guard let values = query[field.name] else { continue }
            for value in values where !value.isEmpty && !ParameterRules.isValid(value, as: field.type) {
                throw .badValue(field: "query.\(field.name)", value: value, expected: field.type)
            }
        }
    }
}
