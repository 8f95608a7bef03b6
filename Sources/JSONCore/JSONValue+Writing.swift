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
