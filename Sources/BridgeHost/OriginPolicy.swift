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
/// `https://SENDY.co.kr` is the same origin as `https://sendy.co.kr` (hosts are case-insensitive,
/// RFC 3986 §3.2.2) and is accepted, while anything else is rejected:
/// `http:` and every other scheme, userinfo (`https://user@sendy.co.kr`), any path, query or
/// fragment (even a lone `/`), another port (`:8443`), look-alike hosts
/// (`https://sendy.co.kr.evil.example`, a trailing dot), percent-escapes or non-ASCII in the host,
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
    static func canonical(_ origin: String) -> Result<String, Malformed> {
        let bytes = Array(origin.utf8)
        guard bytes.count <= 255 else { return .failure(Malformed(reason: "too long")) }
        guard let separator = origin.firstRange(of: "://") else { return .failure(Malformed(reason: "no scheme")) }
        let scheme = origin[..<separator.lowerBound].lowercased()
        guard scheme == "https" else { return .failure(Malformed(reason: "scheme \(scheme.isEmpty ? "(none)" : scheme) is not https")) }
        let authority = origin[separator.upperBound...]
        if authority.contains("@") { return .failure(Malformed(reason: "userinfo is not allowed")) }
        if authority.contains(where: { "/?#\\".contains($0) }) {
            return .failure(Malformed(reason: "an origin has no path, query or fragment"))
        }
        var host = Substring(authority)
        var port: Substring?
        if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            port = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { return .failure(Malformed(reason: "empty host")) }
        // Plain DNS names only: no IP literals, escapes, IDN in Unicode form, or trailing dot.
        let allowed = host.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        guard allowed, !host.hasPrefix("."), !host.hasSuffix("."), !host.contains("..") else {
            return .failure(Malformed(reason: "host \"\(host)\" is not a plain DNS name"))
        }
        var canonical = "https://" + host.lowercased()
        if let port {
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), number <= 65_535 else {
                return .failure(Malformed(reason: "bad port"))
            }
            if number != 443 { canonical += ":\(number)" }
        }
        return .success(canonical)
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
