/// The door a navigation request came through, for the routes' `enabledFrom` (the coordinator
/// seed's `enabledPages`: which pages push routing, a marketing link or a web CTA may open).
///
/// Not the same as `CampaignMetadata.Source`, which is the campaign's channel and rides on every
/// analytics event: a CTA on an event page opened from a push has campaign source `push`, but the
/// request to navigate comes through the `bridge`.
public enum EntryChannel: String, Sendable, CaseIterable, Hashable {
    case push, kakaotalk, externalURL, appInternal
    /// A call-to-action message from a web page (the WebView bridge).
    case bridge
    /// A deferred deep link: the link that was opened before the app was installed, handed over
    /// by install attribution seconds after the first launch.
    case deferred

    /// The channel a link arrived by, when the caller names none: its campaign source.
    public init(_ source: CampaignMetadata.Source) {
        switch source {
        case .push: self = .push
        case .kakaotalk: self = .kakaotalk
        case .externalURL: self = .externalURL
        case .appInternal: self = .appInternal
        }
    }

    /// "push, kakaotalk, ..." in declaration order, for messages.
    public static func names(_ channels: Set<EntryChannel>) -> String {
        let listed = allCases.filter(channels.contains).map(\.rawValue)
        return listed.isEmpty ? "nothing" : listed.joined(separator: ", ")
    }
}
