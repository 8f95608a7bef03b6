/// The deep link configurations of routes.json as a segment trie, so that matching costs a
/// dictionary lookup per path segment however many routes there are.
///
/// Rules: a literal segment beats a parameter whatever the declaration order (each level tries the
/// literal child first, then the parameter child, backtracking when a branch dead-ends); two
/// patterns that are the same up to parameter names are rejected when the table is built.
public struct RouteTable: Sendable {
    /// The routes in declaration order.
    public let routes: [RouteDefinition]
    private let nodes: [Node]
    private let indexByName: [String: Int]
    /// Per route, (segment position, parameter name): computed once, not per match.
    private let parameterSlots: [[(position: Int, name: String)]]

    /// Trie nodes live in one array and point at each other by index: a plain value, Sendable for free.
    private struct Node: Sendable {
        var literals: [String: Int] = [:]
        var parameter: Int?
        var route: Int?
    }

    public init(routes: [RouteDefinition]) throws(RouteTableError) {
        var nodes = [Node()]
        var indexByName: [String: Int] = [:]
        var parameterSlots: [[(position: Int, name: String)]] = []
        for (routeIndex, route) in routes.enumerated() {
            if indexByName[route.name] != nil { throw .duplicateName(route.name) }
            indexByName[route.name] = routeIndex
            let segments = try Self.patternSegments(of: route)
            try Self.checkQueryFields(of: route)
            parameterSlots.append(segments.enumerated().compactMap { position, segment in
                segment.hasPrefix(":") ? (position, String(segment.dropFirst())) : nil
            })
            var current = 0
            for segment in segments {
                if segment.hasPrefix(":") {
                    if let next = nodes[current].parameter {
                        current = next
                    } else {
                        nodes.append(Node())
                        nodes[current].parameter = nodes.count - 1
                        current = nodes.count - 1
                    }
                } else if let next = nodes[current].literals[segment] {
                    current = next
                } else {
                    nodes.append(Node())
                    nodes[current].literals[segment] = nodes.count - 1
                    current = nodes.count - 1
                }
            }
            if let other = nodes[current].route {
                throw .ambiguous(route: route.name, pattern: route.pattern, otherRoute: routes[other].name, otherPattern: routes[other].pattern)
            }
            nodes[current].route = routeIndex
        }
        self.routes = routes
        self.nodes = nodes
        self.indexByName = indexByName
        self.parameterSlots = parameterSlots
    }

    public func route(named name: String) -> RouteDefinition? {
        indexByName[name].map { routes[$0] }
    }

    /// Route names in declaration order (for "valid ones are ..." messages).
    public var names: [String] { routes.map(\.name) }

    /// Matches decoded path segments (no empty segments; a trailing slash is the caller's to drop).
    /// Returns the route and its path parameters by name.
    public func match(path segments: [String]) -> (RouteDefinition, [String: String])? {
        guard let (index, parameters) = matchIndex(path: segments) else { return nil }
        return (routes[index], parameters)
    }

    /// As `match`, with the route's index in `routes` (for the cached per-route facts below).
    func matchIndex(path segments: [String]) -> (Int, [String: String])? {
        guard let routeIndex = find(node: 0, segments: segments, depth: 0) else { return nil }
        var parameters: [String: String] = [:]
        for slot in parameterSlots[routeIndex] {
            parameters[slot.name] = segments[slot.position]
        }
        return (routeIndex, parameters)
    }

    /// The path parameter names of the route at `index`, in pattern order (cached).
    func parameterNames(ofRouteAt index: Int) -> [String] {
        parameterSlots[index].map(\.name)
    }

    private func find(node: Int, segments: [String], depth: Int) -> Int? {
        guard depth < segments.count else { return nodes[node].route }
        let segment = segments[depth]
        if let literal = nodes[node].literals[segment], let found = find(node: literal, segments: segments, depth: depth + 1) {
            return found
        }
        // A parameter never matches an empty segment (`/event//apply`).
        if !segment.isEmpty, let parameter = nodes[node].parameter {
            return find(node: parameter, segments: segments, depth: depth + 1)
        }
        return nil
    }

    /// The pattern's segments, checked: starts with "/", no empty segments (a trailing slash is
    /// allowed and ignored, as in URLs), named and distinct parameters, literals without the
    /// characters that have a meaning in URLs.
    private static func patternSegments(of route: RouteDefinition) throws(RouteTableError) -> [String] {
        let pattern = route.pattern
        func invalid(_ reason: String) -> RouteTableError { .invalidPattern(route: route.name, pattern: pattern, reason: reason) }
        guard pattern.hasPrefix("/") else { throw invalid("must start with \"/\"") }
        var segments = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.last == "" { segments.removeLast() }
        var seen: Set<String> = []
        for segment in segments {
            if segment.isEmpty { throw invalid("empty segment (\"//\")") }
            if segment.hasPrefix(":") {
                let name = String(segment.dropFirst())
                if name.isEmpty { throw invalid("a parameter needs a name after \":\"") }
                if !seen.insert(name).inserted { throw invalid("parameter \"\(name)\" appears twice") }
            } else if segment.contains(where: { "%?#".contains($0) }) {
                throw invalid("literal segment \"\(segment)\" contains %, ? or # (write it unencoded, without query or fragment)")
            }
        }
        return segments
    }

    private static func checkQueryFields(of route: RouteDefinition) throws(RouteTableError) {
        var seen: Set<String> = []
        for field in route.query {
            if !seen.insert(field.name).inserted {
                throw .queryFieldConflict(route: route.name, field: field.name, reason: "is declared twice")
            }
            if route.parameterNames.contains(field.name) {
                throw .queryFieldConflict(route: route.name, field: field.name, reason: "has the name of a path parameter, and query fields never override path parameters")
            }
            if CampaignMetadata.isCampaignKey(field.name) {
                throw .queryFieldConflict(route: route.name, field: field.name, reason: "is a campaign field (campaign_id, group_id, variant, utm_*), which goes to the campaign metadata")
            }
        }
    }
}
