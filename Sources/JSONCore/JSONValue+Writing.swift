extension JSONValue {
    /// Compact JSON text. `sortedKeys` gives a canonical form (fingerprints, golden files);
    /// `escapeForScript` also escapes U+2028/U+2029 and `</` so the text can sit inside a
    /// `<script>` or a JavaScript string evaluated by a WebView.
    public func serialized(sortedKeys: Bool = false, escapeForScript: Bool = false) -> String {
        var out = JSONTextBuffer()
        write(into: &out, sortedKeys: sortedKeys, escapeForScript: escapeForScript, indent: nil, level: 0)
        return out.text
    }

    /// Indented JSON text (two spaces), members in their order.
    public func prettyPrinted(sortedKeys: Bool = false) -> String {
        var out = JSONTextBuffer()
        write(into: &out, sortedKeys: sortedKeys, escapeForScript: false, indent: "  ", level: 0)
        return out.text
    }

    private func write(into out: inout JSONTextBuffer, sortedKeys: Bool, escapeForScript: Bool, indent: String?, level: Int) {
        switch self {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .integer(let number): out.append(String(number))
        case .number(let real): out.append(JSONValue.format(real))
        case .string(let text): out.appendQuoted(text, escapeForScript: escapeForScript)
        case .array(let items):
            if items.isEmpty { return out.append("[]") }
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, indent, level + 1)
                item.write(into: &out, sortedKeys: sortedKeys, escapeForScript: escapeForScript, indent: indent, level: level + 1)
            }
            JSONValue.newline(&out, indent, level)
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            if object.isEmpty { return out.append("{}") }
            out.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ value: JSONValue) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.newline(&out, indent, level + 1)
                out.appendQuoted(key, escapeForScript: escapeForScript)
                out.append(indent == nil ? ":" : ": ")
                value.write(into: &out, sortedKeys: sortedKeys, escapeForScript: escapeForScript, indent: indent, level: level + 1)
            }
            if sortedKeys {
                for key in object.keys.sorted() { member(key, object[key]!) }
            } else {
                for (key, value) in object { member(key, value) }
            }
            JSONValue.newline(&out, indent, level)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout JSONTextBuffer, _ indent: String?, _ level: Int) {
        guard let indent else { return }
        out.append(UInt8(ascii: "\n"))
        for _ in 0..<level { out.append(indent) }
    }

    static func format(_ real: Double) -> String {
        if real.isNaN || real.isInfinite { return "null" }
        if real.rounded() == real, abs(real) < 1e15 { return String(Int64(real)) + ".0" }
        return "\(real)"
    }
}

/// JSON text written as UTF-8 bytes: runs of characters that need no escape are copied whole.
struct JSONTextBuffer {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// `text` as a JSON string. `escapeForScript` also escapes U+2028, U+2029 and the `/` of `</`.
    mutating func appendQuoted(_ text: String, escapeForScript: Bool) {
        var text = text
        bytes.append(UInt8(ascii: "\""))
        text.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            func flush(to end: Int) {
                if end > runStart { bytes.append(contentsOf: utf8[runStart..<end]) }
            }
            while index < utf8.count {
                let byte = utf8[index]
                var escape: String?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x00..<0x20, 0x7F: escape = Self.unicodeEscape(UInt32(byte))
                case UInt8(ascii: "/") where escapeForScript && index > 0 && utf8[index - 1] == UInt8(ascii: "<"):
                    escape = "\\/"
                case 0xE2 where escapeForScript && index + 2 < utf8.count && utf8[index + 1] == 0x80
                    && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029"
                    width = 3
                default: break
                }
                if let escape {
                    flush(to: index)
                    append(escape)
                    index += width
                    runStart = index
                } else {
                    index += 1
                }
            }
            flush(to: utf8.count)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}
