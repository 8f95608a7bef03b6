import BridgeCLI
import Foundation
import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// The pre-send checks of `bridgectl route` and `bridgectl link build`: a route the link's channel
/// may not open, a value the app drops, a link or push payload too long to arrive whole; warnings
/// by default, failures (exit 1) with --strict.
@Suite @MainActor struct PreSendChecksCLITests {
    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    /// The example contracts with an SMS channel declared after kakaotalk.
    func withSMSChannel(_ body: (String) throws -> Void) throws {
        var files = try ExampleContracts.files()
        let kakaotalk = #""kakaotalk": { "utm_source": ["kakaotalk"], "utm_medium": ["alimtalk"] }"#
        let routes = try #require(files["routes.json"])
        #expect(routes.contains(kakaotalk), "contracts/routes.json declares kakaotalk as the test expects")
        files["routes.json"] = routes.replacingOccurrences(of: kakaotalk, with: kakaotalk + #", "sms": { "utm_source": ["sms"] }"#)
        try withTemporaryFiles("pre-send", files) { folder in try body(folder.path) }
    }

    static let smsRefusal = "refused from channel sms: route checkout is enabled from push, appInternal, bridge, kakaotalk"

    @Test func routeWarnsWhenTheLinksChannelMayNotOpenTheRoute() throws {
        try withSMSChannel { contracts in
            // Upper case: channels match without regard to case.
            let url = "https://sendy.co.kr/checkout/A1?utm_source=SMS"
            let warned = run(["route", url, "--contracts", contracts])
            #expect(warned.code == 0, "\(warned.err)")
            #expect(warned.out.contains("source = sms"))
            #expect(warned.out.contains("  channel: " + Self.smsRefusal + "\n"))

            let strict = run(["route", url, "--strict", "--contracts", contracts])
            #expect(strict.code == 1)
            #expect(strict.out.contains("  channel: " + Self.smsRefusal))
            #expect(strict.err.contains("--strict: 1 warning loses part of the link"))

            // The same link from a channel the route is enabled from passes, strict too.
            let allowed = run(["route", "https://sendy.co.kr/checkout/A1?utm_source=kakaotalk", "--strict", "--contracts", contracts])
            #expect(allowed.code == 0, "\(allowed.err)")
            #expect(allowed.out.hasSuffix("warnings: none\n"))
            // --source names the channel outright, as it names the campaign source.
            let named = run(["route", "https://sendy.co.kr/checkout/A1", "--source", "sms", "--strict", "--contracts", contracts])
            #expect(named.code == 1)
            #expect(named.out.contains(Self.smsRefusal))
        }
    }

    @Test func routeOfAPushPayloadChecksTheRouteAgainstPush() throws {
        // checkout is enabled from push: its push passes --strict; the same link posted on the web
        // (externalURL: no declared channel's utm values) is refused.
        let push = run(["route", "--push", "-", "--strict"], input: #"{"deeplink":"https://sendy.co.kr/checkout/A1"}"#)
        #expect(push.code == 0, "\(push.out)\(push.err)")
        let web = run(["route", "https://sendy.co.kr/checkout/A1", "--strict"])
        #expect(web.code == 1)
        #expect(web.out.contains("channel: refused from channel externalURL: route checkout is enabled from push, appInternal, bridge, kakaotalk"))
    }

    @Test func linkBuildWarnsAboutTheChannelAndStrictRefusesTheLink() throws {
        try withSMSChannel { contracts in
            let arguments = ["link", "build", "checkout", "--param", "id=A1", "--utm", "source=Sms", "--contracts", contracts]
            let warned = run(arguments)
            #expect(warned.code == 0)
            #expect(warned.out == "https://sendy.co.kr/checkout/A1?utm_source=Sms\n")
            #expect(warned.err == "bridgectl link build: warning: channel: \(Self.smsRefusal)\n")

            let strict = run(arguments + ["--strict"])
            #expect(strict.code == 1)
            #expect(strict.out == "")
            #expect(strict.err == "bridgectl link build: channel: \(Self.smsRefusal)\n")

            // --source as route takes it: the channel the link is sent through, whatever its utm values.
            let pushed = run(arguments + ["--strict", "--source", "push"])
            #expect(pushed.code == 0, "\(pushed.err)")
            #expect(pushed.err == "")
            let unknown = run(arguments + ["--source", "fax"])
            #expect(unknown.code == 2)
            #expect(unknown.err.contains("--source must be one of push, externalURL, appInternal, kakaotalk, sms, not \"fax\""))
        }
        // The custom scheme is appInternal, which checkout allows.
        let custom = run(["link", "build", "checkout", "--param", "id=A1", "--scheme", "custom", "--strict"])
        #expect(custom.code == 0, "\(custom.err)")
    }

    @Test func routeStrictFailsWhenTheAppDropsPartOfTheLink() throws {
        let dropped = "https://sendy.co.kr/event/new-user-promo?campaign_id=2025%20Q3&utm_source=kakaotalk"
        let lenient = run(["route", dropped])
        #expect(lenient.code == 0)
        #expect(lenient.out.contains("query.campaign_id: \"2025 Q3\" dropped"))
        let strict = run(["route", dropped, "--strict"])
        #expect(strict.code == 1)
        #expect(strict.out.contains("query.campaign_id: \"2025 Q3\" dropped"))

        // Each way a part is lost: a repeated campaign field, a nameless item, a query item named
        // like a path parameter, a utm field the closed campaign schema does not have.
        for query in ["campaign_id=a&campaign_id=b", "=x", "slug=other", "utm_foo=x"] {
            let url = "https://sendy.co.kr/event/new-user-promo?" + query
            #expect(run(["route", url]).code == 0, "\(query)")
            #expect(run(["route", url, "--strict"]).code == 1, "\(query)")
        }
        // A warning that loses nothing (a literal plus) leaves --strict at 0.
        let plus = run(["route", "https://sendy.co.kr/event/new-user-promo?variant=A+B", "--strict"])
        #expect(plus.code == 0)
        #expect(plus.out.contains("\"+\" is read as a literal plus"))

        let report = try JSONDocument(run(["route", dropped, "--format", "json"]).out, limits: .unlimited).value
        #expect(report["warnings"]?.arrayValue?.first?["losesPart"] == true)
    }

    @Test func routeWarnsAboutAnEmptyCampaignValueAndStrictFailsOnIt() throws {
        let base = "https://sendy.co.kr/event/new-user-promo?"
        let empty = run(["route", base + "campaign_id=&utm_source=kakaotalk"])
        #expect(empty.code == 0, "\(empty.err)")
        #expect(empty.out.contains("warnings:\n  query.campaign_id: empty, so the visit carries no campaign_id\n"))
        let strict = run(["route", base + "campaign_id=&utm_source=kakaotalk", "--strict"])
        #expect(strict.code == 1)
        #expect(strict.err.contains("--strict: 1 warning loses part of the link"))
        // Without "=", and the fields whose campaign rule needs a value (all, in the example contract).
        for query in ["campaign_id", "variant=", "group_id=&variant=A", "utm_medium=&utm_source=kakaotalk"] {
            let routed = run(["route", base + query, "--strict"])
            #expect(routed.code == 1, "\(query)")
            #expect(routed.out.contains(": empty, so the visit carries no "), "\(query)")
        }
        // The neighbours it accepts: a value, an empty item beside the field's value, an empty non-campaign item.
        for query in ["campaign_id=2025Q3", "campaign_id=&campaign_id=2025Q3", "note="] {
            let routed = run(["route", base + query, "--strict"])
            #expect(routed.code == 0, "\(query): \(routed.out)")
            #expect(routed.out.contains("warnings: none"), "\(query)")
        }
        let report = try JSONDocument(run(["route", base + "campaign_id=", "--format", "json"]).out, limits: .unlimited).value
        #expect(report["warnings"] == [["field": "query.campaign_id", "message": "empty, so the visit carries no campaign_id", "losesPart": true]])
    }

    @Test func routePushWarnsAboutAnEmptyCampaignValueInItsLinkOrItsPayload() {
        let inLink = run(["route", "--push", "-", "--strict"], input: #"{"deeplink":"https://sendy.co.kr/order/42?campaign_id="}"#)
        #expect(inLink.code == 1)
        #expect(inLink.out.contains("  query.campaign_id: empty, so the visit carries no campaign_id\n"))
        let inPayload = run(["route", "--push", "-", "--strict"], input: #"{"deeplink":"https://sendy.co.kr/order/42","campaign_id":""}"#)
        #expect(inPayload.code == 1)
        #expect(inPayload.out.contains("  push.campaign_id: empty, so the visit carries no campaign_id\n"))
        // The payload's empty field beside the link's value loses nothing.
        let filled = run(["route", "--push", "-", "--strict"], input: #"{"deeplink":"https://sendy.co.kr/order/42?campaign_id=2025Q3","campaign_id":""}"#)
        #expect(filled.code == 0, "\(filled.out)")
    }

    @Test func anEmptyFieldWhoseRuleAllowsItIsNoWarningButCampaignIdAlwaysIs() throws {
        var files = try ExampleContracts.files()
        let variant = #""variant": { "type": "string", "minLength": 1, "maxLength": 64 }"#
        let schema = try #require(files["schemas/campaign.v1.json"])
        #expect(schema.contains(variant), "contracts/schemas/campaign.v1.json has the variant rule the test expects")
        files["schemas/campaign.v1.json"] = schema.replacingOccurrences(of: variant, with: #""variant": { "type": "string", "maxLength": 64 }"#)
        try withTemporaryFiles("empty-campaign", files) { folder in
            let base = "https://sendy.co.kr/event/new-user-promo?"
            let variantOnly = run(["route", base + "variant=", "--strict", "--contracts", folder.path])
            #expect(variantOnly.code == 0, "\(variantOnly.out)\(variantOnly.err)")
            #expect(variantOnly.out.contains("warnings: none"))
            #expect(run(["route", base + "campaign_id=&variant=", "--strict", "--contracts", folder.path]).code == 1)
        }
    }

    /// An https link to eventCampaign exactly `length` characters long.
    static func link(length: Int) -> String {
        let start = "https://sendy.co.kr/event/new-user-promo?note="
        return start + String(repeating: "a", count: length - start.count)
    }

    @Test func linksOverTwoThousandCharactersAreWarnedAbout() throws {
        for (length, warned) in [(1_999, false), (2_000, false), (2_001, true)] {
            let url = Self.link(length: length)
            #expect(url.count == length)
            let routed = run(["route", url, "--strict"])
            #expect(routed.code == (warned ? 1 : 0), "\(length)")
            #expect(routed.out.contains("url: \(length) characters once encoded; messengers and browsers may cut a link over 2000 characters") == warned)
        }
        // Korean counts as its escapes: 667 syllables are 6,003 characters on the wire.
        let korean = run(["route", "https://sendy.co.kr/event/new-user-promo?note=" + String(repeating: "가", count: 667)])
        #expect(korean.out.contains("url: 6049 characters once encoded"))

        // link build measures the link it prints: 1,954 characters of note plus the rest is 2,001.
        let start = "https://sendy.co.kr/vehicles?region="
        for (length, warned) in [(2_000, false), (2_001, true)] {
            let built = run(["link", "build", "vehicleList", "--query", "region=" + String(repeating: "a", count: length - start.count)])
            #expect(built.code == 0)
            #expect(built.out.count == length + 1)
            #expect(built.err.contains("url: \(length) characters once encoded") == warned)
            let strict = run(["link", "build", "vehicleList", "--query", "region=" + String(repeating: "a", count: length - start.count), "--strict"])
            #expect(strict.code == (warned ? 1 : 0))
        }
    }

    /// A push payload exactly `bytes` bytes long as compact JSON.
    static func payload(bytes: Int) -> String {
        let start = #"{"deeplink":"https://sendy.co.kr/order/42","aps":{"alert":""#
        let end = #""}}"#
        return start + String(repeating: "x", count: bytes - start.utf8.count - end.utf8.count) + end
    }

    @Test func pushPayloadsOverTheAPNsAndFCMLimitAreWarnedAbout() throws {
        for (bytes, warned) in [(4_095, false), (4_096, false), (4_097, true)] {
            let payload = Self.payload(bytes: bytes)
            #expect(payload.utf8.count == bytes)
            let routed = run(["route", "--push", "-", "--strict"], input: payload)
            #expect(routed.code == (warned ? 1 : 0), "\(bytes): \(routed.err)")
            #expect(routed.out.contains("push: the payload is \(bytes) bytes as compact JSON; APNs and FCM refuse a payload over 4096 bytes") == warned)
        }
        // Measured as compact JSON: the spaces of a pretty-printed file are not sent.
        let spaced = Self.payload(bytes: 4_096).replacingOccurrences(of: ",", with: ",\n    ")
        #expect(run(["route", "--push", "-", "--strict"], input: spaced).code == 0)
        // Korean is counted in UTF-8 bytes: 3 for 가.
        let korean = #"{"deeplink":"https://sendy.co.kr/order/42","aps":{"alert":""# + String(repeating: "가", count: 1_400) + #""}}"#
        #expect(run(["route", "--push", "-"], input: korean).out.contains("the payload is \(korean.utf8.count) bytes"))
    }
}
