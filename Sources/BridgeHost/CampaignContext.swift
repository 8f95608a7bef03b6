import JSONCore
import DeeplinkRouting

/// The campaign metadata of the page currently shown, from the link that opened it.
///
/// The entry link is authoritative: the page's own `campaign` fields only fill what the entry left
/// empty, and a disagreement is returned as a conflict (the entry value wins). `source` always
/// comes from the entry channel, never from the page; a page opened without an entry link is
/// `appInternal`. The entry's fields already follow the contract's campaign rules (the handler
/// drops a value that breaks them); the message's fields were checked by the envelope schema.
public struct CampaignContext: Sendable, Equatable {
    public let entry: CampaignMetadata

    public init(entry: CampaignMetadata) {
        self.entry = entry
    }

    public static let none = CampaignContext(entry: CampaignMetadata(source: .appInternal))

    /// The metadata for a message: entry fields first, message fields where the entry has none.
    public func merged(with message: JSONObject?, requestID: String?) -> (CampaignMetadata, [CampaignConflict]) {
        var conflicts: [CampaignConflict] = []
        guard let message else { return (entry, conflicts) }
        /// The field's value: the entry's if it has one (a different offer is a conflict), else the message's.
        func merge(_ field: String, _ current: String?) -> String? {
            // Composed (NFC) like every value read from a link, so decomposed Hangul from a page
            // neither splits the variant in analytics nor counts as a conflict.
            guard let offered = message[field]?.stringValue.map(LinkText.composed) else { return current }
            guard let current else { return offered }
            if current != offered {
                conflicts.append(CampaignConflict(field: field, entryValue: current, messageValue: offered, requestID: requestID))
            }
            return current
        }
        let campaignId = merge("campaign_id", entry.campaignId)
        let groupId = merge("group_id", entry.groupId)
        let variant = merge("variant", entry.variant)
        // The entry's table is copied only when the message adds a utm field to it.
        var addedUTM: [String: String]?
        for (key, value) in message where CampaignMetadata.isUTMKey(key) {
            guard let offered = value.stringValue.map(LinkText.composed) else { continue }
            if let current = entry.utmValue(named: key) {
                if current != offered {
                    conflicts.append(CampaignConflict(field: key, entryValue: current, messageValue: offered, requestID: requestID))
                }
            } else {
                if addedUTM == nil { addedUTM = entry.utm }
                addedUTM![key] = offered
            }
        }
        // Made once, and only when the message added a field: the entry's value is shared otherwise.
        guard campaignId != entry.campaignId || groupId != entry.groupId || variant != entry.variant
                || addedUTM != nil else { return (entry, conflicts) }
        return (CampaignMetadata(campaignId: campaignId, groupId: groupId, variant: variant, utm: addedUTM ?? entry.utm,
                                 source: entry.source), conflicts)
    }
}
