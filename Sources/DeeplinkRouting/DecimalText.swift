/// Numbers as they go into a URL: plain decimal, never an exponent (`0.00001`, not `1e-05`) and
/// never a locale's comma. Swift's own description of a Double is the shortest text that reads
/// back as the same value, but it switches to exponent form for small and large magnitudes, which
/// map apps (and people) do not read as a coordinate.
public enum DecimalText {
    /// The shortest round-tripping digits of `value` in plain decimal; nil for NaN and infinities.
    /// Whole values have no fraction ("127", not "127.0").
    public static func plain(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        if value == 0 { return "0" }
        var text = String(value)  // shortest round trip, maybe with an exponent
        var negative = false
        if text.hasPrefix("-") {
            negative = true
            text.removeFirst()
        }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = String(text[..<e])
        }
        // Digits and the position of the decimal point within them.
        var digits = text.filter { $0 != "." }
        var point = (text.firstIndex(of: ".").map { text.distance(from: text.startIndex, to: $0) } ?? text.count) + exponent
        // Drop leading zeros (keeping the point where it belongs) and trailing zeros of the fraction.
        while digits.count > 1, digits.first == "0" {
            digits.removeFirst()
            point -= 1
        }
        var integer: String
        var fraction: String
        if point <= 0 {
            integer = "0"
            fraction = String(repeating: "0", count: -point) + digits
        } else if point >= digits.count {
            integer = digits + String(repeating: "0", count: point - digits.count)
            fraction = ""
        } else {
            integer = String(digits.prefix(point))
            fraction = String(digits.dropFirst(point))
        }
        while fraction.last == "0" { fraction.removeLast() }
        if integer.isEmpty { integer = "0" }
        return (negative ? "-" : "") + integer + (fraction.isEmpty ? "" : "." + fraction)
    }

    /// Whether `text` is a plain decimal number: an optional `-`, digits (no leading zeros), an
    /// optional `.` followed by digits. No `+`, exponent, comma, spaces or bare `.`. The default
    /// fraction limit fits every Double written by `plain` (the tiniest has 340 fraction digits).
    public static func isPlain(_ text: String, maxFractionDigits: Int = 400) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard !integer.isEmpty, integer.count <= 3, integer.count == 1 || integer.first != 0x30 else { return false }
        let rest = bytes.dropFirst(integer.count)
        if rest.isEmpty { return true }
        guard rest.first == UInt8(ascii: "."), rest.count >= 2, rest.count - 1 <= maxFractionDigits else { return false }
        return rest.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
