import DeeplinkRouting
import JSONCore
import TestSupport

/// Handlers over the repository's routes.json and over small made-up tables. Only the routing
/// layer is used: routes.json through its loader, the link settings read from manifest.json
/// with JSONCore (the same values BridgeContracts hands a bridge app).
enum RoutingFixtures {
    static let routes: [RouteDefinition] = {
        do {
            return try RoutesFile.routes(fromJSON: try RepositoryPaths.text("contracts/routes.json"))
        } catch {
            fatalError("contracts/routes.json does not load: \(error)")
        }
    }()

    /// The example set's declared channels (kakaotalk, recognised by its utm fields).
    static let channels: ChannelRules = {
        do {
            return try RoutesFile.channels(fromJSON: try RepositoryPaths.text("contracts/routes.json"))
        } catch {
            fatalError("contracts/routes.json does not load: \(error)")
        }
    }()

    static let links: LinkConfiguration = {
        do {
            let manifest = JSONFieldReader(try JSONValue(parsing: try RepositoryPaths.text("contracts/manifest.json")))
            return LinkConfiguration(
                universalLinkHosts: try manifest.child("universalLinkHosts").strings(),
                customScheme: try manifest.child("customScheme").string(),
                webBaseURL: try manifest.child("webBaseURL").string(),
                pushURLKey: try manifest.child("pushURLKey").string())
        } catch {
            fatalError("contracts/manifest.json has no link settings: \(error)")
        }
    }()

    static let handler: DeeplinkHandler = {
        do { return try DeeplinkHandler(routes: RouteTable(routes: routes), links: links, channels: channels) } catch {
            fatalError("contracts/routes.json does not form a table: \(error)")
        }
    }()

    static var builder: DeeplinkURLBuilder { handler.urlBuilder }

    /// A handler over the given routes with the repository's link settings.
    static func handler(routes: [RouteDefinition]) throws -> DeeplinkHandler {
        DeeplinkHandler(routes: try RouteTable(routes: routes), links: links, channels: channels)
    }

    static func route(_ name: String, _ pattern: String, _ parameters: [String: ParameterType] = [:], query: [RouteDefinition.QueryField] = []) -> RouteDefinition {
        var types = parameters
        for segment in pattern.split(separator: "/") where segment.hasPrefix(":") && types[String(segment.dropFirst())] == nil {
            types[String(segment.dropFirst())] = .string
        }
        return RouteDefinition(name: name, pattern: pattern, requiresAuth: false, parameters: types, query: query, tab: "home", screen: name)
    }

    /// The error a throwing parse produced, or nil when it parsed.
    static func error(_ url: String, handler: DeeplinkHandler = RoutingFixtures.handler) -> DeeplinkError? {
        do {
            _ = try handler.parse(url)
            return nil
        } catch {
            return error
        }
    }
}

extension CampaignMetadata.Source {
    /// The example set's declared messenger channel.
    static let kakaotalk = CampaignMetadata.Source(rawValue: "kakaotalk")
}

extension EntryChannel {
    static let kakaotalk = EntryChannel(rawValue: "kakaotalk")
}
