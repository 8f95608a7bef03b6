import DeeplinkRouting
import JSONCore
import Testing

/// Schemes, hosts, ports, push payloads, and the fallback each failure carries.
@Suite struct EntryTests {
    let handler = RoutingFixtures.handler

    @Test func hostIsCaseInsensitiveAndWWWOnlyBecauseItIsListed() throws {
        #expect(try handler.parse("HTTPS://SENDY.CO.KR/event/x").configuration.name == "eventCampaign")
        #expect(try handler.parse("https://www.sendy.co.kr/event/x").configuration.name == "eventCampaign")
        let withoutWWW = DeeplinkHandler(routes: handler.routes, universalLinkHosts: ["sendy.co.kr"], customScheme: "sendy", webBaseURL: "https://sendy.co.kr")
        #expect(RoutingFixtures.error("https://www.sendy.co.kr/event/x", handler: withoutWWW) == .unknownHost("www.sendy.co.kr", fallback: nil))
    }

    @Test func foreignHostsNeverGetAFallback() {
        #expect(RoutingFixtures.error("https://evil.example/event/x") == .unknownHost("evil.example", fallback: nil))
        #expect(RoutingFixtures.error("https://sendy.co.kr.evil.example/event/x") == .unknownHost("sendy.co.kr.evil.example", fallback: nil))
        #expect(RoutingFixtures.error("http://evil.example/event/x") == .wrongScheme("http", fallback: nil))
        #expect(RoutingFixtures.error("https://sendy.co.kr@evil.example/event/x")?.fallbackURL == nil)
    }

    @Test func onlyTheDefaultPort() throws {
        #expect(try handler.parse("https://sendy.co.kr:443/event/x").configuration.name == "eventCampaign")
        #expect(RoutingFixtures.error("https://sendy.co.kr:8443/event/x") == .unknownHost("sendy.co.kr:8443", fallback: "https://sendy.co.kr/event/x"))
    }

    @Test func plainHTTPOnAKnownHostFallsBackToHTTPS() {
        #expect(RoutingFixtures.error("http://sendy.co.kr/event/x?variant=a") == .wrongScheme("http", fallback: "https://sendy.co.kr/event/x?variant=a"))
        #expect(RoutingFixtures.error("ftp://example.com/x") == .wrongScheme("ftp", fallback: nil))
    }

    @Test func unknownPathFallsBackToTheWebPageOfThatPath() {
        let error = RoutingFixtures.error("https://sendy.co.kr/new-feature/42?campaign_id=c1&utm_source=kakaotalk")
        #expect(error == .noMatchingRoute(path: "/new-feature/42", fallback: "https://sendy.co.kr/new-feature/42?campaign_id=c1&utm_source=kakaotalk"))
        // Raw Korean in a fallback comes out percent-encoded.
        #expect(RoutingFixtures.error("https://sendy.co.kr/새기능")?.fallbackURL == "https://sendy.co.kr/%EC%83%88%EA%B8%B0%EB%8A%A5")
    }

    @Test func customSchemeHostIsTheFirstSegment() throws {
        let parsed = try handler.parse("sendy://event/new-user-promo?variant=a")
        #expect(parsed.configuration.name == "eventCampaign")
        #expect(parsed.pathParameters == ["slug": "new-user-promo"])
        #expect(parsed.campaignMetadata.source == .appInternal)
        #expect(parsed.url == "https://sendy.co.kr/event/new-user-promo")
        #expect(try handler.parse("SENDY://order/7").pathParameters == ["id": "7"])
        #expect(try handler.parse("sendy:///order/7").pathParameters == ["id": "7"])
        #expect(RoutingFixtures.error("sendy://nowhere/1") == .noMatchingRoute(path: "/nowhere/1", fallback: "https://sendy.co.kr/nowhere/1"))
    }

    @Test func sourceInference() throws {
        #expect(try handler.parse("https://sendy.co.kr/event/x").campaignMetadata.source == .externalURL)
        #expect(try handler.parse("https://sendy.co.kr/event/x?utm_source=kakaotalk").campaignMetadata.source == .kakaotalk)
        #expect(try handler.parse("https://sendy.co.kr/event/x?utm_medium=alimtalk").campaignMetadata.source == .kakaotalk)
        #expect(try handler.parse("sendy://event/x?utm_medium=alimtalk").campaignMetadata.source == .kakaotalk)
        #expect(try handler.parse("sendy://event/x").campaignMetadata.source == .appInternal)
        // An explicit source wins over every inference.
        #expect(try handler.parse("https://sendy.co.kr/event/x?utm_source=kakaotalk", source: .push).campaignMetadata.source == .push)
        #expect(try handler.parse("sendy://event/x", source: .externalURL).campaignMetadata.source == .externalURL)
    }

    @Test func campaignMetadataKeepsEveryUTMField() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/x?utm_source=naver&utm_campaign=%EA%B0%80%EC%9D%84&utm_custom=1&utm_content=")
        #expect(parsed.campaignMetadata.utm == ["utm_source": "naver", "utm_campaign": "가을", "utm_custom": "1"])
        #expect(parsed.campaignMetadata.json == .object(JSONObject([
            ("utm_source", "naver"), ("utm_campaign", "가을"), ("utm_custom", "1"), ("source", "externalURL"),
        ])))
        #expect(parsed.campaignMetadata.json.serialized() == #"{"utm_source":"naver","utm_campaign":"가을","utm_custom":"1","source":"externalURL"}"#)
    }

    @Test func fragmentIsDropped() throws {
        #expect(try handler.parse("https://sendy.co.kr/event/x?variant=a#top").campaignMetadata.variant == "a")
    }

    @Test func surroundingWhitespaceOfAPastedLinkIsRemovedWithAWarning() throws {
        let parsed = try handler.parse(" \thttps://sendy.co.kr/event/x?variant=a\r\n\u{3000}")
        #expect(parsed.campaignMetadata.variant == "a")
        #expect(parsed.warnings == [DeeplinkWarning(field: "url", message: "surrounding whitespace removed")])
        #expect(try handler.parse("https://sendy.co.kr/event/x").warnings.isEmpty)
        #expect(RoutingFixtures.error(" \n ") == .malformedURL("empty string"))
    }

    @Test func malformedInputIsATypedErrorNotACrash() {
        #expect(RoutingFixtures.error("") == .malformedURL("empty string"))
        for text in ["event/x", "https://sendy.co.kr/event/a b", "https://sendy.co.kr/event/x\ny", "1https://x", "https:///event/x", "://x"] {
            guard case .malformedURL = RoutingFixtures.error(text) else {
                Issue.record("\(text.debugDescription): expected malformedURL, got \(String(describing: RoutingFixtures.error(text)))")
                continue
            }
        }
    }

    @Test func pushPayloadUsesTheManifestKeyAndSourcePush() throws {
        let payload: JSONValue = [
            "aps": ["alert": "신규 가입 혜택"],
            "deeplink": "https://sendy.co.kr/event/new-user-promo?campaign_id=c1",
            "group_id": "B",
            "campaign_id": "other",
        ]
        let parsed = try handler.parse(pushPayload: payload)
        #expect(parsed.configuration.name == "eventCampaign")
        #expect(parsed.campaignMetadata.source == .push)
        #expect(parsed.campaignMetadata.campaignId == "c1")
        #expect(parsed.campaignMetadata.groupId == "B")
        #expect(parsed.warnings.map(\.field) == ["push.campaign_id"])
        #expect(parsed.warnings.map(\.losesPart) == [true], "the payload's campaign_id is lost")
    }

    /// A link's campaign value that breaks its rule is dropped, and the drop is said: the value
    /// is named in a warning on its query field. At the limit (64 characters) it is kept quietly.
    @Test(arguments: [(63, true), (64, true), (65, false)])
    func aLinkCampaignValueBreakingItsRuleIsDroppedWithAWarning(length: Int, kept: Bool) throws {
        let rules = CampaignRules(fields: [CampaignFieldRule(name: "variant", minLength: 1, maxLength: 64, pattern: nil)], closed: false)
        let ruled = try DeeplinkHandler(routes: handler.routes, links: RoutingFixtures.links, campaignRules: rules,
                                        channels: RoutingFixtures.channels)
        let value = String(repeating: "v", count: length)
        let parsed = try ruled.parse("https://sendy.co.kr/event/x?variant=\(value)")
        #expect(parsed.campaignMetadata.variant == (kept ? value : nil))
        #expect(parsed.warnings.map(\.field) == (kept ? [] : ["query.variant"]))
        if !kept {
            #expect(parsed.warnings.first?.message.contains("dropped") == true, "\(parsed.warnings)")
            #expect(parsed.warnings.first?.losesPart == true)
        }
    }

    @Test func pushPayloadWithoutALink() {
        #expect(throws: DeeplinkError.invalidPushPayload("no \"deeplink\" field with the link")) { try handler.parse(pushPayload: ["url": "x"]) }
        #expect(throws: DeeplinkError.invalidPushPayload("\"deeplink\" must be a string URL")) { try handler.parse(pushPayload: ["deeplink": 1]) }
        #expect(throws: DeeplinkError.invalidPushPayload("expected a JSON object")) { try handler.parse(pushPayload: ["deeplink"]) }
    }

    @Test func errorsDescribeThemselves() {
        let error = DeeplinkError.badParameter(name: "path.id", value: "x", expected: .int, fallback: nil)
        #expect(error.description == "path.id: \"x\" is not a valid int (digits only, no sign, at most 9223372036854775807)")
    }
}

@Suite struct EncodingTests {
    let handler = RoutingFixtures.handler

    @Test func invalidPercentEncodingNamesTheField() {
        #expect(RoutingFixtures.error("https://sendy.co.kr/event/x?variant=%ZZ") == .badEncoding(field: "query.variant", value: "%ZZ"))
        #expect(RoutingFixtures.error("https://sendy.co.kr/event/x?variant=%E") == .badEncoding(field: "query.variant", value: "%E"))
        #expect(RoutingFixtures.error("https://sendy.co.kr/event/x?variant=%EC%84") == .badEncoding(field: "query.variant", value: "%EC%84"))
        #expect(RoutingFixtures.error("https://sendy.co.kr/event/x?%FF=1") == .badEncoding(field: "query", value: "%FF"))
        #expect(RoutingFixtures.error("https://sendy.co.kr/checkout/%C3%28") == .badEncoding(field: "path segment 2", value: "%C3%28"))
        #expect(RoutingFixtures.error("sendy://ev%2") == .badEncoding(field: "path segment 1", value: "ev%2"))
    }

    @Test func doublyEncodedValueWarnsNamingTheField() throws {
        // %25EC%2584%25BC is "%EC%84%BC" (센) encoded a second time.
        let parsed = try handler.parse("https://sendy.co.kr/event/new-user-promo?variant=%25EC%2584%25BC")
        #expect(parsed.campaignMetadata.variant == "%EC%84%BC")
        #expect(parsed.warnings.count == 1)
        #expect(parsed.warnings.first?.field == "query.variant")
        #expect(parsed.warnings.first?.message.contains("encoded twice") == true)

        let path = try handler.parse("https://sendy.co.kr/checkout/%25EC%2584%25BC?plan=1")
        #expect(path.warnings.map(\.field) == ["path.id"])
    }

    @Test func aPercentSignThatIsNotAnEscapeIsNoWarning() throws {
        let parsed = try handler.parse("https://sendy.co.kr/event/x/apply?memo=100%25%20off&plan=50%25")
        #expect(parsed.queryParameters["memo"] == ["100% off"])
        #expect(parsed.queryParameters["plan"] == ["50%"])
        #expect(parsed.warnings.isEmpty)
    }

    @Test func encoderKeepsOnlyUnreservedCharacters() {
        #expect(PercentEncoding.encode("A-z0_9.~") == "A-z0_9.~")
        #expect(PercentEncoding.encode("a b+c&d=e/f?g%h") == "a%20b%2Bc%26d%3De%2Ff%3Fg%25h")
        #expect(PercentEncoding.encode("센디") == "%EC%84%BC%EB%94%94")
        #expect(PercentEncoding.encode("😀") == "%F0%9F%98%80")
    }
}

@Suite struct PushPayloadTextTests {
    let handler = RoutingFixtures.handler

    @Test func aPayloadAsDeliveredIsParsedStrictlyThenRouted() throws {
        let parsed = try handler.parse(pushPayloadJSON: #"{"aps": {"alert": "센디"}, "deeplink": "https://sendy.co.kr/order/7", "group_id": "B"}"#)
        #expect(parsed.configuration.name == "orderDetail")
        #expect(parsed.campaignMetadata.source == .push)
        #expect(parsed.campaignMetadata.groupId == "B")
    }

    @Test func textThatIsNotOneJSONObjectIsAnInvalidPayload() {
        #expect(throws: DeeplinkError.invalidPushPayload(#"not valid JSON: line 1 column 43: duplicate key "deeplink""#)) {
            try handler.parse(pushPayloadJSON: #"{"deeplink": "https://sendy.co.kr/order", "deeplink": "x"}"#)
        }
        #expect(throws: DeeplinkError.invalidPushPayload("not valid JSON: line 1 column 1: empty input")) {
            try handler.parse(pushPayloadJSON: "")
        }
        #expect(throws: DeeplinkError.invalidPushPayload("expected a JSON object")) {
            try handler.parse(pushPayloadJSON: #""https://sendy.co.kr/order""#)
        }
    }
}

@Suite struct CampaignFieldOrderTests {
    @Test("campaign fields come in URL order, and stay in it when utm fields are added or removed later")
    func urlOrderFollowsChanges() {
        var campaign = CampaignMetadata(variant: "v", utm: ["utm_zeta": "z", "utm_medium": "m"], source: .kakaotalk)
        #expect(campaign.queryItems.map(\.name) == ["variant", "utm_medium", "utm_zeta"])
        campaign.utm["utm_source"] = "s"
        campaign.utm["utm_alpha"] = "a"
        campaign.campaignId = "c"
        #expect(campaign.queryItems.map(\.name) == ["campaign_id", "variant", "utm_source", "utm_medium", "utm_alpha", "utm_zeta"])
        #expect(campaign.queryItems.map(\.value) == ["c", "v", "s", "m", "a", "z"])
        campaign.utm["utm_medium"] = nil
        campaign.utm = campaign.utm.filter { $0.key != "utm_zeta" }
        #expect(campaign.queryItems.map(\.name) == ["campaign_id", "variant", "utm_source", "utm_alpha"])
        #expect(campaign.queryItemCount == 4)
        var visited: [String] = []
        campaign.forEachQueryItem { name, _ in visited.append(name) }
        #expect(visited == campaign.queryItems.map(\.name))
        // Equal fields are equal values, however they were reached.
        #expect(campaign == CampaignMetadata(campaignId: "c", variant: "v", utm: ["utm_alpha": "a", "utm_source": "s"], source: .kakaotalk))
    }
}

@Suite struct CampaignKeyTests {
    @Test("utm keys are told by their characters, as hasPrefix tells them, however their bytes begin")
    func utmKeysByCharacter() {
        for name in ["utm_", "utm_source", "utm_x", "utm_센디", "utm_\u{301}", "utm_\u{301}x", "utm", "UTM_source", "xutm_", "ut", "", "utm\u{5F}\u{200D}a"] {
            #expect(CampaignMetadata.isUTMKey(name) == name.hasPrefix("utm_"), "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(CampaignMetadata.isUTMKey("utm_source"))
        #expect(!CampaignMetadata.isUTMKey("utm_\u{301}"))
    }

    @Test("utm fields come in URL order (the standard names in their order, then the rest by name) whatever the table, and are read by name")
    func utmOrderAndLookup() {
        let names = CampaignMetadata.standardUTMKeys + ["utm_alpha", "utm_zeta", "utm_", "utm_센디", "utm_content2"]
        for subset in 0..<(1 << names.count) {  // every table of these names
            let chosen = names.indices.filter { subset & (1 << $0) != 0 }.map { names[$0] }
            let utm = Dictionary(uniqueKeysWithValues: chosen.map { ($0, "v-\($0)") })
            let campaign = CampaignMetadata(utm: utm, source: .push)
            let expected = CampaignMetadata.standardUTMKeys.filter { utm[$0] != nil }
                + utm.keys.filter { !CampaignMetadata.standardUTMKeys.contains($0) }.sorted()
            #expect(campaign.queryItems.map(\.name) == expected)
            for name in names + ["utm_sourc", "campaign_id"] {
                #expect(campaign.utmValue(named: name) == utm[name], "\(name) in \(chosen)")
            }
        }
    }

    @Test("a hand-made campaign whose utm holds another field's name is flagged, so events do not list that name twice")
    func unprefixedUTMKeys() {
        var campaign = CampaignMetadata(campaignId: "a", utm: ["utm_source": "s"], source: .push)
        #expect(campaign.utmKeysArePrefixed)
        campaign.utm["campaign_id"] = "b"
        #expect(!campaign.utmKeysArePrefixed)
        campaign.utm["campaign_id"] = nil
        #expect(campaign.utmKeysArePrefixed)
    }
}

@Suite struct LinkURLTests {
    @Test("a link's path and URL: literals and values encoded once, a missing parameter left as its placeholder, the root as /")
    func pathAndURL() {
        let route = RouteDefinition(name: "r", pattern: "/이벤트/:slug/:id", requiresAuth: false, parameters: ["slug": .string, "id": .string],
                                    query: [.init(name: "q", type: .string)], tab: "home", screen: "r")
        let link = ParsedDeeplink(configuration: route, pathParameters: ["slug": "a b/c"], queryParameters: ["q": ["1&2", ""], "z": ["é"]],
                                  campaignMetadata: CampaignMetadata(campaignId: "c", source: .push), webBaseURL: "https://sendy.co.kr//")
        #expect(link.path == "/%EC%9D%B4%EB%B2%A4%ED%8A%B8/a%20b%2Fc/:id")
        #expect(link.url == "https://sendy.co.kr/%EC%9D%B4%EB%B2%A4%ED%8A%B8/a%20b%2Fc/:id?q=1%262&z=%C3%A9")
        let root = RouteDefinition(name: "home", pattern: "/", requiresAuth: false, tab: "home", screen: "home")
        let home = ParsedDeeplink(configuration: root, pathParameters: [:], campaignMetadata: CampaignMetadata(source: .push),
                                  webBaseURL: "https://sendy.co.kr")
        #expect(home.path == "/")
        #expect(home.url == "https://sendy.co.kr/")
    }
}
