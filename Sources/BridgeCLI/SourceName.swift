import DeeplinkRouting

extension ChannelRules {
    /// The campaign source a `--source` option or a `"source"` field names: built in (push,
    /// externalURL, appInternal) or declared in the set's routes.json.
    func sourceOption(_ name: String, option: String = "--source") throws(UsageError) -> CampaignMetadata.Source {
        guard let source = knownSources.first(where: { $0.rawValue == name }) else {
            throw UsageError("\(option) must be one of \(knownSources.map(\.rawValue).joined(separator: ", ")), not \"\(name)\"")
        }
        return source
    }
}
