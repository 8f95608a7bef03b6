extension ContractSet {
    /// The app builds of releases.json; empty when the contract set has no such file.
    public func releaseCatalog() throws(ContractError) -> ReleaseCatalog {
        guard let releasesText else { return .empty }
        return try ReleaseCatalog.parse(releasesText)
    }
}
