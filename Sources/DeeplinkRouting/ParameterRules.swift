/// The value rules of the parameter types in routes.json. Values are checked after decoding.
public enum ParameterRules {
    /// int: ASCII digits only (no sign: ids and page numbers are never negative, and a leading
    /// `-` or `+` in a URL is more often a mistake than a value), and it must fit in an Int64.
    /// uuid: 8-4-4-4-12 hex digits, either case. slug: 1-64 of a-z, 0-9 and `-`.
    /// string: any non-empty text. latitude / longitude: plain decimal within -90...90 /
    /// -180...180 (what a map app reads as a coordinate: no exponent, no `+`, no comma).
    public static func isValid(_ value: String, as type: ParameterType) -> Bool {
        switch type {
        case .latitude, .longitude:
            guard DecimalText.isPlain(value), let number = Double(value) else { return false }
            let limit: Double = type == .latitude ? 90 : 180
            return number >= -limit && number <= limit
        case .string:
            return !value.isEmpty
        // Read from the UTF-8 view in place: these run for every parameter of every link.
        case .int:
            let bytes = value.utf8
            guard !bytes.isEmpty, bytes.count <= 19, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return false }
            return Int64(value) != nil
        case .uuid:
            let bytes = value.utf8
            guard bytes.count == 36 else { return false }
            for (index, byte) in bytes.enumerated() {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard byte == UInt8(ascii: "-") else { return false }
                } else {
                    guard isHexDigit(byte) else { return false }
                }
            }
            return true
        case .slug:
            let bytes = value.utf8
            guard (1...64).contains(bytes.count) else { return false }
            return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "-") }
        }
    }

    /// A short statement of the rule, for error messages.
    public static func describe(_ type: ParameterType) -> String {
        switch type {
        case .string: return "any non-empty text"
        case .int: return "digits only, no sign, at most 9223372036854775807"
        case .uuid: return "8-4-4-4-12 hexadecimal digits"
        case .slug: return "1 to 64 lower-case letters a-z, digits and hyphens"
        case .latitude: return "a plain decimal from -90 to 90"
        case .longitude: return "a plain decimal from -180 to 180"
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }
}
