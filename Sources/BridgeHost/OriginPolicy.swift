#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides whether the WebView-attested origin of a message may talk to the bridge.
///
/// The origin given here must be the one the WebView attests for the frame that posted the
/// message (WKScriptMessage.frameInfo.securityOrigin, Android's sourceOrigin), never a URL the page
/// reports about itself. It is parsed, put in canonical form, and compared as an exact string with
/// the manifest's allowed origins (also canonicalised). Canonical form: `https://host[:port]` with
/// the host in lower case and the default port 443 dropped — what a browser serialises, so
/// `https://WWW.Example.com` is the same origin as `https://www.example.com` (hosts are case-insensitive,
/// RFC 3986 §3.2.2) and is accepted, while anything else is rejected:
/// `http:` and every other scheme, userinfo (`https://user@www.example.com`), any path, query or
/// fragment (even a lone `/`), another port (`:8443`), look-alike hosts
/// (`https://www.example.com.evil.example`, a trailing dot), percent-escapes or non-ASCII in the host,
/// and the opaque origin `null`.
public struct OriginPolicy: Sendable {
    public let allowedOrigins: Set<String>
    /// The same, for the check of every message: an origin byte for byte equal to an allowed one
    /// is accepted without parsing (a canonical origin is its own canonical form).
    private let allowedBytes: [[UInt8]]

    public init(allowedOrigins: [String]) {
        self.allowedOrigins = Set(allowedOrigins.compactMap { try? OriginPolicy.canonical($0).get() })
        allowedBytes = self.allowedOrigins.sorted().map { Array($0.utf8) }
    }

    /// nil when allowed, else why not.
    public func rejection(of origin: String) -> String? {
        var native = origin  // withUTF8 reads a native string in place
        let exact = native.withUTF8 { given in
            allowedBytes.contains { allowed in
                allowed.count == given.count && allowed.withUnsafeBytes { memcmp($0.baseAddress!, given.baseAddress!, given.count) == 0 }
            }
        }
        if exact { return nil }
        switch OriginPolicy.canonical(origin) {
        case .failure(let reason):
            return "origin \"\(OriginPolicy.quoted(origin))\" is not a web origin: \(reason)"
        case .success(let canonical):
            return allowedOrigins.contains(canonical)
                ? nil
                : "origin \"\(OriginPolicy.quoted(origin))\" is not an allowed origin"
        }
    }

    /// Why a text is not a web origin, as a phrase for the rejection message.
    struct Malformed: Error, CustomStringConvertible {
        let reason: String
        var description: String { reason }
    }

    /// `https://host[:port]` in canonical form, or why the text is not such an origin.
    ///
    /// Read as UTF-8 bytes: every character the form allows is ASCII, so a byte outside it fails
    /// the rule it is found under. (A Character-level reading cost 30,000 instructions for an
    /// origin like `https://WWW.EXAMPLE.com:443`, a quarter of a whole message.)
    static func canonical(_ origin: String) -> Result<String, Malformed> {
        var text = origin
        return text.withUTF8 { canonical(utf8: $0) }
    }

    private static func canonical(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Result<String, Malformed> {
        guard bytes.count <= 255 else { return .failure(Malformed(reason: "too long")) }
        guard let separator = firstSchemeSeparator(in: bytes) else { return .failure(Malformed(reason: "no scheme")) }
        let scheme = String(decoding: bytes[..<separator], as: UTF8.self).lowercased()
        guard scheme == "https" else { return .failure(Malformed(reason: "scheme \(scheme.isEmpty ? "(none)" : scheme) is not https")) }
        let authority = bytes[(separator + 3)...]
        if authority.contains(UInt8(ascii: "@")) { return .failure(Malformed(reason: "userinfo is not allowed")) }
        if authority.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "\\") }) {
            return .failure(Malformed(reason: "an origin has no path, query or fragment"))
        }
        var host = authority
        var port: Slice<UnsafeBufferPointer<UInt8>>?
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            host = bytes[authority.startIndex..<colon]
            port = bytes[(colon + 1)..<authority.endIndex]
        }
        guard !host.isEmpty else { return .failure(Malformed(reason: "empty host")) }
        // Plain DNS names only: no IP literals, escapes, IDN in Unicode form, or trailing dot.
        let dot = UInt8(ascii: ".")
        let plain = host.allSatisfy(isHostByte) && host.first != dot && host.last != dot
            && !zip(host, host.dropFirst()).contains { $0 == dot && $1 == dot }
        guard plain else {
            return .failure(Malformed(reason: "host \"\(String(decoding: host, as: UTF8.self))\" is not a plain DNS name"))
        }
        var canonical = [UInt8]("https://".utf8)
        canonical.reserveCapacity(8 + host.count + 6)
        for byte in host { canonical.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte) }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy(isDigit) else { return .failure(Malformed(reason: "bad port")) }
            let number = port.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard number <= 65_535 else { return .failure(Malformed(reason: "bad port")) }
            if number != 443 { canonical.append(contentsOf: ":\(number)".utf8) }
        }
        return .success(String(decoding: canonical, as: UTF8.self))
    }

    /// Where the first "://" starts.
    private static func firstSchemeSeparator(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard bytes.count >= 3 else { return nil }
        for index in 0...(bytes.count - 3)
        where bytes[index] == UInt8(ascii: ":") && bytes[index + 1] == UInt8(ascii: "/") && bytes[index + 2] == UInt8(ascii: "/") {
            return index
        }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// The origin shortened and with control characters escaped, for messages.
    static func quoted(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(120) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 120 ? out + "…" : out
    }
}
