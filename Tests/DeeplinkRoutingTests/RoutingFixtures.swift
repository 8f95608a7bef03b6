import BridgeContracts
import DeeplinkRouting

/// Handlers over the repository's contracts and over small made-up tables.
enum RoutingFixtures {
    static let contracts: ContractSet = {
        do { return try ContractSet.bundled() } catch { fatalError("bundled contracts do not load: \(error)") }
    }()

    static let handler: DeepLinkHandler = {
        do { return try DeepLinkHandler(contracts: contracts) } catch { fatalError("bundled routes do not form a table: \(error)") }
    }()

    static var builder: DeeplinkURLBuilder { handler.urlBuilder }

    /// A handler over the given routes with the bundled manifest's link settings.
    static func handler(routes: [RouteDefinition]) throws -> DeepLinkHandler {
        DeepLinkHandler(manifest: contracts.manifest, routes: try RouteTable(routes: routes))
    }

    static func route(_ name: String, _ pattern: String, _ parameters: [String: ParameterType] = [:], query: [RouteDefinition.QueryField] = []) -> RouteDefinition {
        var types = parameters
        for segment in pattern.split(separator: "/") where segment.hasPrefix(":") && types[String(segment.dropFirst())] == nil {
            types[String(segment.dropFirst())] = .string
        }
        return RouteDefinition(name: name, pattern: pattern, requiresAuth: false, parameters: types, query: query, tab: "home", screen: name)
    }

    /// The error a throwing parse produced, or nil when it parsed.
    static func error(_ url: String, handler: DeepLinkHandler = RoutingFixtures.handler) -> DeeplinkError? {
        do {
            _ = try handler.parse(url)
            return nil
        } catch {
            return error
        }
    }
}
