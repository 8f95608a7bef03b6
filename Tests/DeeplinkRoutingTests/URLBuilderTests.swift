import DeeplinkRouting
import Testing

@Suite struct URLBuilderTests {
    let builder = RoutingFixtures.builder
    let seedCampaign = CampaignMetadata(
        campaignId: "2025Q3_signup_retarget", groupId: "B", variant: "card_scanner_cta",
        utm: ["utm_medium": "alimtalk", "utm_source": "kakaotalk"], source: .kakaotalk)

    @Test func buildsTheSeedCampaignURLInTheSharedOrder() throws {
        let url = try builder.build(route: "eventCampaign", parameters: ["slug": "new-user-promo"], campaign: seedCampaign)
        #expect(url == "https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3_signup_retarget&group_id=B&variant=card_scanner_cta&utm_source=kakaotalk&utm_medium=alimtalk")
    }

    @Test func customSchemePutsTheFirstSegmentInTheHost() throws {
        let url = try builder.build(route: "eventCampaign", parameters: ["slug": "new-user-promo"], campaign: seedCampaign, scheme: .custom)
        #expect(url == "sendy://event/new-user-promo?campaign_id=2025Q3_signup_retarget&group_id=B&variant=card_scanner_cta&utm_source=kakaotalk&utm_medium=alimtalk")
    }

    /// Values as people paste them are tidied before they are checked, each change warned about.
    @Test func aPastedValueIsTrimmedWithAWarning() throws {
        let built = try builder.link(route: "eventCampaign", parameters: ["slug": "  new-user-promo\n"])
        #expect(built.url == "https://sendy.co.kr/event/new-user-promo")
        #expect(built.warnings == [DeeplinkWarning(field: "path.slug", message: "surrounding whitespace removed")])
        let exact = try builder.link(route: "eventCampaign", parameters: ["slug": "new-user-promo"])
        #expect(exact.warnings.isEmpty && exact.url == built.url)
    }

    @Test func everyRawValueIsEncodedOnce() throws {
        let url = try builder.build(
            route: "applyForm", parameters: ["slug": "summer"],
            query: ["memo": ["a b+c&d=e/f?g%41"], "plan": ["월간 플랜"]],
            campaign: CampaignMetadata(variant: "카드 스캐너+", utm: ["utm_campaign": "가을 이벤트", "utm_zz": "1", "utm_aa": "2"], source: .externalURL))
        #expect(url == "https://sendy.co.kr/event/summer/apply?plan=%EC%9B%94%EA%B0%84%20%ED%94%8C%EB%9E%9C&memo=a%20b%2Bc%26d%3De%2Ff%3Fg%2541&variant=%EC%B9%B4%EB%93%9C%20%EC%8A%A4%EC%BA%90%EB%84%88%2B&utm_campaign=%EA%B0%80%EC%9D%84%20%EC%9D%B4%EB%B2%A4%ED%8A%B8&utm_aa=2&utm_zz=1")
    }

    @Test func emptyValuesAreOmitted() throws {
        let url = try builder.build(route: "vehicleList", parameters: [:], query: ["region": [""], "sort": ["price"]], campaign: CampaignMetadata(campaignId: "", source: .push))
        #expect(url == "https://sendy.co.kr/vehicles?sort=price")
    }

    @Test func refusesUnknownRouteWithTheValidOnes() {
        #expect(throws: LinkBuildError.unknownRoute("event", valid: RoutingFixtures.handler.routes.names)) {
            try builder.build(route: "event", parameters: [:])
        }
    }

    @Test func refusesMissingUnknownAndIllTypedParameters() {
        #expect(throws: LinkBuildError.missingParameter("slug", route: "eventCampaign", valid: ["slug"])) {
            try builder.build(route: "eventCampaign", parameters: [:])
        }
        #expect(throws: LinkBuildError.unknownParameter("id", route: "eventCampaign", valid: ["slug"])) {
            try builder.build(route: "eventCampaign", parameters: ["slug": "a", "id": "1"])
        }
        #expect(throws: LinkBuildError.badValue(field: "path.id", value: "12x", expected: .int)) {
            try builder.build(route: "orderDetail", parameters: ["id": "12x"])
        }
        #expect(throws: LinkBuildError.unknownQueryField("variant", route: "vehicleList", valid: ["vehicleType", "region", "sort", "page", "from"])) {
            try builder.build(route: "vehicleList", parameters: [:], query: ["variant": ["a"]])
        }
        #expect(throws: LinkBuildError.badValue(field: "query.page", value: "-1", expected: .int)) {
            try builder.build(route: "vehicleList", parameters: [:], query: ["page": ["-1"]])
        }
        #expect(throws: LinkBuildError.badCampaignField("utm_", reason: "utm keys are \"utm_\" followed by a name, e.g. utm_source")) {
            try builder.build(route: "vehicleList", parameters: [:], campaign: CampaignMetadata(utm: ["utm_": "x"], source: .push))
        }
    }

    @Test func errorMessagesListTheValidOnes() {
        let error = LinkBuildError.unknownParameter("id", route: "eventCampaign", valid: ["slug"])
        #expect(error.description == "route eventCampaign has no parameter \"id\" (parameters: slug)")
    }

    @Test func ctaDestinationKeepsTheMappingOrder() throws {
        let handler = RoutingFixtures.handler
        let parsed = try handler.route(
            named: "vehicleList", parameters: [:],
            query: [("region", "서울"), ("vehicleType", "1톤"), ("page", "2"), ("sort", "")])
        #expect(parsed.url == "https://sendy.co.kr/vehicles?region=%EC%84%9C%EC%9A%B8&vehicleType=1%ED%86%A4&page=2")
        #expect(parsed.queryParameters == ["region": ["서울"], "vehicleType": ["1톤"], "page": ["2"]])
        #expect(parsed.campaignMetadata.source == .appInternal)
        #expect(throws: LinkBuildError.badValue(field: "query.page", value: "two", expected: .int)) {
            try handler.route(named: "vehicleList", parameters: [:], query: [("page", "two")])
        }
        #expect(throws: LinkBuildError.self) { try handler.route(named: "applyForm", parameters: [:]) }
    }

    @Test func ctaDestinationParsesBackToItself() throws {
        let handler = RoutingFixtures.handler
        let direct = try handler.route(named: "applyForm", parameters: ["slug": "new-user-promo"], query: [("plan", "a+b c")])
        let reparsed = try handler.parse(direct.url, source: .appInternal)
        #expect(reparsed == direct)
    }

    @Test func payloadValuesBecomeParameterText() {
        #expect(DeeplinkHandler.parameterText("a") == "a")
        #expect(DeeplinkHandler.parameterText(12) == "12")
        #expect(DeeplinkHandler.parameterText(.number(3.0)) == "3")
        #expect(DeeplinkHandler.parameterText(true) == "true")
        #expect(DeeplinkHandler.parameterText(nil) == nil)
    }
}
