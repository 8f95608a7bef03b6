import JSONCore

/// Reads an export line for the few members the funnel uses, in one pass over its UTF-8 bytes,
/// without building the tree of the whole line (building it was most of the funnel's time).
///
/// It checks the whole line as strictly as `JSONValue(parsing:)` does: the members it does not
/// keep are still read to their end (strings with their escapes and UTF-8, numbers, nested
/// objects and arrays), and their keys are checked for duplicates. What it returns is the line's
/// object cut down to `eventKeys`, with `properties` cut down to `propertyKeys`, so
/// `FunnelLineReader` applies the same rules to it as to a fully parsed line.
///
/// Whenever a line is anything but plain, `scan` returns nil and the reader parses the line with
/// JSONCore, which then decides: a malformed line gets JSONCore's own error, word for word.
/// "Not plain" is: an error of any kind; a key with an escape or a non-ASCII byte (Swift compares
/// such keys by canonical equivalence, which only JSONCore's check mirrors); a number with an
/// exponent or of more than 300 characters (it may be out of range); nesting deeper than 32; a
/// `"type"` member (a host line). Duplicate keys are refused, as JSONCore refuses them, at every
/// level: the first is not silently kept.
struct FunnelLineScanner {
    /// Members of the line the reader looks at (`FunnelLineReader`, `FunnelLog.event`).
    static let eventKeys: [String] = ["event", "properties", "distinct_id", "session_id", "time"]
    /// Members of `properties` the funnel looks at (`VisitTracker`, `FunnelLog.event`).
    static let propertyKeys: [String] = [
        "distinct_id", "session_id", "time", "source", "path", "url", "deeplink", "target_screen", "campaign_id",
        "variant", "screen", "route", "cold_start", "app_state", "launch",
    ]
    private static let eventKeyBytes = KeptKeys(eventKeys)
    private static let propertyKeyBytes = KeptKeys(propertyKeys)
    private static let typeKey = Array("type".utf8)
    private static let propertiesKey = Array("properties".utf8)
    private static let maxDepth = 32
    private static let maxNumberLength = 300

    /// The keys of the objects being read, innermost last, to find duplicates.
    private var keys: [Range<Int>] = []
    /// Decoded bytes of a kept string with escapes.
    private var scratch: [UInt8] = []

    /// The cut-down object of a plain export line; nil when JSONCore has to read the line.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONObject? {
        keys.removeAll(keepingCapacity: true)
        var cursor = Cursor(bytes: bytes)
        cursor.skipWhitespace()
        guard cursor.peek == UInt8(ascii: "{") else { return nil }
        guard let object = readObject(&cursor, depth: 1, kept: Self.eventKeyBytes, isTop: true) else { return nil }
        cursor.skipWhitespace()
        return cursor.atEnd ? object : nil
    }

    /// Reads the object at the cursor, keeping the members named in `kept`; nil when not plain.
    private mutating func readObject(_ cursor: inout Cursor, depth: Int, kept: KeptKeys, isTop: Bool) -> JSONObject? {
        guard depth <= Self.maxDepth else { return nil }
        cursor.index += 1
        var object = JSONObject()
        if !kept.names.isEmpty { object.reserveCapacity(8) }  // room for a line's usual members, without regrowing
        let firstKey = keys.count
        var seen: UInt64 = 0
        defer { keys.removeSubrange(firstKey...) }
        cursor.skipWhitespace()
        if cursor.take(UInt8(ascii: "}")) { return object }
        while true {
            guard let (key, bit) = readKey(&cursor, firstKey: firstKey, seen: &seen) else { return nil }
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: ":")) else { return nil }
            cursor.skipWhitespace()
            if isTop && cursor.equals(key, Self.typeKey) { return nil }
            if kept.mask & bit != 0 && kept.names.contains(where: { cursor.equals(key, $0) }) {
                let value: JSONValue?
                if isTop && cursor.peek == UInt8(ascii: "{") && cursor.equals(key, Self.propertiesKey) {
                    value = readObject(&cursor, depth: depth + 1, kept: Self.propertyKeyBytes, isTop: false).map(JSONValue.object)
                } else {
                    value = readValue(&cursor, depth: depth)
                }
                guard let value else { return nil }
                object.append(uniqueKey: String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[key]), as: UTF8.self), value)
            } else {
                guard skipValue(&cursor, depth: depth) else { return nil }
            }
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: ",")) {
                cursor.skipWhitespace()
                continue
            }
            return cursor.take(UInt8(ascii: "}")) ? object : nil
        }
    }

    /// A plain key (ASCII, no escapes) not seen before in its object; its bytes without quotes.
    /// `seen` has a bit set for each key of the object so far (by a hash of its length and ends),
    /// so only a key whose bit is already set is compared with the earlier ones.
    private mutating func readKey(_ cursor: inout Cursor, firstKey: Int, seen: inout UInt64) -> (Range<Int>, UInt64)? {
        guard cursor.take(UInt8(ascii: "\"")) else { return nil }
        let start = cursor.index
        while let byte = cursor.peek, byte != UInt8(ascii: "\"") {
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            cursor.index += 1
        }
        guard cursor.take(UInt8(ascii: "\"")) else { return nil }
        let key = start..<cursor.index - 1
        let bit = KeptKeys.bit(UnsafeBufferPointer(rebasing: cursor.bytes[key]))
        if seen & bit != 0 {
            for earlier in keys[firstKey...] where cursor.equals(earlier, key) { return nil }
        }
        seen |= bit
        keys.append(key)
        return (key, bit)
    }

    /// A value the funnel keeps, decoded as JSONCore would decode it.
    private mutating func readValue(_ cursor: inout Cursor, depth: Int) -> JSONValue? {
        let start = cursor.index
        switch cursor.peek ?? 0 {  // 0: the end, which no case takes
        case UInt8(ascii: "\""):
            guard let hasEscapes = readString(&cursor, decode: true) else { return nil }
            return .string(hasEscapes
                ? String(decoding: scratch, as: UTF8.self)
                : String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[start + 1..<cursor.index - 1]), as: UTF8.self))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let isInteger = skipNumber(&cursor) else { return nil }
            let digits = UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index])
            if isInteger, digits.count <= 18 {
                var whole: Int64 = 0
                for digit in digits where digit != UInt8(ascii: "-") { whole = whole * 10 + Int64(digit - 0x30) }
                return .integer(digits[0] == UInt8(ascii: "-") ? -whole : whole)
            }
            return try? JSONValue(parsing: digits)
        default:
            // Literals and containers: read to their end, then let JSONCore make the value.
            guard skipValue(&cursor, depth: depth) else { return nil }
            return try? JSONValue(parsing: UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index]))
        }
    }

    /// Reads past any value; false when it is not plain.
    private mutating func skipValue(_ cursor: inout Cursor, depth: Int) -> Bool {
        switch cursor.peek ?? 0 {  // 0: the end, which no case takes
        case UInt8(ascii: "\""):
            return readString(&cursor, decode: false) != nil
        case UInt8(ascii: "{"):
            return readObject(&cursor, depth: depth + 1, kept: KeptKeys.none, isTop: false) != nil
        case UInt8(ascii: "["):
            guard depth + 1 <= Self.maxDepth else { return false }
            cursor.index += 1
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: "]")) { return true }
            while true {
                guard skipValue(&cursor, depth: depth + 1) else { return false }
                cursor.skipWhitespace()
                if cursor.take(UInt8(ascii: ",")) {
                    cursor.skipWhitespace()
                    continue
                }
                return cursor.take(UInt8(ascii: "]"))
            }
        case UInt8(ascii: "t"): return cursor.take(word: "true")
        case UInt8(ascii: "f"): return cursor.take(word: "false")
        case UInt8(ascii: "n"): return cursor.take(word: "null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return skipNumber(&cursor) != nil
        default:
            return false
        }
    }

    /// Reads past a number in JSON's grammar; whether it is an integer, or nil when not plain.
    private func skipNumber(_ cursor: inout Cursor) -> Bool? {
        let start = cursor.index
        _ = cursor.take(UInt8(ascii: "-"))
        let digits = cursor.index
        guard cursor.skipDigits() else { return nil }
        if cursor.bytes[digits] == UInt8(ascii: "0") && cursor.index - digits > 1 { return nil }  // a leading zero
        var isInteger = true
        if cursor.take(UInt8(ascii: ".")) {
            isInteger = false
            guard cursor.skipDigits() else { return nil }
        }
        if cursor.peek == UInt8(ascii: "e") || cursor.peek == UInt8(ascii: "E") { return nil }
        return cursor.index - start <= Self.maxNumberLength ? isInteger : nil
    }

    /// Reads past a string, checking its escapes and UTF-8 as JSONCore does. With `decode`, a
    /// string with escapes is decoded into `scratch`. Whether it had escapes; nil when not plain.
    private mutating func readString(_ cursor: inout Cursor, decode: Bool) -> Bool? {
        cursor.index += 1
        let start = cursor.index
        var hasEscapes = false
        while let byte = cursor.peek {
            switch byte {
            case UInt8(ascii: "\""):
                cursor.index += 1
                return hasEscapes
            case UInt8(ascii: "\\"):
                if decode && !hasEscapes {
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index]))
                }
                hasEscapes = true
                guard let scalar = cursor.escape() else { return nil }
                if decode { scratch.append(contentsOf: UTF8.encode(scalar)!) }
            case 0x00..<0x20:
                return nil
            case 0x20..<0x80:
                if decode && hasEscapes { scratch.append(byte) }
                cursor.index += 1
            default:
                guard let length = cursor.utf8Sequence() else { return nil }
                if decode && hasEscapes {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: cursor.bytes[cursor.index..<cursor.index + length]))
                }
                cursor.index += length
            }
        }
        return nil
    }
}

/// The names of the members an object keeps, and a mask of their bits (`bit`), so most other
/// keys are passed over without comparing them with each name.
private struct KeptKeys {
    static let none = KeptKeys([])
    let names: [[UInt8]]
    let mask: UInt64

    init(_ names: [String]) {
        self.names = names.map { Array($0.utf8) }
        mask = self.names.reduce(0) { mask, name in name.withUnsafeBufferPointer { mask | Self.bit($0) } }
    }

    /// One of 64 bits for a key, from its length and its first and last bytes.
    static func bit(_ key: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let ends = key.isEmpty ? 0 : Int(key[0]) &* 31 &+ Int(key[key.count - 1]) &* 7
        return 1 << UInt64((key.count &+ ends) & 63)
    }
}

/// A position in the bytes of one line.
private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func take(word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D {
            index += 1
        }
    }

    /// Reads past one digit or more; false when there is none.
    mutating func skipDigits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index > start
    }

    func equals(_ range: Range<Int>, _ other: Range<Int>) -> Bool {
        guard range.count == other.count else { return false }
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != bytes[other.lowerBound + offset] { return false }
        return true
    }

    func equals(_ range: Range<Int>, _ word: [UInt8]) -> Bool {
        guard range.count == word.count else { return false }
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != word[offset] { return false }
        return true
    }

    /// The escape at `index` (a backslash), a `\u` surrogate pair as one scalar; nil when invalid.
    mutating func escape() -> Unicode.Scalar? {
        guard index + 1 < bytes.count else { return nil }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return Unicode.Scalar(letter)
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            guard let unit = hexQuad() else { return nil }
            switch unit {
            case 0xD800...0xDBFF:
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hexQuad(), (0xDC00...0xDFFF).contains(low) else {
                    return nil
                }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            case 0xDC00...0xDFFF: return nil
            default: return Unicode.Scalar(unit)
            }
        default: return nil
        }
    }

    private mutating func hexQuad() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: return nil
            }
            unit = unit << 4 | UInt32(digit)
            index += 1
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence at `index` (no overlong forms, no encoded
    /// surrogates, nothing past U+10FFFF); nil when it is not one.
    func utf8Sequence() -> Int? {
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch bytes[index] {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return nil
        }
        guard index + length <= bytes.count, second.contains(bytes[index + 1]) else { return nil }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) { return nil }
        return length
    }
}
