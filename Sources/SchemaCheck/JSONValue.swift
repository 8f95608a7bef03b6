/// A JSON value as the upper layers see it: read from jansson by `JSONDocument`, written back
/// for replies and records. Integers stay integers (a whole-number real from jansson is
/// still `.number`; JSON Schema treats both as integers where it matters). Object members
/// keep their order so output is stable and reads like the input.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The value as an integer when it is one, including whole-number reals such as `1.0`.
    public var integerValue: Int64? {
        switch self {
        case .integer(let number): return number
        case .number(let real):
            guard real.rounded() == real, abs(real) < 9.2e18 else { return nil }
            return Int64(real)
        default: return nil
        }
    }

    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Resolves an RFC 6901 JSON Pointer such as `/payload/slug`; "" is the value itself.
    public func value(at pointer: String) -> JSONValue? {
        guard let tokens = JSONPointer.tokens(of: pointer) else { return nil }
        var current = self
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let items):
                guard let index = JSONPointer.arrayIndex(token), index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}

/// Object members in insertion order with keyed lookup. Equality ignores order, as JSON's does.
public struct JSONObject: Sendable, Hashable, Sequence {
    public private(set) var keys: [String] = []
    private var storage: [String: JSONValue] = [:]

    public init() {}

    public init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    public var count: Int { keys.count }
    public var isEmpty: Bool { keys.isEmpty }

    public subscript(key: String) -> JSONValue? {
        get { storage[key] }
        set {
            if let newValue {
                if storage.updateValue(newValue, forKey: key) == nil { keys.append(key) }
            } else if storage.removeValue(forKey: key) != nil {
                keys.removeAll { $0 == key }
            }
        }
    }

    public func makeIterator() -> AnyIterator<(key: String, value: JSONValue)> {
        var index = 0
        return AnyIterator {
            guard index < keys.count else { return nil }
            defer { index += 1 }
            let key = keys[index]
            return (key, storage[key]!)
        }
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.storage == rhs.storage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

// MARK: - Writing

extension JSONValue {
    /// Compact JSON text. `sortedKeys` gives a canonical form (fingerprints, golden files);
    /// `escapeForScript` also escapes U+2028/U+2029 and `</` so the text can sit inside a
    /// `<script>` or a JavaScript string evaluated by a WebView.
    public func serialized(sortedKeys: Bool = false, escapeForScript: Bool = false) -> String {
        var out = ""
        write(into: &out, sortedKeys: sortedKeys, escapeForScript: escapeForScript, indent: nil, level: 0)
        return out
    }

    /// Indented JSON text (two spaces), members in their order.
    public func prettyPrinted(sortedKeys: Bool = false) -> String {
        var out = ""
        write(into: &out, sortedKeys: sortedKeys, escapeForScript: false, indent: "  ", level: 0)
        return out
    }

    private func write(into out: inout String, sortedKeys: Bool, escapeForScript: Bool, indent: String?, level: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let number): out += String(number)
        case .number(let real): out += JSONValue.format(real)
        case .string(let text): JSONValue.writeString(text, into: &out, escapeForScript: escapeForScript)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                JSONValue.newline(&out, indent, level + 1)
                item.write(into: &out, sortedKeys: sortedKeys, escapeForScript: escapeForScript, indent: indent, level: level + 1)
            }
            JSONValue.newline(&out, indent, level)
            out += "]"
        case .object(let object):
            if object.isEmpty { out += "{}"; return }
            out += "{"
            let keys = sortedKeys ? object.keys.sorted() : object.keys
            for (index, key) in keys.enumerated() {
                if index > 0 { out += "," }
                JSONValue.newline(&out, indent, level + 1)
                JSONValue.writeString(key, into: &out, escapeForScript: escapeForScript)
                out += indent == nil ? ":" : ": "
                object[key]!.write(into: &out, sortedKeys: sortedKeys, escapeForScript: escapeForScript, indent: indent, level: level + 1)
            }
            JSONValue.newline(&out, indent, level)
            out += "}"
        }
    }

    private static func newline(_ out: inout String, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out += "\n" + String(repeating: indent, count: level)
    }

    static func format(_ real: Double) -> String {
        if real.isNaN || real.isInfinite { return "null" }
        if real.rounded() == real, abs(real) < 1e15 { return String(Int64(real)) + ".0" }
        return "\(real)"
    }

    static func writeString(_ text: String, into out: inout String, escapeForScript: Bool) {
        out += "\""
        var previous: Unicode.Scalar = " "
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case "\u{2028}" where escapeForScript: out += "\\u2028"
            case "\u{2029}" where escapeForScript: out += "\\u2029"
            case "/" where escapeForScript && previous == "<": out += "\\/"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
            previous = scalar
        }
        out += "\""
    }
}

/// RFC 6901 helpers.
public enum JSONPointer {
    /// The unescaped reference tokens, or nil when the text is not a pointer.
    public static func tokens(of pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                if character == "~" {
                    switch iterator.next() {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                } else {
                    token.append(character)
                }
            }
            tokens.append(token)
        }
        return tokens
    }

    public static func escape(_ token: String) -> String {
        // Most tokens need no escaping, and this check keeps `bridgectl validate`'s start-up
        // short (every contract field read builds a pointer).
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return token }
        return token.replacing("~", with: "~0").replacing("/", with: "~1")
    }

    public static func join(_ tokens: [String]) -> String {
        tokens.map { "/" + escape($0) }.joined()
    }

    static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.allSatisfy(\.isASCII), token.allSatisfy(\.isNumber) else { return nil }
        if token.count > 1 && token.hasPrefix("0") { return nil }
        return Int(token)
    }
}
