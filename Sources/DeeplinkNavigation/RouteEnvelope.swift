#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
///
/// A value whose fields live in one `ValueBox` (its doc comment in DeeplinkRouting says why and
/// states the inlining policy).
public struct RouteEnvelope: Sendable, Equatable {
    @inlinable public var id: EnvelopeID { box.fields.id }
    @inlinable public var route: ParsedDeeplink { box.fields.route }
    /// The door the request came through (push, a marketing link, a web CTA...), checked against
    /// the route's `enabledFrom`.
    @inlinable public var channel: EntryChannel { box.fields.channel }
    @inlinable public var receivedAt: Date { box.fields.receivedAt }
    /// Same destination, same parameters, same campaign: the same payload delivered twice
    /// (e.g. a pending route and a notification tap) has the same fingerprint.
    public var fingerprint: String { box.fields.fingerprintKey.text }
    /// The fingerprint with its hash worked out once, for the duplicate window's lookups.
    var fingerprintKey: FingerprintKey { box.fields.fingerprintKey }
    /// The offer of a deferred deep link the person took to make this envelope: it navigates even
    /// though they are browsing, and it is no duplicate of the envelope that was offered.
    @inlinable public var acceptedOffer: EnvelopeID? { box.fields.acceptedOffer }

    @usableFromInline let box: ValueBox<Fields>

    @usableFromInline struct Fields: Sendable, Equatable {
        @usableFromInline let id: EnvelopeID
        @usableFromInline let route: ParsedDeeplink
        @usableFromInline let channel: EntryChannel
        @usableFromInline let receivedAt: Date
        let fingerprintKey: FingerprintKey
        @usableFromInline let acceptedOffer: EnvelopeID?
    }

    public init(id: EnvelopeID, route: ParsedDeeplink, channel: EntryChannel? = nil, receivedAt: Date, fingerprint: String? = nil,
                acceptedOffer: EnvelopeID? = nil) {
        box = ValueBox(Fields(id: id, route: route, channel: channel ?? EntryChannel(route.campaignMetadata.source),
                              receivedAt: receivedAt,
                              fingerprintKey: fingerprint.map(FingerprintKey.init) ?? RouteEnvelope.fingerprintKey(of: route),
                              acceptedOffer: acceptedOffer))
    }

    /// A canonical text of the routed payload: route name, path parameters, query (keys sorted,
    /// repeated values in order) and campaign metadata including its source. The channel is not
    /// part of it: a push delivered both as a pending route and as a tap is one payload.
    ///
    /// Every field is written with its length in bytes before it (`5:apply`), so no value can be
    /// read as the end of another: two payloads have the same text only when every field is equal.
    public static func fingerprint(of route: ParsedDeeplink) -> String {
        fingerprintKey(of: route).text
    }

    static func fingerprintKey(of route: ParsedDeeplink) -> FingerprintKey {
        var text = FingerprintText()
        text.field(route.configuration.name)
        let path = route.pathParameters
        text.counted("path", path.count)
        forEachInKeyOrder(path) { key, value in
            text.field(key)
            text.field(value)
        }
        let query = route.queryParameters
        text.counted("query", query.count)
        forEachInKeyOrder(query) { key, values in
            text.field(key)
            text.number(values.count)
            for value in values { text.field(value) }
        }
        let campaign = route.campaignMetadata
        text.counted("campaign", campaign.queryItemCount)
        campaign.forEachQueryItem { name, value in
            text.field(name)
            text.field(value)
        }
        text.field(campaign.source.rawValue)
        return text.key
    }

    /// A dictionary's entries by key; most routes have one path parameter, which needs no sort.
    private static func forEachInKeyOrder<Value>(_ entries: [String: Value], _ body: (String, Value) -> Void) {
        guard entries.count > 1 else {
            for (key, value) in entries { body(key, value) }
            return
        }
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) { body(key, value) }
    }
}

/// The fingerprint's bytes: a field is its UTF-8 length in decimal, a colon, then its bytes.
private struct FingerprintText {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    var key: FingerprintKey { FingerprintKey(bytes: bytes) }

    mutating func field(_ value: String) {
        bytes.append(contentsOf: String(value.utf8.count).utf8)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(contentsOf: value.utf8)
    }

    /// The field `"<label> <count>"`.
    mutating func counted(_ label: String, _ count: Int) { field("\(label) \(count)") }

    /// The field holding `number` in decimal.
    mutating func number(_ number: Int) { field(String(number)) }
}

/// A fingerprint as a dictionary key: its UTF-8 bytes, hashed once (FNV-1a), equal only to the
/// same bytes (a Swift string would be Unicode-normalised again at every lookup). The text is
/// made only when someone reads it.
struct FingerprintKey: Hashable, Sendable {
    private let bytes: [UInt8]
    private let digest: UInt64

    init(_ text: String) {
        self.init(bytes: Array(text.utf8))
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        digest = hash
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    static func == (lhs: FingerprintKey, rhs: FingerprintKey) -> Bool {
        guard lhs.digest == rhs.digest, lhs.bytes.count == rhs.bytes.count else { return false }
        // The duplicate window looks a key up with the very copy it stored: the same bytes, which
        // by then are long out of the cache, need not be read again.
        return lhs.bytes.withUnsafeBytes { left in
            rhs.bytes.withUnsafeBytes { right in
                left.isEmpty || left.baseAddress == right.baseAddress || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}
