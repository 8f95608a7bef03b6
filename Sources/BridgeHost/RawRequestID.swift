/// The request id of a message that does not parse (a lone surrogate escape, a bad token,
/// trailing data, a broken limit), read from its raw bytes so that the error reply can echo it and
/// the page can settle the call at once on every channel, not only where the reply travels with
/// the request (WebKit's promise).
///
/// A tolerant walk over the top-level object only: strings are skipped whatever they hold (any
/// escape, even an invalid one), nested objects and arrays are skipped by depth, and anything
/// else is stepped over. The id is the top-level member `id` when it appears exactly once (its
/// key decoded, so `"\u0069d"` counts) and its value is a well-formed JSON string: valid UTF-8,
/// valid escapes, no lone surrogate escape, and the sanity rule of a parsed message's id. Text
/// that ends early (cut short, or only a prefix read) gives the id seen so far. Otherwise nil.
enum RawRequestID {
    /// The longest id echoed, in Unicode scalars (`ParsedMessage` applies the same rule).
    static let maxScalars = 128

    /// `id` when it may be echoed: non-empty and at most `maxScalars` scalars.
    static func sane(_ id: String?) -> String? {
        id.flatMap { !$0.isEmpty && $0.unicodeScalars.count <= maxScalars ? $0 : nil }
    }

    /// The top-level `id` of `bytes[..<end]` (end: the whole message when nil), by the rules above.
    static func find(in bytes: [UInt8], prefix end: Int? = nil) -> String? {
        var walk = TopLevelWalk(bytes: bytes, end: min(end ?? bytes.count, bytes.count))
        return walk.run()
    }
}

/// One walk over a message's top-level object, counting `id` keys and keeping the first value.
private struct TopLevelWalk {
    let bytes: [UInt8]
    let end: Int
    var index = 0
    var expectingKey = true
    var valueIsID = false
    var idKeys = 0
    var idValue: String?

    init(bytes: [UInt8], end: Int) {
        self.bytes = bytes
        self.end = end
    }

    mutating func run() -> String? {
        skipSpace()
        guard index < end, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while index < end, step() {}
        return idKeys == 1 ? RawRequestID.sane(idValue) : nil
    }

    /// Takes one token of the top level; false at the object's end or where the text stops making sense.
    private mutating func step() -> Bool {
        switch bytes[index] {
        case UInt8(ascii: "}"):
            return false
        case UInt8(ascii: ","):
            expectingKey = true
            valueIsID = false
            index += 1
        case UInt8(ascii: ":"):
            index += 1
        case UInt8(ascii: "\""):
            guard let range = RawJSONString.span(in: bytes, from: index, end: end) else { return false }
            index = range.upperBound + 1
            take(range)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard let after = skipContainer() else { return false }
            index = after
            valueIsID = false
        default:
            // A number, a literal, white space or a stray byte: never a string, so never an id.
            index += 1
            if !isSpace(bytes[index - 1]) { valueIsID = false }
        }
        return true
    }

    /// A string just read (its bytes between the quotes): a key (is it "id"?) or a value (the
    /// id's, when it follows that key; only then decoded).
    private mutating func take(_ range: Range<Int>) {
        if expectingKey {
            expectingKey = false
            valueIsID = RawJSONString.decode(bytes[range]) == "id"
            if valueIsID { idKeys += 1 }
        } else {
            if valueIsID && idKeys == 1 { idValue = RawJSONString.decode(bytes[range]) }
            valueIsID = false
        }
    }

    /// Steps over the object or array at `index` (strings inside skipped whole); the index after
    /// it, or nil when the text ends first.
    private func skipContainer() -> Int? {
        var depth = 0
        var at = index
        while at < end {
            switch bytes[at] {
            case UInt8(ascii: "\""):
                guard let range = RawJSONString.span(in: bytes, from: at, end: end) else { return nil }
                at = range.upperBound
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return at + 1 }
            default:
                break
            }
            at += 1
        }
        return nil
    }

    private mutating func skipSpace() {
        while index < end, isSpace(bytes[index]) { index += 1 }
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

/// A JSON string's raw bytes: where it ends, and its value when it is well-formed.
enum RawJSONString {
    /// The bytes between the quote at `start` and its closing quote (a backslash escapes the byte
    /// after it, whatever it is); nil when the text ends first.
    static func span(in bytes: [UInt8], from start: Int, end: Int) -> Range<Int>? {
        var at = start + 1
        while at < end {
            switch bytes[at] {
            case UInt8(ascii: "\\"): at += 2
            case UInt8(ascii: "\""): return (start + 1)..<at
            default: at += 1
            }
        }
        return nil
    }

    /// The string's value, or nil for a control character, an unknown or short escape, a lone
    /// surrogate escape or invalid UTF-8.
    static func decode(_ raw: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var at = raw.startIndex
        while at < raw.endIndex {
            let byte = raw[at]
            if byte < 0x20 { return nil }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                at += 1
                continue
            }
            guard at + 1 < raw.endIndex else { return nil }
            let escape = raw[at + 1]
            if escape == UInt8(ascii: "u") {
                guard let (scalar, next) = unicodeEscape(raw, at) else { return nil }
                out.append(contentsOf: scalar.utf8)
                at = next
            } else {
                guard let simple = simpleEscape(escape) else { return nil }
                out.append(simple)
                at += 2
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func simpleEscape(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): return byte
        case UInt8(ascii: "b"): return 0x08
        case UInt8(ascii: "f"): return 0x0C
        case UInt8(ascii: "n"): return 0x0A
        case UInt8(ascii: "r"): return 0x0D
        case UInt8(ascii: "t"): return 0x09
        default: return nil
        }
    }

    /// The scalar of `\uXXXX` at `at` (a high surrogate only with its low one, `\uXXXX\uXXXX`)
    /// and the index after it; nil for bad hex or a lone surrogate.
    private static func unicodeEscape(_ raw: ArraySlice<UInt8>, _ at: Int) -> (Unicode.Scalar, Int)? {
        guard let unit = hex4(raw, at + 2) else { return nil }
        switch unit {
        case 0xD800...0xDBFF:
            guard at + 7 < raw.endIndex, raw[at + 6] == UInt8(ascii: "\\"), raw[at + 7] == UInt8(ascii: "u"),
                  let low = hex4(raw, at + 8), (0xDC00...0xDFFF).contains(low),
                  let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else { return nil }
            return (scalar, at + 12)
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(unit).map { ($0, at + 6) }
        }
    }

    private static func hex4(_ raw: ArraySlice<UInt8>, _ start: Int) -> UInt32? {
        guard start + 4 <= raw.endIndex else { return nil }
        var value: UInt32 = 0
        for byte in raw[start..<(start + 4)] {
            guard let digit = hexDigit(byte) else { return nil }
            value = value << 4 | digit
        }
        return value
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }
}
