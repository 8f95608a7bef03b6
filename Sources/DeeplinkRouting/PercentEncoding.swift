/// The one percent-encoding rule every part of bridgekit shares: keep RFC 3986 unreserved
/// characters (A-Z a-z 0-9 - . _ ~), write every other UTF-8 byte as %XX in upper-case hex.
/// Used for path segments and for query names and values alike, so `+`, `&`, `=`, `/`, `?`
/// and `%` can never change the meaning of a URL, and a space is always %20.
public enum PercentEncoding {
    public static func encode(_ text: String) -> String {
        var native = text  // withUTF8 reads a native string in place
        if native.withUTF8({ $0.allSatisfy(isUnreserved) }) { return text }  // most slugs, ids and numbers
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 3)
        appendEncoded(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `text` encoded to a URL being written as bytes.
    static func appendEncoded(_ text: String, to out: inout [UInt8]) {
        var native = text
        native.withUTF8 { bytes in
            for byte in bytes {
                if isUnreserved(byte) {
                    out.append(byte)
                } else {
                    out.append(UInt8(ascii: "%"))
                    out.append(hexDigits[Int(byte >> 4)])
                    out.append(hexDigits[Int(byte & 0x0F)])
                }
            }
        }
    }

    public enum DecodingFailure: Error, Sendable, Equatable, CustomStringConvertible {
        /// `%` not followed by two hex digits (`%ZZ`, or `%E` at the end).
        case badEscape
        /// The decoded bytes are not UTF-8.
        case notUTF8

        public var description: String {
            switch self {
            case .badEscape: return "\"%\" not followed by two hexadecimal digits"
            case .notUTF8: return "the decoded bytes are not UTF-8"
            }
        }
    }

    /// Decodes %XX escapes; every other character stands for itself (so `+` stays `+`, and raw
    /// non-ASCII text pasted into a link is taken as its UTF-8).
    public static func decode<Bytes: Collection<UInt8>>(_ raw: Bytes) -> Result<String, DecodingFailure> {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index != raw.endIndex {
            let byte = raw[index]
            index = raw.index(after: index)
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard index != raw.endIndex, let high = hexValue(raw[index]) else { return .failure(.badEscape) }
            index = raw.index(after: index)
            guard index != raw.endIndex, let low = hexValue(raw[index]) else { return .failure(.badEscape) }
            index = raw.index(after: index)
            out.append(high << 4 | low)
        }
        guard let text = String(validating: out, as: UTF8.self) else { return .failure(.notUTF8) }
        return .success(text)
    }

    public static func decode(_ raw: String) -> Result<String, DecodingFailure> {
        decode(Array(raw.utf8))
    }

    /// True when a decoded value was most likely encoded twice: it still holds `%XX` escapes, and
    /// decoding those once more gives valid UTF-8 text that differs (`%EC%B5%9C` here was `%25EC%25B5%259C`
    /// in the link, and decodes to "최"). Everyday copy such as "최대30%DC쿠폰" is not flagged:
    /// the byte 0xDC before a Korean syllable is no UTF-8, so `%DC` there is no escape.
    public static func looksEncoded(_ decoded: String) -> Bool {
        let bytes = Array(decoded.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var decodedAny = false
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) {
                out.append(high << 4 | low)
                index += 3
                decodedAny = true
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return decodedAny && String(validating: out, as: UTF8.self) != nil
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
