import BridgeCLI
import Foundation
import JSONCore
import SchemaCheck
import Testing

/// `bridgectl route` and `bridgectl link`, driven through BridgeCLI.main with a capturing console.
@Suite @MainActor struct RoutingCLITests {
    static let seedURL = "https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3_signup_retarget&group_id=B&variant=card_scanner_cta&utm_source=kakaotalk&utm_medium=alimtalk"

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    func json(_ text: String) throws -> JSONValue {
        try JSONDocument(text, limits: .unlimited).value
    }

    @Test func seedCampaignURLRoutesToEventCampaign() throws {
        let result = run(["route", Self.seedURL])
        #expect(result.code == 0)
        #expect(result.out.contains("route: eventCampaign (/event/:slug)"))
        #expect(result.out.contains("slug = \"new-user-promo\""))
        #expect(result.out.contains("source = kakaotalk"))
        #expect(result.out.contains("requiresAuth: false"))

        let report = try json(run(["route", Self.seedURL, "--format", "json"]).out)
        #expect(report["route"] == "eventCampaign")
        #expect(report["pathParameters"] == ["slug": "new-user-promo"])
        #expect(report["campaign"]?["source"] == "kakaotalk")
        #expect(report["campaign"]?["campaign_id"] == "2025Q3_signup_retarget")
        #expect(report["warnings"] == [])
    }

    @Test func koreanVariantWithSpacesAndPlusRoundTripsThroughRoute() throws {
        let variant = "카드 스캐너 + 특가 1+1"
        let memo = "a=b&c %41 / ?"
        let built = run([
            "link", "build", "applyForm", "--param", "slug=new-user-promo", "--query", "memo=\(memo)", "--query", "plan=월간",
            "--campaign-id", "2025Q3_fall", "--group-id", "B", "--variant", variant,
            "--utm", "source=kakaotalk", "--utm", "utm_medium=alimtalk", "--utm", "campaign=가을 이벤트",
        ])
        #expect(built.code == 0, "\(built.err)")
        let url = built.out.trimmingCharacters(in: .newlines)
        #expect(url.hasPrefix("https://sendy.co.kr/event/new-user-promo/apply?plan=%EC%9B%94%EA%B0%84&memo=a%3Db%26c%20%2541%20%2F%20%3F&campaign_id=2025Q3_fall&group_id=B&variant=%EC%B9%B4%EB%93%9C%20%EC%8A%A4%EC%BA%90%EB%84%88%20%2B%20%ED%8A%B9%EA%B0%80%201%2B1&utm_source=kakaotalk&utm_medium=alimtalk&utm_campaign="))

        let routed = run(["route", url, "--format", "json"])
        #expect(routed.code == 0)
        let report = try json(routed.out)
        #expect(report["route"] == "applyForm")
        #expect(report["pathParameters"] == ["slug": "new-user-promo"])
        #expect(report["query"] == ["plan": ["월간"], "memo": [.string(memo)]])
        #expect(report["campaign"] == [
            "campaign_id": "2025Q3_fall", "group_id": "B", "variant": .string(variant),
            "utm_source": "kakaotalk", "utm_medium": "alimtalk", "utm_campaign": "가을 이벤트", "source": "kakaotalk",
        ])
        // "%41" was a raw value, so it is encoded as %2541 and reads back as "%41": that looks
        // encoded, and the warning names the field rather than changing the value.
        #expect(report["warnings"]?.arrayValue?.compactMap { $0["field"]?.stringValue } == ["query.memo"])

        // The custom scheme carries the same values.
        let custom = run(["link", "build", "eventCampaign", "--param", "slug=new-user-promo", "--variant", variant, "--scheme", "sendy"])
        #expect(custom.out.hasPrefix("sendy://event/new-user-promo?variant="))
        let customReport = try json(run(["route", custom.out.trimmingCharacters(in: .newlines), "--format", "json"]).out)
        #expect(customReport["campaign"] == ["variant": .string(variant), "source": "appInternal"])
    }

    @Test func doublyEncodedURLWarnsNamingTheField() throws {
        let result = run(["route", "https://sendy.co.kr/event/new-user-promo?variant=%25EC%2584%25BC"])
        #expect(result.code == 0)
        #expect(result.out.contains("query.variant: \"%EC%84%BC\" still looks percent-encoded"))
    }

    @Test func aDeclaredChannelIsRecognisedWhateverTheCaseAndAcceptedAsASource() throws {
        let inferred = try json(run(["route", "https://sendy.co.kr/event/a?utm_source=KakaoTalk", "--format", "json"]).out)
        #expect(inferred["campaign"]?["source"] == "kakaotalk")
        let stated = try json(run(["route", "https://sendy.co.kr/event/a", "--source", "kakaotalk", "--format", "json"]).out)
        #expect(stated["campaign"]?["source"] == "kakaotalk")
        let unclaimed = try json(run(["route", "https://sendy.co.kr/event/a?utm_source=kakao", "--format", "json"]).out)
        #expect(unclaimed["campaign"]?["source"] == "externalURL")
    }

    @Test func sourceOption() throws {
        let report = try json(run(["route", Self.seedURL, "--source", "push", "--format", "json"]).out)
        #expect(report["campaign"]?["source"] == "push")
        let bad = run(["route", Self.seedURL, "--source", "sms"])
        #expect(bad.code == 2)
        #expect(bad.err.contains(#"--source must be one of push, externalURL, appInternal, kakaotalk, not "sms""#))
    }

    @Test func aLinkThatDoesNotRouteExitsOneWithTheFallback() throws {
        let result = run(["route", "https://sendy.co.kr/brand-new/page?campaign_id=c"])
        #expect(result.code == 1)
        #expect(result.err.contains("no route matches path /brand-new/page"))
        #expect(result.err.contains("fallback: https://sendy.co.kr/brand-new/page?campaign_id=c"))

        let report = try json(run(["route", "https://evil.example/event/x", "--format", "json"]).out)
        #expect(report["routed"] == false)
        #expect(report["error"] == "unknownHost")
        #expect(report["fallbackURL"] == .null)
    }

    @Test func usageErrorsExitTwo() {
        #expect(run(["route"]).code == 2)
        #expect(run(["route", "a", "b"]).code == 2)
        #expect(run(["route", Self.seedURL, "--format", "yaml"]).code == 2)
        #expect(run(["route", Self.seedURL, "--contracts", "/nonexistent/contracts"]).code == 2)
        #expect(run(["route", "--help"]).out.contains("usage: bridgectl route URL"))
    }

    @Test func pushPayloadFromStandardInput() throws {
        let payload = #"{"aps": {"alert": "혜택"}, "deeplink": "https://sendy.co.kr/order/12?utm_source=braze", "group_id": "A"}"#
        let report = try json(run(["route", "--push", "-", "--format", "json"], input: payload).out)
        #expect(report["route"] == "orderDetail")
        #expect(report["requiresAuth"] == true)
        #expect(report["campaign"] == ["group_id": "A", "utm_source": "braze", "source": "push"])
        #expect(run(["route", "--push", "-"], input: "{not json").code == 2)
        #expect(run(["route", "--push", "-"], input: #"{"url": "x"}"#).code == 1)
    }

    @Test func linkBuildRefusesUnknownRouteAndParameterListingTheValidOnes() {
        let route = run(["link", "build", "event", "--param", "slug=a"])
        #expect(route.code == 2)
        #expect(route.err.contains("unknown route \"event\" (routes: eventCampaign, applyForm"))

        let parameter = run(["link", "build", "eventCampaign", "--param", "id=1"])
        #expect(parameter.code == 2)
        #expect(parameter.err.contains("route eventCampaign has no parameter \"id\" (parameters: slug)"))

        let missing = run(["link", "build", "reviewWrite"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("needs parameter \"orderId\""))

        let query = run(["link", "build", "vehicleList", "--query", "color=red"])
        #expect(query.code == 2)
        #expect(query.err.contains("query fields: vehicleType, region, sort, page, from"))

        let typed = run(["link", "build", "orderDetail", "--param", "id=12x"])
        #expect(typed.code == 1)
        #expect(typed.err.contains("path.id: \"12x\" is not a valid int"))

        let campaignAsQuery = run(["link", "build", "eventCampaign", "--param", "slug=a", "--query", "utm_source=x"])
        #expect(campaignAsQuery.code == 2)
        #expect(campaignAsQuery.err.contains("campaign fields have their own options"))

        #expect(run(["link", "build", "eventCampaign", "--param", "slug"]).code == 2)
        #expect(run(["link", "build", "eventCampaign", "--param", "slug=a", "--scheme", "ftp"]).code == 2)
        #expect(run(["link"]).code == 2)
        #expect(run(["link", "print"]).code == 2)
    }

    @Test func paramSplitsOnTheFirstEqualsOnly() throws {
        let built = run(["link", "build", "checkout", "--param", "id=a=b"])
        #expect(built.out == "https://sendy.co.kr/checkout/a%3Db\n")
        let report = try json(run(["route", "https://sendy.co.kr/checkout/a%3Db", "--format", "json"]).out)
        #expect(report["pathParameters"] == ["id": "a=b"])
    }

    @Test func linkRoutesListsParametersAndQueryFields() {
        let result = run(["link", "routes"])
        #expect(result.code == 0)
        #expect(result.out.contains("orderDetail  /order/:id  (login)\n  --param id=<int>\n"))
        #expect(result.out.contains("  --query page=<int>\n"))
    }
}
