/// The checks `bridgectl route` and `bridgectl link build` run before a link is sent, beyond
/// parsing it: whether the app opens the route from the link's channel, whether the link and its
/// push payload are short enough to arrive whole, and (route) whether a campaign field is given an
/// empty value. Each finding is a warning that loses part of the link (`losesPart`), so `--strict`
/// turns it into a failure.
public enum PreSendChecks {
    /// The longest URL, in characters once percent-encoded, that is sure to arrive whole. Below
    /// Internet Explorer's 2,083 characters (Microsoft's documented maximum) and the sitemaps
    /// protocol's "less than 2,048 characters", the two limits links are most often cut at.
    public static let urlCharacterLimit = 2_000
    /// The largest push payload, in bytes of compact UTF-8 JSON: APNs takes at most 4,096 bytes
    /// for a remote notification, and FCM at most 4,096 bytes for a message's payload.
    public static let pushPayloadByteLimit = 4_096

    /// The channel a link built or read without a stated source arrives by: the first declared
    /// channel its utm fields match, else appInternal for the custom scheme and externalURL for https.
    public static func inferredChannel(utm: [String: String], customScheme: Bool, channels: ChannelRules) -> EntryChannel {
        EntryChannel(CampaignMetadata.inferredSource(utm: utm, customScheme: customScheme, channels: channels))
    }

    /// A warning when the app refuses `route` from `channel` (routes.json `enabledFrom`).
    public static func channelWarning(route: RouteDefinition, channel: EntryChannel) -> DeeplinkWarning? {
        guard !route.isEnabled(from: channel) else { return nil }
        return DeeplinkWarning(
            field: "channel",
            message: "refused from channel \(channel.rawValue): route \(route.name) is enabled from \(EntryChannel.names(route.enabledFrom))",
            losesPart: true)
    }

    /// The length of `url` as it travels: ASCII as it is, every other character as the %XX
    /// escapes of its UTF-8 bytes (a raw 카 is 9 characters once encoded).
    public static func encodedLength(_ url: String) -> Int {
        url.utf8.reduce(0) { $0 + ($1 < 0x80 ? 1 : 3) }
    }

    /// A warning when `url` is longer than `urlCharacterLimit` once encoded.
    public static func urlLengthWarning(_ url: String) -> DeeplinkWarning? {
        let length = encodedLength(url)
        guard length > urlCharacterLimit else { return nil }
        return DeeplinkWarning(
            field: "url",
            message: "\(length) characters once encoded; messengers and browsers may cut a link over \(urlCharacterLimit) characters",
            losesPart: true)
    }

    /// A warning when a push payload of `bytes` bytes is over the APNs and FCM limit.
    public static func pushPayloadWarning(bytes: Int) -> DeeplinkWarning? {
        guard bytes > pushPayloadByteLimit else { return nil }
        return DeeplinkWarning(
            field: "push",
            message: "the payload is \(bytes) bytes as compact JSON; APNs and FCM refuse a payload over \(pushPayloadByteLimit) bytes",
            losesPart: true)
    }

    /// Warnings for the campaign fields a link or push payload gives an empty value
    /// (`DeeplinkHandler.emptyCampaignFields`) and no other value, so the visit carries none:
    /// campaign_id always (a visit without one is missing from its campaign's funnel), another
    /// field when its campaign rule needs a value (the rules refuse an empty one).
    public static func emptyCampaignWarnings(_ fields: [(field: String, name: String)], campaign: CampaignMetadata,
                                             rules: CampaignRules) -> [DeeplinkWarning] {
        let given = Set(campaign.queryItems.map(\.name))
        return fields.compactMap { field, name in
            guard !given.contains(name), name == "campaign_id" || rules.rule(for: name)?.violation("") != nil else { return nil }
            return DeeplinkWarning(field: field, message: "empty, so the visit carries no \(name)", losesPart: true)
        }
    }
}
