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
        var merged = entry
        var conflicts: [CampaignConflict] = []
        guard let message else { return (merged, conflicts) }
        func fill(_ field: String, _ current: String?, _ assign: (String) -> Void) {
            // Composed (NFC) like every value read from a link, so decomposed Hangul from a page
            // neither splits the variant in analytics nor counts as a conflict.
            guard let offered = message[field]?.stringValue.map(LinkText.composed) else { return }
            if let current {
                if current != offered {
                    conflicts.append(CampaignConflict(field: field, entryValue: current, messageValue: offered, requestID: requestID))
                }
            } else {
                assign(offered)
            }
        }
        fill("campaign_id", merged.campaignId) { merged.campaignId = $0 }
        fill("group_id", merged.groupId) { merged.groupId = $0 }
        fill("variant", merged.variant) { merged.variant = $0 }
        // Filled in a copy and set once: setting `utm` puts the fields in URL order again.
        var utm = merged.utm
        for (key, _) in message where CampaignMetadata.isUTMKey(key) {
            fill(key, utm[key]) { utm[key] = $0 }
        }
        if utm.count != merged.utm.count { merged.utm = utm }
        return (merged, conflicts)
    }
}
