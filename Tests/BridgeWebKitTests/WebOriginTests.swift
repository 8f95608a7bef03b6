import Testing
import BridgeWebKit

@Suite("WebOrigin: WKSecurityOrigin's (protocol, host, port) as the origin text the policy compares")
struct WebOriginTests {
    @Test("port 0 and the scheme's default port are left out; others are kept", arguments: [
        (WebOrigin(scheme: "https", host: "sendy.co.kr", port: 0), "https://sendy.co.kr"),
        (WebOrigin(scheme: "https", host: "sendy.co.kr", port: 443), "https://sendy.co.kr"),
        (WebOrigin(scheme: "https", host: "sendy.co.kr", port: 8443), "https://sendy.co.kr:8443"),
        (WebOrigin(scheme: "http", host: "localhost", port: 80), "http://localhost"),
        (WebOrigin(scheme: "http", host: "localhost", port: 8080), "http://localhost:8080"),
        (WebOrigin(scheme: "HTTPS", host: "SENDY.co.kr", port: 0), "https://sendy.co.kr"),
        (WebOrigin(scheme: "https", host: "::1", port: 0), "https://[::1]"),
        (WebOrigin(scheme: "", host: "", port: 0), "null"),
        (WebOrigin(scheme: "file", host: "", port: 0), "null"),
        (WebOrigin(scheme: "", host: "sendy.co.kr", port: 0), "null"),
        (WebOrigin(scheme: "https", host: "[::1]", port: 8443), "https://[::1]:8443"),
        (WebOrigin(scheme: "wss", host: "sendy.co.kr", port: 443), "wss://sendy.co.kr"),
        (WebOrigin(scheme: "ws", host: "sendy.co.kr", port: 80), "ws://sendy.co.kr"),
        (WebOrigin(scheme: "https", host: "sendy.co.kr", port: 80), "https://sendy.co.kr:80"),
        (WebOrigin(scheme: "ftp", host: "sendy.co.kr", port: 21), "ftp://sendy.co.kr:21"),
    ])
    func serialization(origin: WebOrigin, expected: String) {
        #expect(origin.serialization == expected)
    }

    @Test("a non-ASCII look-alike host is not lower-cased into an allowed one")
    func nonASCIIHostStays() {
        #expect(WebOrigin(scheme: "https", host: "SENDY.CO.KR\u{0130}", port: 0).serialization == "https://sendy.co.kr\u{0130}")
    }
}
