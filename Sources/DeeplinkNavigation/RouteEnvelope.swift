#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import DeeplinkRouting

/// Identifies one entry into the navigator. Sequential rather than random so logs and tests
/// read in arrival order.
public struct EnvelopeID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: EnvelopeID, rhs: EnvelopeID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// One entry (push, link, CTA) wrapped once at the door, as the coordinator seed's RouteEnvelope:
/// everything after this point talks about the envelope, so every exit path can mark it consumed.
public struct RouteEnvelope: Sendable, Equatable {
    public let id: EnvelopeID
    public let route: ParsedDeeplink
    /// The door the request came through (push, a marketing link, a web CTA...), checked against
    /// the route's `enabledFrom`.
    public let channel: EntryChannel
    public let receivedAt: Date
    /// Same destination, same parameters, same campaign: the same payload delivered twice
    /// (e.g. a pending route and a notification tap) has the same fingerprint.
    public let fingerprint: String
    /// The fingerprint with its hash worked out once, for the duplicate window's lookups.
    let fingerprintKey: FingerprintKey
    /// The offer of a deferred deep link the person took to make this envelope: it navigates even
    /// though they are browsing, and it is no duplicate of the envelope that was offered.
    public let acceptedOffer: EnvelopeID?

    public init(id: EnvelopeID, route: ParsedDeeplink, channel: EntryChannel? = nil, receivedAt: Date, fingerprint: String? = nil,
                acceptedOffer: EnvelopeID? = nil) {
        self.id = id
        self.acceptedOffer = acceptedOffer
        self.route = route
        self.channel = channel ?? EntryChannel(route.campaignMetadata.source)
        self.receivedAt = receivedAt
        let fingerprint = fingerprint ?? RouteEnvelope.fingerprint(of: route)
        self.fingerprint = fingerprint
        fingerprintKey = FingerprintKey(fingerprint)
    }

    /// A canonical text of the routed payload: route name, path parameters, query (keys sorted,
    /// repeated values in order) and campaign metadata including its source. The channel is not
    /// part of it: a push delivered both as a pending route and as a tap is one payload.
    ///
    /// Every field is written with its length in bytes before it (`5:apply`), so no value can be
    /// read as the end of another: two payloads have the same text only when every field is equal.
    public static func fingerprint(of route: ParsedDeeplink) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(160)
        func field(_ value: String) {
            var value = value
            text.append(contentsOf: String(value.utf8.count).utf8)
            text.append(UInt8(ascii: ":"))
            value.withUTF8 { text.append(contentsOf: $0) }
        }
        field(route.configuration.name)
        let path = route.pathParameters
        field("path \(path.count)")
        for key in path.keys.sorted() {
            field(key)
            field(path[key]!)
        }
        let query = route.queryParameters
        field("query \(query.count)")
        for key in query.keys.sorted() {
            let values = query[key]!
            field(key)
            field("\(values.count)")
            for value in values { field(value) }
        }
        let campaign = route.campaignMetadata.queryItems
        field("campaign \(campaign.count)")
        for (name, value) in campaign {
            field(name)
            field(value)
        }
        field(route.campaignMetadata.source.rawValue)
        return String(decoding: text, as: UTF8.self)
    }
}

/// A fingerprint as a dictionary key: hashed once over its UTF-8 bytes (FNV-1a), and equal only to
/// the same bytes. A Swift string would be Unicode-normalised again at every lookup.
struct FingerprintKey: Hashable, Sendable {
    let text: String
    private let digest: UInt64

    init(_ text: String) {
        self.text = text
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        digest = hash
    }

    static func == (lhs: FingerprintKey, rhs: FingerprintKey) -> Bool {
        lhs.digest == rhs.digest && sameBytes(lhs.text, rhs.text)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }

    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in left.elementsEqual(right) }
        }
        return (compared ?? nil) ?? lhs.utf8.elementsEqual(rhs.utf8)
    }
}
