import DeeplinkRouting

// The routing layer knows nothing of contracts; these bring a contract set to it.

extension DeeplinkHandler {
    /// A handler for the manifest's link settings over `routes`, with no campaign rules.
    public init(manifest: BridgeManifest, routes: RouteTable) {
        self.init(routes: routes, links: manifest.links)
    }

    /// A handler for a loaded contract set: its routes.json as a table, its manifest's link
    /// settings, and the campaign rules of its campaign schema.
    public init(contracts: ContractSet) throws(ContractRoutingError) {
        let table: RouteTable
        do {
            table = try RouteTable(routes: contracts.routes)
        } catch {
            throw .routes(error)
        }
        let rules: CampaignRules
        do {
            rules = try contracts.campaignRules()
        } catch {
            throw .campaignRules(error)
        }
        self.init(routes: table, links: contracts.manifest.links, campaignRules: rules, channels: contracts.channels)
    }
}

extension DeeplinkURLBuilder {
    public init(manifest: BridgeManifest, routes: RouteTable) {
        self.init(links: manifest.links, routes: routes)
    }
}

/// Why a contract set cannot back a deep link handler.
public enum ContractRoutingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// routes.json does not form a route table (two patterns match the same URLs, a bad pattern...).
    case routes(RouteTableError)
    /// The campaign schema cannot be expressed as campaign rules.
    case campaignRules(ContractError)

    public var description: String {
        switch self {
        case .routes(let error): return "routes.json: \(error)"
        case .campaignRules(let error): return "\(error)"
        }
    }
}
