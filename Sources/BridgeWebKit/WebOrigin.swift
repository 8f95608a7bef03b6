/// The origin of the frame that posted a message, as WebKit reports it: `WKSecurityOrigin`'s
/// `protocol`, `host` and `port` (0 when the port is the scheme's default), or Android's
/// `sourceOrigin`. `serialization` is the text `OriginPolicy` compares with the manifest's
/// `allowedOrigins`: `https://host`, `https://host:8443`, or `null` for an opaque origin.
///
/// The page never supplies these: they come from `WKScriptMessage.frameInfo.securityOrigin`.
public struct WebOrigin: Sendable, Hashable, CustomStringConvertible {
    public let scheme: String
    public let host: String
    /// 0 (or the scheme's default port) means the default; it is left out of `serialization`.
    public let port: Int

    public init(scheme: String, host: String, port: Int) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// The origin of a sandboxed or otherwise opaque frame (WebKit reports an empty protocol and host).
    public static let opaque = WebOrigin(scheme: "", host: "", port: 0)

    public var isOpaque: Bool { scheme.isEmpty || host.isEmpty }

    /// `scheme://host[:port]` as a browser serialises an origin (RFC 6454): scheme and host in
    /// lower case, an IPv6 host in brackets, the port only when it is not the scheme's default;
    /// `null` for an opaque origin.
    public var serialization: String {
        guard !isOpaque else { return "null" }
        let scheme = Self.asciiLowercased(self.scheme)
        var host = Self.asciiLowercased(self.host)
        if host.contains(":"), !host.hasPrefix("[") { host = "[" + host + "]" }
        var text = scheme + "://" + host
        if port != 0, port != Self.defaultPort(of: scheme) { text += ":" + String(port) }
        return text
    }

    public var description: String { serialization }

    static func defaultPort(of scheme: String) -> Int? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        default: return nil
        }
    }

    /// Lower-cases ASCII letters only: a non-ASCII look-alike host must stay as it is, so the
    /// origin policy rejects it rather than matching it by accident.
    private static func asciiLowercased(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
        }))
    }
}
