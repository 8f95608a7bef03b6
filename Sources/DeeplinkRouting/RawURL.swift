/// A URL split into its raw (still encoded) parts, by hand: Foundation's URL and URLComponents
/// decode and normalise differently across platforms, and the routing rules (split the encoded
/// path before decoding, `+` is a plus) need the raw text.
///
/// Accepted input: ASCII without spaces or control characters, plus raw non-ASCII text (an IRI,
/// as operations staff paste Korean into links), which is taken as its UTF-8 bytes exactly as if
/// it had been percent-encoded. Splitting works on UTF-8 bytes: every delimiter is ASCII, and
/// Character-level string walking costs grapheme breaking for nothing. The fragment (`#...`) is dropped: it never reaches the app's router.
/// Undecoded URL bytes.
typealias RawBytes = ArraySlice<UInt8>

struct RawURL {
    /// Lower-cased scheme.
    let scheme: String
    /// The bytes after "//" up to the path, or nil when the URL has no authority.
    let authority: RawBytes?
    /// The raw path, e.g. "/event/new-user-promo" (empty when absent).
    let path: RawBytes
    /// The raw query after "?", or nil when there is no "?".
    let query: RawBytes?

    static func split(_ text: String) throws(DeeplinkError) -> RawURL {
        if text.isEmpty { throw .malformedURL("empty string") }
        let bytes = Array(text.utf8)
        // Byte scan first (the common, clean case); the scalar walk only to name the culprit.
        // C1 controls U+0080-U+009F are the UTF-8 pairs C2 80...C2 9F.
        var previous: UInt8 = 0
        let suspicious = bytes.contains { byte in
            defer { previous = byte }
            return byte <= 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte))
        }
        if suspicious {
            for (offset, scalar) in text.unicodeScalars.enumerated() {
                if scalar == " " {
                    throw .malformedURL("space at character \(offset + 1); a link carries a space as %20")
                }
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                    throw .malformedURL("control character U+\(String(scalar.value, radix: 16, uppercase: true)) at character \(offset + 1)")
                }
            }
        }
        var rest = bytes[...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else {
            throw .malformedURL("no scheme in \"\(text)\" (expected https://... or a custom scheme)")
        }
        let scheme = rest[..<colon]
        guard let first = scheme.first, isASCIILetter(first),
              scheme.allSatisfy({ isASCIILetter($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
        else {
            throw .malformedURL("\"\(Self.text(scheme))\" is not a URL scheme")
        }
        rest = rest[(colon + 1)...]
        var authority: RawBytes?
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) ?? rest.endIndex
            authority = rest[..<end]
            rest = rest[end...]
        }
        var query: RawBytes?
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            query = rest[(question + 1)...]
            rest = rest[..<question]
        }
        return RawURL(scheme: Self.text(scheme).lowercased(), authority: authority, path: rest, query: query)
    }

    /// The path split on "/" while still encoded (so %2F stays inside its segment): the leading
    /// slash and one trailing slash are dropped; an empty segment in the middle stays empty.
    static func rawSegments(of path: RawBytes) -> [RawBytes] {
        var body = path
        if body.first == UInt8(ascii: "/") { body = body.dropFirst() }
        if body.isEmpty { return [] }
        var segments = body.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        if segments.last?.isEmpty == true { segments.removeLast() }
        return segments
    }

    /// Raw bytes back as text (for messages): slices are cut at ASCII delimiters of valid UTF-8.
    static func text(_ raw: RawBytes) -> String {
        String(decoding: raw, as: UTF8.self)
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

/// host and port of an authority, with userinfo refused.
struct Authority {
    let host: String
    let port: String?

    static func parse(_ authority: RawBytes) throws(DeeplinkError) -> Authority {
        if authority.contains(UInt8(ascii: "@")) {
            throw .malformedURL("links with user information (user@host) are not accepted")
        }
        // An IPv6 literal keeps its colons inside brackets.
        if authority.first == UInt8(ascii: "["), let close = authority.firstIndex(of: UInt8(ascii: "]")) {
            let after = authority[(close + 1)...]
            let host = RawURL.text(authority[...close]).lowercased()
            if after.isEmpty { return Authority(host: host, port: nil) }
            guard after.first == UInt8(ascii: ":") else { throw .malformedURL("bad authority \"\(RawURL.text(authority))\"") }
            return Authority(host: host, port: RawURL.text(after.dropFirst()))
        }
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            return Authority(host: RawURL.text(authority[..<colon]).lowercased(), port: RawURL.text(authority[(colon + 1)...]))
        }
        return Authority(host: RawURL.text(authority).lowercased(), port: nil)
    }
}
