import JSONCore

/// The CRM identifiers a deep link carries (campaign_id, group_id, variant, utm_*) plus the
/// channel it came in through. The same value rides on every navigation and analytics event.
public struct CampaignMetadata: Sendable, Equatable, Hashable {
    /// The entry channel. Push and external URLs must not be counted as one channel in the funnel.
    public enum Source: String, Sendable, CaseIterable {
        case push, kakaotalk, externalURL, appInternal
    }

    public var campaignId: String?
    public var groupId: String?
    public var variant: String?
    /// utm_* fields by full name ("utm_source" ...), any utm_ key kept.
    public var utm: [String: String]
    public var source: Source

    public init(
        campaignId: String? = nil, groupId: String? = nil, variant: String? = nil,
        utm: [String: String] = [:], source: Source
    ) {
        self.campaignId = campaignId
        self.groupId = groupId
        self.variant = variant
        self.utm = utm
        self.source = source
    }

    /// The utm_* names in the order URLs carry them; other utm_ keys follow in name order.
    public static let standardUTMKeys = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"]

    /// Query names that belong to the campaign rather than to the destination.
    public static func isCampaignKey(_ name: String) -> Bool {
        name == "campaign_id" || name == "group_id" || name == "variant" || name.hasPrefix("utm_")
    }

    /// True when no identifier is present (the source alone says nothing about a campaign).
    public var isEmpty: Bool {
        campaignId == nil && groupId == nil && variant == nil && utm.isEmpty
    }

    /// The campaign fields as (query name, value) in the shared URL order: campaign_id, group_id,
    /// variant, utm_source, utm_medium, utm_campaign, utm_term, utm_content, then other utm_* by name.
    public var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let campaignId { items.append(("campaign_id", campaignId)) }
        if let groupId { items.append(("group_id", groupId)) }
        if let variant { items.append(("variant", variant)) }
        for key in Self.standardUTMKeys {
            if let value = utm[key] { items.append((key, value)) }
        }
        for key in utm.keys.sorted() where !Self.standardUTMKeys.contains(key) {
            items.append((key, utm[key]!))
        }
        return items
    }

    /// The fields as a JSON object with snake_case keys (campaign_id, group_id, variant, utm_*, source), absent ones omitted.
    public var json: JSONValue {
        var object = JSONObject()
        for (name, value) in queryItems { object[name] = .string(value) }
        object["source"] = .string(source.rawValue)
        return .object(object)
    }

    /// The channel when the caller did not say: AlimTalk links are recognised by their utm fields,
    /// the custom scheme is in-app or legacy, anything else came from outside.
    static func inferredSource(utm: [String: String], customScheme: Bool) -> Source {
        if utm["utm_source"] == "kakaotalk" || utm["utm_medium"] == "alimtalk" { return .kakaotalk }
        return customScheme ? .appInternal : .externalURL
    }
}
