import DeeplinkRouting
import Testing
import TestSupport

/// Seeded hostile input: URL-shaped text glued from the pieces that trip parsers. Every input
/// either fails with a typed error or routes; what routes satisfies the invariants below.
@Suite struct RobustnessTests {
    static let prefixes = [
        "https://sendy.co.kr", "https://SENDY.CO.KR", "https://www.sendy.co.kr", "https://sendy.co.kr:443", "https://sendy.co.kr:",
        "https://sendy.co.kr.evil.example", "https://evil.example", "https://sendy.co.kr@evil.example", "https://evil.example@sendy.co.kr",
        "http://sendy.co.kr", "sendy://", "SENDY:", "sendy:/", "https:", "https:///", "ftp://sendy.co.kr", "", "//sendy.co.kr",
        "https://[::1]", "https://sendy.co.kr#@evil.example",
    ]
    static let goodPrefixes = ["https://sendy.co.kr", "https://WWW.Sendy.co.kr", "sendy:/", "sendy:"]
    static let skeletons = ["/event/", "/event/new-user-promo/apply", "/order/", "/checkout/", "/vehicles", "/vehicles/", "/start", "/review/", "/order"]
    static let pieces = [
        "/", "/", "/", "event", "order", "vehicles", "checkout", "apply", "review", "start", "new-user-promo", "12", "-1",
        "?", "&", "=", "#", "%", "%2F", "%25", "%41", "%E", "%ZZ", "%EC%84%BC", "%C3%28", "+", " ", "\t", "센디", "😀",
        "campaign_id=", "variant=", "utm_source=kakaotalk", "slug=", "page=", "page=x", "@", ":", "..", ".", "\\",
        "3f1c2a9e-0b1d-4c2e-9f00-aabbccddeeff", "\u{85}", "\u{7F}",
    ]

    @Test func hostileInputNeverCrashesAndWhatRoutesIsConsistent() throws {
        let handler = RoutingFixtures.handler
        var random = SeededGenerator(seed: 0xB0B)
        var routed = 0
        for caseNumber in 0..<20_000 {
            // Half the time a good prefix and a real route's skeleton, so that plenty of inputs get
            // as far as matching; then noise in the last segment and in the query.
            var text = Int.random(in: 0...1, using: &random) == 0
                ? Self.goodPrefixes.randomElement(using: &random)! + Self.skeletons.randomElement(using: &random)!
                : Self.prefixes.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 0...3, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            if Int.random(in: 0...1, using: &random) == 0 {
                text += "?"
                for _ in 0..<Int.random(in: 0...8, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            }
            let parsed: ParsedDeeplink
            do {
                parsed = try handler.parse(text)
            } catch {
                // A fallback is only ever on our own web base.
                if let fallback = error.fallbackURL {
                    #expect(fallback.hasPrefix("https://sendy.co.kr/"), "case \(caseNumber): \(text.debugDescription) -> \(fallback)")
                }
                continue
            }
            routed += 1
            let lowered = text.lowercased()
            #expect(lowered.hasPrefix("https://sendy.co.kr") || lowered.hasPrefix("https://www.sendy.co.kr") || lowered.hasPrefix("sendy:"),
                    "case \(caseNumber): accepted \(text.debugDescription)")
            #expect(!lowered.hasPrefix("https://sendy.co.kr.") && !lowered.hasPrefix("https://sendy.co.kr@"), "case \(caseNumber): \(text.debugDescription)")
            // The canonical url parses back to the same destination.
            let again = try handler.parse(parsed.url, source: parsed.campaignMetadata.source)
            #expect(again.configuration == parsed.configuration, "case \(caseNumber): \(text.debugDescription)")
            #expect(again.pathParameters == parsed.pathParameters, "case \(caseNumber): \(text.debugDescription)")
            #expect(again.queryParameters.mapValues { $0.filter { !$0.isEmpty } }.filter { !$0.value.isEmpty }
                == parsed.queryParameters.mapValues { $0.filter { !$0.isEmpty } }.filter { !$0.value.isEmpty },
                    "case \(caseNumber): \(text.debugDescription)")
        }
        // The generator must actually reach the routing code, or this test proves nothing.
        #expect(routed > 1_000, "only \(routed) inputs routed")
    }
}
