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

    @inlinable public var campaignId: String? {
        get { box.fields.campaignId }
        set { box = box.fields.replacing(campaignId: .some(newValue)) }
    }
    @inlinable public var groupId: String? {
        get { box.fields.groupId }
        set { box = box.fields.replacing(groupId: .some(newValue)) }
    }
    @inlinable public var variant: String? {
        get { box.fields.variant }
        set { box = box.fields.replacing(variant: .some(newValue)) }
    }
    /// utm_* fields by full name ("utm_source" ...), any utm_ key kept.
    public var utm: [String: String] {
        get { Dictionary(uniqueKeysWithValues: box.fields.utm.lazy.map { ($0.name, $0.value) }) }
        set { box = box.fields.replacing(utm: CampaignMetadata.inURLOrder(newValue)) }
    }
    public var source: Source

    /// The identifiers in one `ValueBox` (its doc comment says why and states the inlining policy):
    /// a link or a message sets each campaign field at most once.
    @usableFromInline var box: ValueBox<Fields>

    @usableFromInline struct Fields: Sendable, Hashable {
        @usableFromInline let campaignId: String?
        @usableFromInline let groupId: String?
        @usableFromInline let variant: String?
        /// The utm fields in the order URLs carry them (`inURLOrder`): every link, event and
        /// fingerprint reads them in that order.
        @usableFromInline let utm: [UTMField]
        /// Every utm key starts with `utm_`, as in any value a link or a message produced (worked
        /// out once from `utm`).
        @usableFromInline let utmKeysArePrefixed: Bool

        init(campaignId: String?, groupId: String?, variant: String?, utm: [UTMField]) {
            self.campaignId = campaignId
            self.groupId = groupId
            self.variant = variant
            self.utm = utm
            utmKeysArePrefixed = utm.allSatisfy { CampaignMetadata.isUTMKey($0.name) }
        }

        /// A box with the fields given (`.some(nil)` clears one) and the others as they are.
        @usableFromInline func replacing(campaignId: String?? = nil, groupId: String?? = nil, variant: String?? = nil,
                                         utm: [UTMField]? = nil) -> ValueBox<Fields> {
            ValueBox(Fields(campaignId: campaignId ?? self.campaignId, groupId: groupId ?? self.groupId,
                            variant: variant ?? self.variant, utm: utm ?? self.utm))
        }
    }

    @usableFromInline struct UTMField: Sendable, Hashable {
        @usableFromInline let name: String
        @usableFromInline let value: String
    }

    /// The table's fields in URL order: the standard names in `standardUTMKeys` order, then the
    /// others by name.
    static func inURLOrder(_ utm: [String: String]) -> [UTMField] {
        utm.map { UTMField(name: $0.key, value: $0.value) }.sorted { comesBefore($0.name, $1.name) }
    }

    private static func comesBefore(_ name: String, _ other: String) -> Bool {
        let place = standardUTMKeys.firstIndex(of: name) ?? standardUTMKeys.count
        let otherPlace = standardUTMKeys.firstIndex(of: other) ?? standardUTMKeys.count
        return place != otherPlace ? place < otherPlace : name < other
    }

    /// `utm[name] = value`, kept in URL order without going through a table.
    mutating func setUTMValue(_ value: String, named name: String) {
        var fields = box.fields.utm
        fields.removeAll { $0.name == name }
        let index = fields.firstIndex { Self.comesBefore(name, $0.name) } ?? fields.count
        fields.insert(UTMField(name: name, value: value), at: index)
        box = box.fields.replacing(utm: fields)
    }

    public init(
        campaignId: String? = nil, groupId: String? = nil, variant: String? = nil,
        utm: [String: String] = [:], source: Source
    ) {
        box = ValueBox(Fields(campaignId: campaignId, groupId: groupId, variant: variant, utm: Self.inURLOrder(utm)))
        self.source = source
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

    /// `utm[name]`, read from the fields in URL order rather than through a table.
    public func utmValue(named name: String) -> String? {
        box.fields.utm.first { $0.name == name }?.value
    }

    /// Whether every `utm` key starts with `utm_`, as in any value a link or a message produced:
    /// then no campaign field shares a name with another, and an event appends them unsearched.
    @inlinable public var utmKeysArePrefixed: Bool { box.fields.utmKeysArePrefixed }

    /// True when no identifier is present (the source alone says nothing about a campaign).
    public var isEmpty: Bool {
        let fields = box.fields
        return fields.campaignId == nil && fields.groupId == nil && fields.variant == nil && fields.utm.isEmpty
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
        let fields = box.fields
        return (fields.campaignId == nil ? 0 : 1) + (fields.groupId == nil ? 0 : 1) + (fields.variant == nil ? 0 : 1) + fields.utm.count
    }

    /// Calls `body` with each of `queryItems`, in their order, without building the array.
    public func forEachQueryItem(_ body: (_ name: String, _ value: String) -> Void) {
        let fields = box.fields
        if let campaignId = fields.campaignId { body("campaign_id", campaignId) }
        if let groupId = fields.groupId { body("group_id", groupId) }
        if let variant = fields.variant { body("variant", variant) }
        for field in fields.utm { body(field.name, field.value) }
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
