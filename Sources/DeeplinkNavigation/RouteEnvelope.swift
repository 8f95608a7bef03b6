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

/// The fingerprint's bytes, written straight into one buffer: a field is its UTF-8 length in
/// decimal, a colon, then its bytes.
///
/// The buffer is its own memory, written through a pointer: an array would check its uniqueness
/// and capacity at every byte appended (a fingerprint is a few hundred bytes, made per entry).
private struct FingerprintText: ~Copyable {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0

    init() {
        capacity = 256
        start = .allocate(capacity: capacity)
    }

    deinit { start.deallocate() }

    /// The bytes as a key (copied out once, into storage of their exact size).
    var key: FingerprintKey { FingerprintKey(bytes: Array(UnsafeBufferPointer(start: start, count: count))) }

    /// Reads the string's UTF-8 in place: no copy of it is made (each copy of a string in storage
    /// is an atomic retain and release, dearer in time than the bytes it would save).
    mutating func field(_ value: String) {
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { utf8 in
            append(utf8)
        }
        if written == nil {  // a bridged string without contiguous UTF-8
            Array(value.utf8).withUnsafeBufferPointer { append($0) }
        }
    }

    /// The field `"<label> <count>"`, as `field` would write it.
    mutating func counted(_ label: StaticString, _ count: Int) {
        reserve(label.utf8CodeUnitCount + 2 * Self.maximumDigits + 2)
        appendDecimal(label.utf8CodeUnitCount + 1 + Self.decimalLength(count))
        appendByte(UInt8(ascii: ":"))
        label.withUTF8Buffer { copy($0) }
        appendByte(UInt8(ascii: " "))
        appendDecimal(count)
    }

    /// The field holding `number` in decimal, as `field` would write it.
    mutating func number(_ number: Int) {
        reserve(2 * Self.maximumDigits + 1)
        appendDecimal(Self.decimalLength(number))
        appendByte(UInt8(ascii: ":"))
        appendDecimal(number)
    }

    private mutating func append(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(utf8.count + Self.maximumDigits + 1)
        appendDecimal(utf8.count)
        appendByte(UInt8(ascii: ":"))
        copy(utf8)
    }

    /// The digits of the largest count, `Int.max`.
    private static let maximumDigits = 19

    /// Digits of a count (counts and lengths are never negative).
    private static func decimalLength(_ count: Int) -> Int {
        var length = 1
        var rest = count / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        return length
    }

    /// Room for `more` bytes after those written.
    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        let larger = max(capacity * 2, count + more)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.update(from: start, count: count)
        start.deallocate()
        start = moved
        capacity = larger
    }

    // The writers below go within room reserved by their caller.

    private mutating func appendByte(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    private mutating func copy(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress, !utf8.isEmpty else { return }
        (start + count).update(from: source, count: utf8.count)
        count += utf8.count
    }

    private mutating func appendDecimal(_ value: Int) {
        let length = Self.decimalLength(value)
        var rest = value
        var at = count + length
        repeat {
            at -= 1
            start[at] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        count += length
    }
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
