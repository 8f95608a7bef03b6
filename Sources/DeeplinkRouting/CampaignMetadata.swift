import JSONCore

/// The CRM identifiers a deep link carries (campaign_id, group_id, variant, utm_*) plus the
/// channel it came in through. The same value rides on every navigation and analytics event.
public struct CampaignMetadata: Sendable, Equatable, Hashable {
    /// The entry channel. Push and external URLs must not be counted as one channel in the funnel.
    /// Built in: `push`, `externalURL`, `appInternal`; any other is declared in routes.json
    /// (`ChannelRules`) and recognised by its utm fields.
    public struct Source: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public static let push = Source(rawValue: "push")
        public static let externalURL = Source(rawValue: "externalURL")
        public static let appInternal = Source(rawValue: "appInternal")

        /// The sources the code produces, in the order messages list them.
        public static let builtIn: [Source] = [.push, .externalURL, .appInternal]

        public var description: String { rawValue }
    }

    public var campaignId: String? {
        @inlinable get { storage.campaignId }
        set { storage = storage.replacing(campaignId: .some(newValue)) }
    }
    public var groupId: String? {
        @inlinable get { storage.groupId }
        set { storage = storage.replacing(groupId: .some(newValue)) }
    }
    public var variant: String? {
        @inlinable get { storage.variant }
        set { storage = storage.replacing(variant: .some(newValue)) }
    }
    /// utm_* fields by full name ("utm_source" ...), any utm_ key kept.
    public var utm: [String: String] {
        @inlinable get { storage.utm }
        set { storage = storage.replacing(utm: newValue) }
    }
    public var source: Source

    /// The identifiers in one shared, immutable box: the metadata rides on every link, envelope,
    /// reply and analytics event of a message, and a copy of the box is one reference count (an
    /// atomic operation) where copying the fields would be one for each string and table. Its
    /// fields are constants, so they are read without being retained; a change makes a new box
    /// (a link or a message sets each campaign field at most once).
    @usableFromInline var storage: Storage

    @usableFromInline final class Storage: Sendable {
        @usableFromInline let campaignId: String?
        @usableFromInline let groupId: String?
        @usableFromInline let variant: String?
        @usableFromInline let utm: [String: String]
        /// `utm` in the order URLs carry it: every link, event and fingerprint reads the campaign
        /// fields in that order, several times per message.
        let utmOrder: UTMOrder

        init(campaignId: String?, groupId: String?, variant: String?, utm: [String: String], utmOrder: UTMOrder) {
            self.campaignId = campaignId
            self.groupId = groupId
            self.variant = variant
            self.utm = utm
            self.utmOrder = utmOrder
        }

        /// A box with the fields given (`.some(nil)` clears one) and the others as they are.
        func replacing(campaignId: String?? = nil, groupId: String?? = nil, variant: String?? = nil) -> Storage {
            Storage(campaignId: campaignId ?? self.campaignId, groupId: groupId ?? self.groupId,
                    variant: variant ?? self.variant, utm: utm, utmOrder: utmOrder)
        }

        func replacing(utm: [String: String]) -> Storage {
            Storage(campaignId: campaignId, groupId: groupId, variant: variant, utm: utm, utmOrder: UTMOrder(utm))
        }
    }

    struct UTMOrder: Sendable {
        let fields: [(name: String, value: String)]
        /// Some key does not start with `utm_` (only a hand-made value has one).
        let hasUnprefixedKey: Bool

        /// Reads the table once, without hashing: a message's metadata is built several times per
        /// message, and five lookups of the standard names cost more than ordering a handful of
        /// fields by their place in `standardUTMKeys` (other utm_ keys after them, by name).
        init(_ utm: [String: String]) {
            guard !utm.isEmpty else {
                fields = []
                hasUnprefixedKey = false
                return
            }
            var fields: [(name: String, value: String)] = []
            fields.reserveCapacity(utm.count)
            var hasUnprefixedKey = false
            for (name, value) in utm {
                if !hasUnprefixedKey && !CampaignMetadata.isUTMKey(name) { hasUnprefixedKey = true }
                // Insertion by place: the tables are a few entries long.
                let place = Self.place(of: name)
                var index = fields.count
                while index > 0 && Self.comesBefore(name, place, fields[index - 1].name) { index -= 1 }
                fields.insert((name, value), at: index)
            }
            self.fields = fields
            self.hasUnprefixedKey = hasUnprefixedKey
        }

        /// The name's index in `standardUTMKeys`, or its count for any other name.
        private static func place(of name: String) -> Int {
            CampaignMetadata.standardUTMKeys.firstIndex(of: name) ?? CampaignMetadata.standardUTMKeys.count
        }

        private static func comesBefore(_ name: String, _ place: Int, _ other: String) -> Bool {
            let otherPlace = Self.place(of: other)
            return place != otherPlace ? place < otherPlace : name < other
        }

        /// The value of `name`, read from the ordered fields (no hashing).
        func value(of name: String) -> String? {
            for field in fields where field.name == name { return field.value }
            return nil
        }
    }

    public init(
        campaignId: String? = nil, groupId: String? = nil, variant: String? = nil,
        utm: [String: String] = [:], source: Source
    ) {
        storage = Storage(campaignId: campaignId, groupId: groupId, variant: variant, utm: utm, utmOrder: UTMOrder(utm))
        self.source = source
    }

    public static func == (lhs: CampaignMetadata, rhs: CampaignMetadata) -> Bool {
        guard lhs.source == rhs.source else { return false }
        let left = lhs.storage, right = rhs.storage
        return left === right || (left.campaignId == right.campaignId && left.groupId == right.groupId
            && left.variant == right.variant && left.utm == right.utm)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(campaignId)
        hasher.combine(groupId)
        hasher.combine(variant)
        hasher.combine(utm)
        hasher.combine(source)
    }

    /// The utm_* names in the order URLs carry them; other utm_ keys follow in name order.
    public static let standardUTMKeys = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"]

    /// Query names that belong to the campaign rather than to the destination.
    public static func isCampaignKey(_ name: String) -> Bool {
        name == "campaign_id" || name == "group_id" || name == "variant" || isUTMKey(name)
    }

    /// Whether `name` starts with the characters `utm_` (`name.hasPrefix("utm_")`), read from the
    /// bytes when they settle it: a combining mark right after the `_` would join it into another
    /// character, so only then are characters compared.
    public static func isUTMKey(_ name: String) -> Bool {
        var bytes = name.utf8.makeIterator()
        guard bytes.next() == UInt8(ascii: "u"), bytes.next() == UInt8(ascii: "t"), bytes.next() == UInt8(ascii: "m"),
              bytes.next() == UInt8(ascii: "_") else { return false }
        guard let fifth = bytes.next(), fifth >= 0x80 else { return true }
        return name.hasPrefix("utm_")
    }

    /// `utm[name]`, read from the fields in URL order rather than by hashing `name`.
    public func utmValue(named name: String) -> String? {
        storage.utmOrder.value(of: name)
    }

    /// Whether every `utm` key starts with `utm_`, as in any value a link or a message produced:
    /// then no campaign field shares a name with another.
    public var utmKeysArePrefixed: Bool { !storage.utmOrder.hasUnprefixedKey }

    /// True when no identifier is present (the source alone says nothing about a campaign).
    public var isEmpty: Bool {
        storage.campaignId == nil && storage.groupId == nil && storage.variant == nil && storage.utm.isEmpty
    }

    /// The campaign fields as (query name, value) in the shared URL order: campaign_id, group_id,
    /// variant, utm_source, utm_medium, utm_campaign, utm_term, utm_content, then other utm_* by name.
    public var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        items.reserveCapacity(queryItemCount)
        forEachQueryItem { items.append(($0, $1)) }
        return items
    }

    /// How many `queryItems` there are.
    public var queryItemCount: Int {
        let storage = storage
        return (storage.campaignId == nil ? 0 : 1) + (storage.groupId == nil ? 0 : 1) + (storage.variant == nil ? 0 : 1) + storage.utm.count
    }

    /// Calls `body` with each of `queryItems`, in their order, without building the array.
    public func forEachQueryItem(_ body: (_ name: String, _ value: String) -> Void) {
        let storage = storage
        if let campaignId = storage.campaignId { body("campaign_id", campaignId) }
        if let groupId = storage.groupId { body("group_id", groupId) }
        if let variant = storage.variant { body("variant", variant) }
        for field in storage.utmOrder.fields { body(field.name, field.value) }
    }

    /// The fields as a JSON object with snake_case keys (campaign_id, group_id, variant, utm_*, source), absent ones omitted.
    public var json: JSONValue {
        var object = JSONObject()
        forEachQueryItem { name, value in object[name] = .string(value) }
        object["source"] = .string(source.rawValue)
        return .object(object)
    }

    /// The channel when the caller did not say: the first declared channel whose utm fields match,
    /// else the custom scheme is in-app or legacy, and anything else came from outside.
    static func inferredSource(utm: [String: String], customScheme: Bool, channels: ChannelRules) -> Source {
        if let declared = channels.source(matching: utm) { return declared }
        return customScheme ? .appInternal : .externalURL
    }
}
