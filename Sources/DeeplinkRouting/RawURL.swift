/// A URL split into its raw (still encoded) parts, by hand: Foundation's URL and URLComponents
/// decode and normalise differently across platforms, and the routing rules (split the encoded
/// path before decoding, `+` is a plus) need the raw text.
///
/// Accepted input: ASCII without spaces or control characters, plus raw non-ASCII text (an IRI,
/// as operations staff paste Korean into links), which is taken as its UTF-8 bytes exactly as if
/// it had been percent-encoded. The fragment (`#...`) is dropped: it never reaches the app's router.
struct RawURL {
    /// Lower-cased scheme.
    let scheme: String
    /// The text after "//" up to the path, or nil when the URL has no authority.
    let authority: Substring?
    /// The raw path, e.g. "/event/new-user-promo" ("" when absent).
    let path: Substring
    /// The raw query after "?", or nil when there is no "?".
    let query: Substring?

    static func split(_ text: String) throws(DeeplinkError) -> RawURL {
        if text.isEmpty { throw .malformedURL("empty string") }
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            if scalar == " " {
                throw .malformedURL("space at character \(offset + 1); a link carries a space as %20")
            }
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value) {
                throw .malformedURL("control character U+\(String(scalar.value, radix: 16, uppercase: true)) at character \(offset + 1)")
            }
        }
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let colon = rest.firstIndex(of: ":") else {
            throw .malformedURL("no scheme in \"\(text)\" (expected https://... or a custom scheme)")
        }
        let scheme = rest[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter,
              scheme.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0) })
        else {
            throw .malformedURL("\"\(scheme)\" is not a URL scheme")
        }
        rest = rest[rest.index(after: colon)...]
        var authority: Substring?
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            authority = rest[..<end]
            rest = rest[end...]
        }
        var query: Substring?
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        return RawURL(scheme: scheme.lowercased(), authority: authority, path: rest, query: query)
    }

    /// The path split on "/" while still encoded (so %2F stays inside its segment): the leading
    /// slash and one trailing slash are dropped; an empty segment in the middle stays empty.
    static func rawSegments(of path: Substring) -> [Substring] {
        var body = path
        if body.hasPrefix("/") { body = body.dropFirst() }
        if body.isEmpty { return [] }
        var segments = body.split(separator: "/", omittingEmptySubsequences: false)
        if segments.last?.isEmpty == true { segments.removeLast() }
        return segments
    }
}

/// host and port of an authority, with userinfo refused.
struct Authority {
    let host: String
    let port: Substring?

    static func parse(_ authority: Substring) throws(DeeplinkError) -> Authority {
        if authority.contains("@") {
            throw .malformedURL("links with user information (user@host) are not accepted")
        }
        // An IPv6 literal keeps its colons inside brackets.
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            let after = authority[authority.index(after: close)...]
            let host = String(authority[...close]).lowercased()
            if after.isEmpty { return Authority(host: host, port: nil) }
            guard after.hasPrefix(":") else { throw .malformedURL("bad authority \"\(authority)\"") }
            return Authority(host: host, port: after.dropFirst())
        }
        if let colon = authority.lastIndex(of: ":") {
            return Authority(host: authority[..<colon].lowercased(), port: authority[authority.index(after: colon)...])
        }
        return Authority(host: authority.lowercased(), port: nil)
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
