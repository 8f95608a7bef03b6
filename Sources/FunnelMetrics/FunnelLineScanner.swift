import JSONCore

/// Reads an export line for the few members the funnel uses, in one pass over its UTF-8 bytes,
/// without building the tree of the line and without making a string (building the tree, then
/// strings, was most of the funnel's time).
///
/// It checks the whole line as strictly as `JSONValue(parsing:)` does: the members it does not
/// keep are still read to their end (strings with their escapes and UTF-8, numbers, nested
/// objects and arrays), and their keys are checked for duplicates. What it keeps are the values of
/// the line's `LineKey` members and of its `properties`' `PropertyKey` members, strings as places
/// in the line; `TrackedEvent(scanned:)` applies the rules of `FunnelLog.event` to them.
///
/// Whenever a line is anything but plain, `scan` returns false and the reader parses the line with
/// JSONCore, which then decides: a malformed line gets JSONCore's own error, word for word.
/// "Not plain" is: an error of any kind; a key with an escape or a non-ASCII byte (Swift compares
/// such keys by canonical equivalence, which only JSONCore's check mirrors); a number with an
/// exponent or of more than 300 characters (it may be out of range); nesting deeper than 32; a
/// `"type"` member (a host line). Duplicate keys are refused, as JSONCore refuses them, at every
/// level: the first is not silently kept.
struct FunnelLineScanner {
    /// Members of the line the funnel reads (`FunnelLog.event`).
    enum LineKey: Int, CaseIterable {
        case event, properties, distinctID, sessionID, time
        var name: String { ["event", "properties", "distinct_id", "session_id", "time"][rawValue] }
    }

    /// Members of `properties` the funnel reads (`FunnelLog.event`, `TrackedEvent`).
    enum PropertyKey: Int, CaseIterable {
        case distinctID, sessionID, time, source, path, url, deeplink, targetScreen, campaignID, variant, screen, route,
             coldStart, appState, launch
        var name: String {
            ["distinct_id", "session_id", "time", "source", "path", "url", "deeplink", "target_screen", "campaign_id",
             "variant", "screen", "route", "cold_start", "app_state", "launch"][rawValue]
        }
    }

    static let propertyKeys = PropertyKey.allCases.map(\.name)
    private static let lineKeys = KeptKeys(LineKey.allCases.map(\.name), level: .line)
    private static let propertiesKeys = KeptKeys(propertyKeys, level: .properties)
    private static let typeKey = Array("type".utf8)
    private static let maxDepth = 32
    private static let maxNumberLength = 300

    /// The values of the last line scanned, by `LineKey` and by `PropertyKey`; `.absent` where missing.
    private(set) var lineValues = [ScannedValue](repeating: .absent, count: LineKey.allCases.count)
    private(set) var propertyValues = [ScannedValue](repeating: .absent, count: PropertyKey.allCases.count)
    /// The kept strings with escapes, decoded one after another (`ScannedValue.decoded`).
    private(set) var decoded: [UInt8] = []
    /// The keys of the objects being read, innermost last, to find duplicates.
    private var keys: [Range<Int>] = []

    subscript(line key: LineKey) -> ScannedValue { lineValues[key.rawValue] }
    subscript(property key: PropertyKey) -> ScannedValue { propertyValues[key.rawValue] }

    /// Reads a line; true when it is a plain export line, its values then in `lineValues` and
    /// `propertyValues`. False when JSONCore has to read the line.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        keys.removeAll(keepingCapacity: true)
        decoded.removeAll(keepingCapacity: true)
        for index in lineValues.indices { lineValues[index] = .absent }
        for index in propertyValues.indices { propertyValues[index] = .absent }
        var cursor = Cursor(bytes: bytes)
        cursor.skipWhitespace()
        guard cursor.peek == UInt8(ascii: "{"), readObject(&cursor, depth: 1, kept: Self.lineKeys) else { return false }
        cursor.skipWhitespace()
        return cursor.atEnd
    }

    /// Reads the object at the cursor, keeping the values of the members named in `kept`; false
    /// when not plain.
    private mutating func readObject(_ cursor: inout Cursor, depth: Int, kept: KeptKeys) -> Bool {
        guard depth <= Self.maxDepth else { return false }
        cursor.index += 1
        let firstKey = keys.count
        var seen: UInt64 = 0
        defer { keys.removeSubrange(firstKey...) }
        cursor.skipWhitespace()
        if cursor.take(UInt8(ascii: "}")) { return true }
        while true {
            guard let (key, bit) = readKey(&cursor, firstKey: firstKey, seen: &seen) else { return false }
            cursor.skipWhitespace()
            guard cursor.take(UInt8(ascii: ":")) else { return false }
            cursor.skipWhitespace()
            if kept.level == .line && cursor.equals(key, Self.typeKey) { return false }
            if kept.mask & bit != 0, let index = kept.names.firstIndex(where: { cursor.equals(key, $0) }) {
                guard keep(&cursor, depth: depth, kept: kept, index: index) else { return false }
            } else {
                guard skipValue(&cursor, depth: depth) else { return false }
            }
            cursor.skipWhitespace()
            if cursor.take(UInt8(ascii: ",")) {
                cursor.skipWhitespace()
                continue
            }
            return cursor.take(UInt8(ascii: "}"))
        }
    }

    /// Reads the value of a kept member into its place; `properties` as an object of its own kept members.
    private mutating func keep(_ cursor: inout Cursor, depth: Int, kept: KeptKeys, index: Int) -> Bool {
        if kept.level == .line && index == LineKey.properties.rawValue && cursor.peek == UInt8(ascii: "{") {
            guard readObject(&cursor, depth: depth + 1, kept: Self.propertiesKeys) else { return false }
            lineValues[index] = .object
            return true
        }
        guard let value = readValue(&cursor, depth: depth) else { return false }
        if kept.level == .line { lineValues[index] = value } else { propertyValues[index] = value }
        return true
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

    /// A value the funnel keeps, as JSONCore would decode it: strings stay where they are.
    private mutating func readValue(_ cursor: inout Cursor, depth: Int) -> ScannedValue? {
        let start = cursor.index
        switch cursor.peek ?? 0 {  // 0: the end, which no case takes
        case UInt8(ascii: "\""):
            let decodedStart = decoded.count
            guard let hasEscapes = readString(&cursor, decode: true) else { return nil }
            return hasEscapes ? .decoded(decodedStart..<decoded.count) : .string(start + 1..<cursor.index - 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            guard let isInteger = skipNumber(&cursor) else { return nil }
            let digits = UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index])
            if isInteger, digits.count <= 18 {
                var whole: Int64 = 0
                for digit in digits where digit != UInt8(ascii: "-") { whole = whole * 10 + Int64(digit - 0x30) }
                return .integer(digits[0] == UInt8(ascii: "-") ? -whole : whole)
            }
            switch try? JSONValue(parsing: digits) {
            case .integer(let whole)?: return .integer(whole)
            case .number(let real)?: return .number(real)
            default: return nil
            }
        case UInt8(ascii: "t"): return cursor.take(word: "true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return cursor.take(word: "false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return cursor.take(word: "null") ? .null : nil
        case UInt8(ascii: "{"): return skipValue(&cursor, depth: depth) ? .object : nil
        case UInt8(ascii: "["): return skipValue(&cursor, depth: depth) ? .array : nil
        default: return nil
        }
    }

    /// Reads past any value; false when it is not plain.
    private mutating func skipValue(_ cursor: inout Cursor, depth: Int) -> Bool {
        switch cursor.peek ?? 0 {  // 0: the end, which no case takes
        case UInt8(ascii: "\""):
            return readString(&cursor, decode: false) != nil
        case UInt8(ascii: "{"):
            return readObject(&cursor, depth: depth + 1, kept: KeptKeys.none)
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
    /// string with escapes is decoded onto the end of `decoded`. Whether it had escapes; nil when not plain.
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
                if decode && !hasEscapes { decoded.append(contentsOf: UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index])) }
                hasEscapes = true
                guard let scalar = cursor.escape() else { return nil }
                if decode { decoded.append(contentsOf: UTF8.encode(scalar)!) }
            case 0x00..<0x20:
                return nil
            case 0x20..<0x80:
                if decode && hasEscapes { decoded.append(byte) }
                cursor.index += 1
            default:
                guard let length = cursor.utf8Sequence() else { return nil }
                if decode && hasEscapes {
                    decoded.append(contentsOf: UnsafeBufferPointer(rebasing: cursor.bytes[cursor.index..<cursor.index + length]))
                }
                cursor.index += length
            }
        }
        return nil
    }
}

/// A value of a member the scanner keeps. A string is a range of the line's bytes, or, when it
/// had escapes, of the scanner's `decoded` bytes.
enum ScannedValue: Equatable {
    case absent
    case string(Range<Int>)
    case decoded(Range<Int>)
    case integer(Int64)
    case number(Double)
    case bool(Bool)
    case null
    case object
    case array
}

/// The names of the members an object keeps, and a mask of their bits (`bit`), so most other
/// keys are passed over without comparing them with each name.
private struct KeptKeys {
    /// Where the kept values go: the line's own members, those of its `properties`, or nowhere.
    enum Level { case line, properties, none }

    static let none = KeptKeys([], level: .none)
    let names: [[UInt8]]
    let mask: UInt64
    let level: Level

    init(_ names: [String], level: Level) {
        self.level = level
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
