import JSONCore
import DeeplinkRouting

/// An analytics event of the campaign funnel. Every event carries the same campaign properties
/// (campaign_id, group_id, variant, utm_*, source) so the funnel joins end to end.
public struct AnalyticsEvent: Sendable, Equatable {
    public let name: String
    /// Event-specific properties first, then the campaign properties.
    public let properties: JSONObject

    public init(name: String, properties: JSONObject) {
        self.name = name
        self.properties = properties
    }

    // The event names come from the contract set's manifest (`BridgeManifest.analytics`).

    static func make(_ name: String, _ fields: [(String, JSONValue)], campaign: CampaignMetadata) -> AnalyticsEvent {
        make(name, fieldCount: fields.count, campaign: campaign) { properties in
            for (key, value) in fields { properties.append(uniqueKey: key, value) }
        }
    }

    /// The event whose own properties `fields` appends (at most `fieldCount`, names distinct and
    /// written in this module), then the campaign's. The events of every CTA are made this way:
    /// a list of fields handed over would be one more array made and destroyed per event.
    static func make(_ name: String, fieldCount: Int, campaign: CampaignMetadata,
                     _ fields: (inout JSONObject) -> Void) -> AnalyticsEvent {
        var properties = JSONObject()
        properties.reserveCapacity(fieldCount + campaign.queryItemCount + 1)
        fields(&properties)
        // The events' own fields never name a campaign property, and campaign properties are
        // distinct unless a utm key lacks its prefix (a hand-made CampaignMetadata): then search.
        if campaign.utmKeysArePrefixed {
            campaign.forEachQueryItem { key, value in properties.append(uniqueKey: key, .string(value)) }
            properties.append(uniqueKey: "source", .string(campaign.source.rawValue))
        } else {
            campaign.forEachQueryItem { key, value in properties[key] = .string(value) }
            properties["source"] = .string(campaign.source.rawValue)
        }
        return AnalyticsEvent(name: name, properties: properties)
    }

    public subscript(property: String) -> JSONValue? { properties[property] }

    public var json: JSONValue { ["name": .string(name), "properties": .object(properties)] }
}

/// The page's campaign field disagreed with the entry link's; the entry's value was kept.
public struct CampaignConflict: Sendable, Equatable {
    public let field: String
    public let entryValue: String
    public let messageValue: String
    public let requestID: String?

    public init(field: String, entryValue: String, messageValue: String, requestID: String?) {
        self.field = field
        self.entryValue = entryValue
        self.messageValue = messageValue
        self.requestID = requestID
    }

    public var json: JSONValue {
        ["field": .string(field), "entryValue": .string(entryValue), "messageValue": .string(messageValue),
         "requestId": requestID.map(JSONValue.string) ?? .null]
    }
}

/// Something the host did that is not a reply: an analytics event, a campaign conflict, a
/// notification (a message without id, which gets no reply but is never invisible).
public enum HostRecord: Sendable, Equatable {
    case analytics(AnalyticsEvent)
    case campaignConflict(CampaignConflict)
    case notification(action: String, version: Int, outcome: String)
    /// A custom action's handler threw, or answered with a result its schema rejects: the page got
    /// an error reply (a notification got none), and this says why.
    case customActionFailed(CustomActionFailure)
    /// An event was posted to the page.
    case eventSent(PageEvent)
    /// An event was not posted (undeclared, not sent by this build, invalid, no page, or withheld).
    case eventFailed(PageEventFailure)
}

/// Where the host sends its records: the app's analytics adapter, or `MockBridgeHost` in tests.
/// Called on the main actor, where the host runs.
@MainActor
public protocol HostRecorder: AnyObject {
    func record(_ record: HostRecord)
}
