import Testing
import JSONCore
import BridgeContracts
import BridgeHost
import BridgeHostTesting
import DeeplinkRouting
import DeeplinkNavigation
import TestSupport

/// The host emits the event names its contract set declares, and neutral ones when it declares none.
@Suite("the host emits the manifest's analytics names")
@MainActor
struct DeclaredAnalyticsNamesTests {
    private func contracts(analytics: String?) throws -> ContractSet {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        let text = try #require(files["manifest.json"])
        let start = try #require(text.range(of: #""analytics": {"#))
        let end = try #require(text.range(of: #""funnel": {"#))
        files["manifest.json"] = text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: analytics.map { $0 + ",\n  " } ?? "")
        return try ContractSet(files: files, origin: "a copy")
    }

    private func names(_ contracts: ContractSet) throws -> [String] {
        let host = try MockBridgeHost(contracts: contracts)
        host.installedApps = ["kakaomap"]
        try host.open(entry: "https://sendy.co.kr/event/new-user-promo?campaign_id=c1", source: .push)
        _ = host.receive(message("apply"))
        _ = host.receive(ExternalDestinationReplyTests.directions("kakaomap"))
        return host.analyticsEvents.map(\.name)
    }

    @Test func declaredNamesAreEmitted() throws {
        let own = #""analytics": {"pageOpened": "page_open", "ctaClicked": "cta_tap", "screenView": "screen", "pushClicked": "push_open", "externalAppOpened": "app_handoff"}"#
        #expect(try names(contracts(analytics: own)) == ["push_open", "page_open", "cta_tap", "screen", "cta_tap", "app_handoff"])
    }

    @Test func withoutADeclarationTheNamesAreNeutral() throws {
        #expect(try names(contracts(analytics: nil))
            == ["push_clicked", "webview_opened", "webview_cta_clicked", "screen_view", "webview_cta_clicked", "external_app_opened"])
    }

    @Test func theExampleSetKeepsItsNames() throws {
        #expect(try names(repositoryContracts())
            == ["push_clicked", "event_webview_opened", "event_webview_cta_clicked", "screen_view", "event_webview_cta_clicked", "external_app_opened"])
    }
}

/// A channel the set declares opens the routes enabled from it, and a link from another channel
/// is refused there.
@Suite("a declared channel through the mock host")
@MainActor
struct DeclaredChannelHostTests {
    private func host() throws -> MockBridgeHost {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        var routes = try #require(files["routes.json"])
        routes = routes.replacingOccurrences(of: #""kakaotalk": { "utm_source": ["kakaotalk"], "utm_medium": ["alimtalk"] }"#,
            with: #""kakaotalk": { "utm_source": ["kakaotalk"], "utm_medium": ["alimtalk"] }, "sms": { "utm_source": ["sms"] }"#)
        routes = routes.replacingOccurrences(of: #""enabledFrom": ["push", "kakaotalk", "appInternal", "bridge"]"#, with: #""enabledFrom": ["sms"]"#)
        files["routes.json"] = routes
        let contracts = try ContractSet(files: files, origin: "a copy")
        try #require(contracts.route(named: "checkout")?.enabledFrom == [EntryChannel(rawValue: "sms")])
        return try MockBridgeHost(contracts: contracts)
    }

    @Test func aLinkOfTheDeclaredChannelOpensItsRouteWhateverTheCase() throws {
        let disposition = try host().openLink("https://sendy.co.kr/checkout/7?utm_source=SMS")
        switch disposition {
        case .navigated, .inProgress: break
        default: Issue.record("expected it to navigate, got \(disposition)")
        }
    }

    @Test func aLinkOfAnotherChannelIsRefusedThere() throws {
        for url in ["https://sendy.co.kr/checkout/7?utm_source=kakaotalk", "https://sendy.co.kr/checkout/7"] {
            let disposition = try host().openLink(url)
            guard case .refused(_, let refusal) = disposition else {
                Issue.record("\(url): expected refused, got \(disposition)")
                continue
            }
            #expect(refusal.enabledFrom == [EntryChannel(rawValue: "sms")])
        }
    }
}
