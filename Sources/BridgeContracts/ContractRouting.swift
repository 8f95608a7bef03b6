import DeeplinkRouting

// The routing layer knows nothing of contracts; these bring a contract set to it.

extension DeepLinkHandler {
    /// A handler for the manifest's link settings over `routes`.
    public init(manifest: BridgeManifest, routes: RouteTable) {
        self.init(routes: routes, links: manifest.links)
    }

    /// A handler for a loaded contract set: its routes.json as a table, its manifest's link settings.
    public init(contracts: ContractSet) throws(RouteTableError) {
        self.init(manifest: contracts.manifest, routes: try RouteTable(routes: contracts.routes))
    }
}

extension DeeplinkURLBuilder {
    public init(manifest: BridgeManifest, routes: RouteTable) {
        self.init(links: manifest.links, routes: routes)
    }
}
