/// The door a navigation request came through, for the routes' `enabledFrom` (the coordinator
/// seed's `enabledPages`: which pages push routing, a marketing link or a web CTA may open).
///
/// The channels the code itself produces are built in (`builtIn`); any other is declared by the
/// contract set (routes.json `"channels"`, read into `ChannelRules`), such as a messenger or an
/// SMS campaign recognised by its utm fields.
///
/// Not the same as `CampaignMetadata.Source`, which is the campaign's channel and rides on every
/// analytics event: a CTA on an event page opened from a push has campaign source `push`, but the
/// request to navigate comes through the `bridge`.
public struct EntryChannel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let push = EntryChannel(rawValue: "push")
    /// An https link no declared channel claims (the fallback of a Universal Link).
    public static let externalURL = EntryChannel(rawValue: "externalURL")
    /// The app's custom scheme: a link from inside the app or a legacy one.
    public static let appInternal = EntryChannel(rawValue: "appInternal")
    /// A call-to-action message from a web page (the WebView bridge).
    public static let bridge = EntryChannel(rawValue: "bridge")
    /// A deferred deep link: the link that was opened before the app was installed, handed over
    /// by install attribution seconds after the first launch.
    public static let deferred = EntryChannel(rawValue: "deferred")

    /// The channels the code produces, in the order messages list them.
    public static let builtIn: [EntryChannel] = [.push, .externalURL, .appInternal, .bridge, .deferred]

    /// The channel a link arrived by, when the caller names none: its campaign source.
    public init(_ source: CampaignMetadata.Source) {
        self.init(rawValue: source.rawValue)
    }

    public var description: String { rawValue }

    /// "push, externalURL, ..." for messages: built-in channels in their order, then the others by name.
    public static func names(_ channels: Set<EntryChannel>) -> String {
        let builtIns = builtIn.filter(channels.contains)
        let declared = channels.subtracting(builtIn).sorted { $0.rawValue < $1.rawValue }
        let listed = (builtIns + declared).map(\.rawValue)
        return listed.isEmpty ? "nothing" : listed.joined(separator: ", ")
    }
}
