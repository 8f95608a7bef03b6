import BridgeHost
import Testing

@Suite("OriginPolicy: canonical origins compared exactly")
struct OriginPolicyTests {
    let policy = OriginPolicy(allowedOrigins: ["https://sendy.co.kr", "https://event.sendy.co.kr:8443"])

    @Test func allowedOriginsAreKeptInCanonicalFormAndBadOnesDropped() {
        let policy = OriginPolicy(allowedOrigins: [
            "https://SENDY.co.kr", "HTTPS://a.example:443", "https://b.example:8443", "http://c.example", "https://d.example/",
            "https://user@e.example", "null", "https://f.example/path", "https://g.example:", "",
        ])
        #expect(policy.allowedOrigins == ["https://sendy.co.kr", "https://a.example", "https://b.example:8443"])
    }

    /// Origins the WebView could attest, and whether the policy lets them talk to the bridge.
    static let accepted = [
        "https://sendy.co.kr", "https://SENDY.CO.KR", "HTTPS://sendy.co.kr", "https://sendy.co.kr:443",
        "https://event.sendy.co.kr:8443", "https://Event.Sendy.co.kr:8443", "https://sendy.co.kr:00443", "hTTpS://SeNdY.Co.Kr:443",
    ]

    @Test(arguments: accepted)
    func sameOriginWhateverTheCaseOrTheDefaultPort(origin: String) {
        #expect(policy.rejection(of: origin) == nil)
    }

    static let rejected: [(origin: String, reason: String)] = [
        ("https://sendy.co.kr/", "an origin has no path, query or fragment"),
        ("https://sendy.co.kr/event/new-user-promo", "an origin has no path, query or fragment"),
        ("https://sendy.co.kr?x=1", "an origin has no path, query or fragment"),
        ("https://sendy.co.kr#top", "an origin has no path, query or fragment"),
        ("https://user@sendy.co.kr", "userinfo is not allowed"),
        ("https://user:secret@sendy.co.kr", "userinfo is not allowed"),
        ("null", "no scheme"),
        ("", "no scheme"),
        ("http://sendy.co.kr", "scheme http is not https"),
        ("://sendy.co.kr", "scheme (none) is not https"),
        ("https://", "empty host"),
        ("https://sendy.co.kr.", "is not a plain DNS name"),
        ("https://.sendy.co.kr", "is not a plain DNS name"),
        ("https://sendy..co.kr", "is not a plain DNS name"),
        ("https://%73endy.co.kr", "is not a plain DNS name"),
        ("https://센디.kr", "is not a plain DNS name"),
        ("https://[::1]", "is not a plain DNS name"),
        ("https://sendy.co.kr:", "bad port"),
        ("https://sendy.co.kr:99999", "bad port"),
        ("https://sendy.co.kr:+443", "bad port"),
        ("https://sendy.co.kr:123456", "bad port"),
        ("https://sendy.co.kr:4a3", "bad port"),
        ("https://sendy.co.kr:６５", "bad port"),
        ("https://sen dy.co.kr", "is not a plain DNS name"),
        ("https://sendy.co.kr\u{301}", "is not a plain DNS name"),
        ("https://sendy_co.kr", "is not a plain DNS name"),
        ("https:/\u{338}/sendy.co.kr", "no scheme"),
        ("https\u{301}://sendy.co.kr", "is not https"),
        ("https://" + String(repeating: "a", count: 250) + ".kr", "too long"),
    ]

    @Test(arguments: rejected)
    func notAWebOriginSaysWhy(origin: String, reason: String) {
        let rejection = policy.rejection(of: origin)
        #expect(rejection?.contains("is not a web origin: ") == true, "\(origin): \(rejection ?? "accepted")")
        #expect(rejection?.hasSuffix(reason) == true, "\(origin): \(rejection ?? "accepted")")
    }

    @Test func theCanonicalFormLowersTheHostAndDropsOnlyTheDefaultPort() {
        let policy = OriginPolicy(allowedOrigins: ["HTTPS://Sendy.CO.kr:00443", "https://A-1.example:08443", "https://b.example:0"])
        #expect(policy.allowedOrigins == ["https://sendy.co.kr", "https://a-1.example:8443", "https://b.example:0"])
    }

    @Test func aWellFormedOriginThatIsNotListed() {
        for origin in ["https://sendy.co.kr:8443", "https://event.sendy.co.kr", "https://sendy.co.kr.evil.example", "https://evil.example"] {
            #expect(policy.rejection(of: origin) == "origin \"\(origin)\" is not an allowed origin")
        }
    }

    @Test func theOriginIsQuotedShortAndWithoutControlCharacters() {
        #expect(policy.rejection(of: "https://a\u{1}b") == "origin \"https://a\\u{1}b\" is not a web origin: host \"a\u{1}b\" is not a plain DNS name")
        let long = "https://" + String(repeating: "x", count: 300)
        let rejection = policy.rejection(of: long) ?? ""
        #expect(rejection.contains(String(repeating: "x", count: 112) + "…\""))
        #expect(!rejection.contains(String(repeating: "x", count: 113)))
    }
}
