import DeeplinkRouting
import Testing

@Suite struct MatchingTests {
    let handler = RoutingFixtures.handler

    @Test func seedCampaignURLRoutesToEventCampaignFromKakaoTalk() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3_signup_retarget&group_id=B&variant=card_scanner_cta&utm_source=kakaotalk&utm_medium=alimtalk")
        #expect(parsed.configuration.name == "eventCampaign")
        #expect(parsed.pathParameters == ["slug": "new-user-promo"])
        #expect(parsed.queryParameters.isEmpty)
        #expect(parsed.campaignMetadata == CampaignMetadata(
            campaignId: "2025Q3_signup_retarget", groupId: "B", variant: "card_scanner_cta",
            utm: ["utm_source": "kakaotalk", "utm_medium": "alimtalk"], source: .kakaotalk))
        #expect(parsed.warnings.isEmpty)
        #expect(parsed.url == "https://sendy.co.kr/event/new-user-promo")
        #expect(parsed.configuration.requiresAuth == false)
    }

    @Test func literalBeatsParameterWhateverTheDeclarationOrder() throws {
        let parameterFirst = try RoutingFixtures.handler(routes: [
            RoutingFixtures.route("vehicleDetail", "/vehicles/:id"),
            RoutingFixtures.route("vehicleSearch", "/vehicles/search"),
        ])
        let literalFirst = try RoutingFixtures.handler(routes: [
            RoutingFixtures.route("vehicleSearch", "/vehicles/search"),
            RoutingFixtures.route("vehicleDetail", "/vehicles/:id"),
        ])
        for handler in [parameterFirst, literalFirst] {
            #expect(try handler.parse("https://sendy.co.kr/vehicles/search").configuration.name == "vehicleSearch")
            #expect(try handler.parse("https://sendy.co.kr/vehicles/truck-1").configuration.name == "vehicleDetail")
        }
    }

    @Test func matchingBacktracksWhenTheLiteralBranchDeadEnds() throws {
        // "/a/b/c" must not get stuck in the literal "b" branch, which has no third level "c".
        let handler = try RoutingFixtures.handler(routes: [
            RoutingFixtures.route("literal", "/a/b/x"),
            RoutingFixtures.route("parameter", "/a/:p/c"),
        ])
        let parsed = try handler.parse("https://sendy.co.kr/a/b/c")
        #expect(parsed.configuration.name == "parameter")
        #expect(parsed.pathParameters == ["p": "b"])
        #expect(try handler.parse("https://sendy.co.kr/a/b/x").configuration.name == "literal")
    }

    @Test func bundledLiteralAndParameterNeighbours() throws {
        #expect(try handler.parse("https://sendy.co.kr/vehicles").configuration.name == "vehicleList")
        #expect(try handler.parse("https://sendy.co.kr/vehicles/porter-2").configuration.name == "vehicleDetail")
        #expect(try handler.parse("https://sendy.co.kr/event/summer/apply").configuration.name == "applyForm")
        #expect(try handler.parse("https://sendy.co.kr/order").configuration.name == "orderList")
        #expect(try handler.parse("https://sendy.co.kr/order/123").pathParameters == ["id": "123"])
    }

    @Test func trailingSlashIsIgnored() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/new-user-promo/?variant=a")
        #expect(parsed.configuration.name == "eventCampaign")
        #expect(parsed.pathParameters["slug"] == "new-user-promo")
        #expect(try handler.parse("https://sendy.co.kr/vehicles/").configuration.name == "vehicleList")
    }

    @Test func emptyMiddleSegmentMatchesNothing() {
        #expect(RoutingFixtures.error("https://sendy.co.kr/event//apply") == .noMatchingRoute(path: "/event//apply", fallback: "https://sendy.co.kr/event//apply"))
    }

    @Test func encodedSlashStaysInsideItsParameter() throws {
        let parsed = try handler.parse("https://sendy.co.kr/checkout/a%2Fb")
        #expect(parsed.configuration.name == "checkout")
        #expect(parsed.pathParameters == ["id": "a/b"])
        #expect(parsed.url == "https://sendy.co.kr/checkout/a%2Fb")
        // Unencoded, the same text is two segments and no checkout route has two.
        #expect(RoutingFixtures.error("https://sendy.co.kr/checkout/a/b")?.fallbackURL == "https://sendy.co.kr/checkout/a/b")
    }

    @Test func plusInTheQueryIsALiteralPlus() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/x/apply?plan=a+b&memo=1%2B1%20=%202")
        #expect(parsed.queryParameters["plan"] == ["a+b"])
        #expect(parsed.queryParameters["memo"] == ["1+1 = 2"])
        #expect(parsed.url == "https://sendy.co.kr/event/x/apply?plan=a%2Bb&memo=1%2B1%20%3D%202")
    }

    @Test func valueSplitsOnTheFirstEqualsOnly() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/x/apply?memo=a=b=c")
        #expect(parsed.queryParameters["memo"] == ["a=b=c"])
    }

    @Test func queryNeverOverridesAPathParameter() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/new-user-promo?slug=other&group_id=A")
        #expect(parsed.pathParameters == ["slug": "new-user-promo"])
        #expect(parsed.queryParameters["slug"] == nil)
        #expect(parsed.warnings.map(\.field) == ["query.slug"])
        #expect(parsed.warnings.map(\.losesPart) == [true], "the query's slug is lost: --strict refuses the link")
        #expect(parsed.campaignMetadata.groupId == "A")
    }

    /// `?=x` names nothing: the item is dropped, and the drop is a lost part of the link.
    @Test func aQueryItemWithoutANameIsDroppedAsALostPart() throws {
        let parsed = try handler.parse("https://sendy.co.kr/vehicles?=seoul&region=busan")
        #expect(parsed.queryParameters["region"] == ["busan"])
        #expect(parsed.warnings.map(\.field) == ["query"])
        #expect(parsed.warnings.map(\.losesPart) == [true])
        #expect(parsed.warnings.first?.message.contains("\"=seoul\"") == true, "\(parsed.warnings)")
        #expect(parsed.url == "https://sendy.co.kr/vehicles?region=busan")
    }

    @Test func repeatedQueryKeysAreKeptInOrder() throws {
        let parsed = try handler.parse("https://sendy.co.kr/vehicles?region=seoul&tag=x&region=busan&tag=y")
        #expect(parsed.queryParameters["region"] == ["seoul", "busan"])
        #expect(parsed.queryParameters["tag"] == ["x", "y"])
        #expect(parsed.url == "https://sendy.co.kr/vehicles?region=seoul&region=busan&tag=x&tag=y")
    }

    /// Double encoding is "%" followed by two hex digits left after decoding; a percent sign with
    /// text after it (a discount, "100%G") is just text.
    @Test func doubleEncodingNeedsAPercentAndTwoHexDigits() throws {
        let doubled = try handler.parse("https://sendy.co.kr/event/x/apply?memo=%25EC%2584%25BC")
        #expect(doubled.queryParameters["memo"] == ["%EC%84%BC"])
        #expect(doubled.warnings.map(\.field) == ["query.memo"])
        for memo in ["100%25G", "50%25", "%25A", "%25G1", "%25%25", "a%25Z9"] {
            let parsed = try handler.parse("https://sendy.co.kr/event/x/apply?memo=\(memo)")
            #expect(parsed.warnings.isEmpty, "memo=\(memo) decodes to \(parsed.queryParameters["memo"] ?? [])")
        }
        #expect(PercentEncoding.looksEncoded("%2B") && PercentEncoding.looksEncoded("x%6Ab"))
        // A lone continuation byte is no UTF-8: "%ab" after decoding is text, not an escape.
        #expect(!PercentEncoding.looksEncoded("x%ab"))
        #expect(!PercentEncoding.looksEncoded("%G1") && !PercentEncoding.looksEncoded("%1G") && !PercentEncoding.looksEncoded("%1"))
    }

    /// A C1 control (U+0080-U+009F, two bytes in UTF-8) is refused like the C0 ones, wherever it
    /// stands and whatever is around it; the two-byte letters beside them are text.
    @Test func aC1ControlCharacterIsRefusedAndNamed() throws {
        for (text, at) in [("https://sendy.co.kr/vehicles?region=a\u{85}b", 38), ("https://sendy.co.kr/vehicles\u{80}", 29),
                           ("https://sendy.co.kr/vehicles?region=\u{9F}", 37)] {
            let scalar = String(text.unicodeScalars.first { (0x80...0x9F).contains($0.value) }!.value, radix: 16, uppercase: true)
            #expect(throws: DeeplinkError.malformedURL("control character U+\(scalar) at character \(at)")) { try handler.parse(text) }
        }
        for letter in ["\u{A9}", "\u{7FF}", "é", "\u{C0}"] {
            let parsed = try handler.parse("https://sendy.co.kr/vehicles?region=" + letter)
            #expect(parsed.queryParameters["region"] == [letter])
        }
    }

    @Test func repeatedCampaignFieldKeepsTheFirstWithAWarning() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/x?variant=a&variant=b")
        #expect(parsed.campaignMetadata.variant == "a")
        #expect(parsed.warnings.map(\.field) == ["query.variant"])
        #expect(parsed.warnings.map(\.losesPart) == [true])
    }

    @Test func koreanInPathAndQuery() throws {
        let encoded = try handler.parse("https://sendy.co.kr/checkout/%EC%84%BC%EB%94%94?variant=%EC%B9%B4%EB%93%9C%20%EC%8A%A4%EC%BA%90%EB%84%88")
        #expect(encoded.pathParameters["id"] == "센디")
        #expect(encoded.campaignMetadata.variant == "카드 스캐너")
        // Pasted unencoded (IRI style): taken as its UTF-8, same result.
        let pasted = try handler.parse("https://sendy.co.kr/checkout/센디?variant=카드%20스캐너")
        #expect(pasted == encoded)
        #expect(pasted.url == "https://sendy.co.kr/checkout/%EC%84%BC%EB%94%94")
    }

    @Test func literalSegmentsAreComparedDecoded() throws {
        let handler = try RoutingFixtures.handler(routes: [RoutingFixtures.route("koreanEvent", "/이벤트/:slug")])
        #expect(try handler.parse("https://sendy.co.kr/%EC%9D%B4%EB%B2%A4%ED%8A%B8/summer").configuration.name == "koreanEvent")
        #expect(try handler.parse("https://sendy.co.kr/이벤트/summer").pathParameters == ["slug": "summer"])
        #expect(try handler.urlBuilder.build(route: "koreanEvent", parameters: ["slug": "summer"]) == "https://sendy.co.kr/%EC%9D%B4%EB%B2%A4%ED%8A%B8/summer")
    }

    @Test func rootPatternMatchesTheEmptyPath() throws {
        let handler = try RoutingFixtures.handler(routes: [RoutingFixtures.route("home", "/"), RoutingFixtures.route("event", "/event/:slug")])
        #expect(try handler.parse("https://sendy.co.kr").configuration.name == "home")
        #expect(try handler.parse("https://sendy.co.kr/").configuration.name == "home")
        #expect(try handler.parse("sendy://").configuration.name == "home")
    }
}

@Suite struct ParameterTypeTests {
    let handler = RoutingFixtures.handler

    @Test func intAcceptsDigitsThatFitInt64() throws {
        #expect(try handler.parse("https://sendy.co.kr/order/0").pathParameters["id"] == "0")
        #expect(try handler.parse("https://sendy.co.kr/order/9223372036854775807").pathParameters["id"] == "9223372036854775807")
        for bad in ["-1", "%2B1", "9223372036854775808", "12a", "1.0", "%EF%BC%91"] {
            let error = RoutingFixtures.error("https://sendy.co.kr/order/\(bad)")
            guard case .badParameter(let name, _, let expected, let fallback) = error else {
                Issue.record("order/\(bad): expected badParameter, got \(String(describing: error))")
                continue
            }
            #expect(name == "path.id")
            #expect(expected == .int)
            #expect(fallback == "https://sendy.co.kr/order/\(bad)")
        }
    }

    @Test func slugIsLowerCaseLettersDigitsAndHyphens() {
        #expect(ParameterRules.isValid("new-user-promo", as: .slug))
        #expect(ParameterRules.isValid(String(repeating: "a", count: 64), as: .slug))
        #expect(!ParameterRules.isValid(String(repeating: "a", count: 65), as: .slug))
        #expect(!ParameterRules.isValid("New", as: .slug))
        #expect(!ParameterRules.isValid("a_b", as: .slug))
        #expect(!ParameterRules.isValid("이벤트", as: .slug))
        #expect(!ParameterRules.isValid("", as: .slug))
        #expect(RoutingFixtures.error("https://sendy.co.kr/event/New_Promo") == .badParameter(
            name: "path.slug", value: "New_Promo", expected: .slug, fallback: "https://sendy.co.kr/event/New_Promo"))
    }

    @Test func uuidIsEightFourFourFourTwelveHex() {
        #expect(ParameterRules.isValid("3f1c2a9e-0b1d-4c2e-9f00-aabbccddeeff", as: .uuid))
        #expect(ParameterRules.isValid("3F1C2A9E-0B1D-4C2E-9F00-AABBCCDDEEFF", as: .uuid))
        #expect(!ParameterRules.isValid("3f1c2a9e0b1d4c2e9f00aabbccddeeff", as: .uuid))
        #expect(!ParameterRules.isValid("3f1c2a9e-0b1d-4c2e-9f00-aabbccddeefg", as: .uuid))
        #expect(!ParameterRules.isValid("3f1c2a9e-0b1d-4c2e-9f00-aabbccddeef", as: .uuid))
    }

    @Test func stringIsAnyNonEmptyText() {
        #expect(ParameterRules.isValid("a b/c?d", as: .string))
        #expect(!ParameterRules.isValid("", as: .string))
    }

    @Test func typedQueryFieldsAreChecked() throws {
        #expect(try handler.parse("https://sendy.co.kr/vehicles?page=2&from=home-banner").queryParameters["page"] == ["2"])
        #expect(RoutingFixtures.error("https://sendy.co.kr/vehicles?page=two") == .badParameter(
            name: "query.page", value: "two", expected: .int, fallback: "https://sendy.co.kr/vehicles?page=two"))
        // A declared field left empty is absent, not ill-typed.
        #expect(try handler.parse("https://sendy.co.kr/vehicles?page=").queryParameters["page"] == nil)
    }

    @Test func undeclaredQueryKeysAreKeptUntyped() throws {
        let parsed = try handler.parse("https://sendy.co.kr/vehicles?debug&ref=%ED%99%88")
        #expect(parsed.queryParameters["debug"] == [""])
        #expect(parsed.queryParameters["ref"] == ["홈"])
    }
}
