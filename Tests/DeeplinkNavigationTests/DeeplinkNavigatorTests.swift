import Testing
import DeeplinkRouting
import DeeplinkNavigation
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite("DeeplinkNavigator rules")
@MainActor
struct DeeplinkNavigatorTests {
    @Test("foreground: tab, list for back navigation, detail, then the destination; consumed as navigated")
    func foregroundNavigatesInSteps() throws {
        let fixture = try NavigatorFixture()
        let disposition = fixture.navigator.navigate(try fixture.link("/vehicles/v-100"))
        guard case .navigated(let id) = disposition else { Issue.record("got \(disposition)"); return }
        #expect(fixture.host.calls == [.selectTab("vehicles", id), .attachList("vehicleList", id), .resolveDetail(id),
                                       .show("vehicleDetail", id)])
        #expect(fixture.outcomes(id) == [.navigated])
    }

    @Test("a route without a list: attachList is told there is none")
    func noList() throws {
        let fixture = try NavigatorFixture()
        let id = fixture.navigator.navigate(try fixture.link("/vehicles")).envelopeID
        #expect(fixture.host.calls == [.selectTab("vehicles", id), .attachList(nil, id), .resolveDetail(id), .show("vehicleList", id)])
    }

    @Test("auth-required while logged out: pending, login presented; login consumes it exactly once")
    func pendingLoginConsumedOnce() throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let disposition = fixture.navigator.navigate(try fixture.link("/order/42"))
        #expect(disposition == .pendingLogin(disposition.envelopeID))
        #expect(fixture.host.calls == [.presentLogin])
        #expect(fixture.navigator.pending?.id == disposition.envelopeID)

        fixture.login()
        fixture.navigator.didCompleteLogin()
        #expect(fixture.host.shownRoutes == ["orderDetail"])
        #expect(fixture.navigator.pending == nil)
        #expect(fixture.outcomes(disposition.envelopeID) == [.pendingLogin, .navigated])
    }

    @Test("routes that need no auth go straight through while logged out")
    func publicRouteWhileLoggedOut() throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        #expect(fixture.navigator.navigate(try fixture.link("/event/new-user-promo")) == .navigated(EnvelopeID(1)))
        #expect(fixture.host.loginPresentations == 0)
    }

    @Test("policy: a second auth-required link while one is pending wins; the first is recorded as replaced")
    func latestPendingWins() throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let first = fixture.navigator.navigate(try fixture.link("/order/1")).envelopeID
        let second = fixture.navigator.navigate(try fixture.link("/checkout/abc", source: .push)).envelopeID
        #expect(fixture.outcomes(first) == [.pendingLogin, .replacedWhilePending(by: second)])
        #expect(fixture.host.loginPresentations == 1)

        fixture.login()
        #expect(fixture.host.shownRoutes == ["checkout"])
        #expect(fixture.outcomes(second) == [.pendingLogin, .navigated])
    }

    @Test("policy: logout while pending cancels it on record; a later login shows nothing")
    func logoutCancelsPending() throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let id = fixture.navigator.navigate(try fixture.link("/order/7")).envelopeID
        fixture.logout()
        #expect(fixture.outcomes(id) == [.pendingLogin, .cancelledByLogout])
        fixture.login()
        #expect(fixture.host.shown.isEmpty)
    }

    @Test("cold start: three routes wait at the ready gate and fire in arrival order on ready")
    func readyGateKeepsOrder() throws {
        let fixture = try NavigatorFixture(appState: .coldStart)
        let ids = try ["/event/a-1", "/vehicles", "/order/3"].map { fixture.navigator.navigate(try fixture.link($0)) }
        #expect(ids.allSatisfy { if case .waitingForReady = $0 { return true } else { return false } })
        #expect(fixture.host.calls.isEmpty)
        #expect(fixture.navigator.waiting.map(\.id) == ids.map(\.envelopeID))

        fixture.navigator.becomeReady()
        #expect(fixture.host.shownRoutes == ["eventCampaign", "vehicleList", "orderDetail"])
        #expect(fixture.host.shown == ids.map(\.envelopeID))
        #expect(fixture.navigator.waiting.isEmpty)
        #expect(fixture.navigator.appState == .foreground)
    }

    @Test("cold start and logged out: login is presented at once, the destination waits for login and ready")
    func coldStartLoggedOut() throws {
        let fixture = try NavigatorFixture(loggedIn: false, appState: .coldStart)
        let id = fixture.navigator.navigate(try fixture.link("/event/new-user-promo/apply")).envelopeID
        #expect(fixture.host.calls == [.presentLogin])
        fixture.login()
        #expect(fixture.host.shown.isEmpty)
        #expect(fixture.outcomes(id) == [.pendingLogin, .waitingForReady])
        fixture.navigator.becomeReady()
        #expect(fixture.host.shown == [id])
        #expect(fixture.outcomes(id) == [.pendingLogin, .waitingForReady, .navigated])
    }

    @Test("policy: a logout while an auth-required envelope waits at the gate consumes it; a public one still navigates")
    func logoutAtTheGate() throws {
        let fixture = try NavigatorFixture(loggedIn: true, appState: .coldStart)
        let order = fixture.navigator.navigate(try fixture.link("/order/9")).envelopeID
        let event = fixture.navigator.navigate(try fixture.link("/event/autumn")).envelopeID
        fixture.logout()
        fixture.navigator.becomeReady()
        #expect(fixture.outcomes(order) == [.waitingForReady, .cancelledByLogout])
        #expect(fixture.outcomes(event) == [.waitingForReady, .navigated])
        #expect(fixture.host.violations.isEmpty)
        fixture.login()
        #expect(fixture.host.shownRoutes == ["eventCampaign"])
    }

    @Test("background routes immediately, like foreground; a cold start closes the gate again")
    func appStates() throws {
        let fixture = try NavigatorFixture(appState: .background)
        #expect(fixture.navigator.isReady)
        #expect(fixture.navigator.navigate(try fixture.link("/vehicles")) == .navigated(EnvelopeID(1)))
        fixture.navigator.setAppState(.coldStart)
        #expect(!fixture.navigator.isReady)
        #expect(fixture.navigator.navigate(try fixture.link("/start")) == .waitingForReady(EnvelopeID(2)))
        fixture.navigator.setAppState(.foreground)
        #expect(fixture.host.shownRoutes == ["vehicleList", "onboardingStart"])
    }

    @Test("the same payload twice within the window is consumed once; after the window it routes again")
    func duplicateWindow() throws {
        let fixture = try NavigatorFixture(windowMs: 2_000)
        let link = try fixture.link("/event/new-user-promo?campaign_id=c1", source: .push)
        let first = fixture.navigator.navigate(link)
        fixture.clock.advance(byMs: 1_999)
        let second = fixture.navigator.navigate(link)
        #expect(second == .duplicate(EnvelopeID(2), of: first.envelopeID))
        #expect(fixture.outcomes(second.envelopeID) == [.duplicate(of: first.envelopeID)])
        fixture.clock.advance(byMs: 1)
        #expect(fixture.navigator.navigate(link) == .navigated(EnvelopeID(3)))
        #expect(fixture.host.shown.count == 2)
    }

    @Test("a different campaign or source is a different payload, not a duplicate")
    func fingerprintCoversCampaign() throws {
        let fixture = try NavigatorFixture()
        fixture.navigator.navigate(try fixture.link("/event/p?campaign_id=a", source: .push))
        fixture.navigator.navigate(try fixture.link("/event/p?campaign_id=b", source: .push))
        fixture.navigator.navigate(try fixture.link("/event/p?campaign_id=a", source: .externalURL))
        #expect(fixture.host.shown.count == 3)
    }

    @Test("dedupe compares the whole destination: another query, path parameter or repeated value is not a duplicate")
    func dedupeComparesTheWholeDestination() throws {
        let fixture = try NavigatorFixture(windowMs: 2_000)
        let links = [
            "/vehicles?page=1", "/vehicles?page=2", "/vehicles?page=2&sort=price", "/vehicles?region=a&region=b",
            "/vehicles?region=b&region=a", "/vehicles/v-1", "/vehicles/v-2",
        ]
        for link in links {
            fixture.clock.advance(byMs: 10)
            #expect(!isDuplicate(fixture.navigator.navigate(try fixture.link(link))), "\(link)")
        }
        #expect(fixture.host.shown.count == links.count)
        // The control: the same destination again inside the window is one.
        #expect(isDuplicate(fixture.navigator.navigate(try fixture.link("/vehicles?page=2"))))
    }

    @Test("fingerprints: values that run together differently, or contain the separators, are different payloads")
    func fingerprintFieldsDoNotRunTogether() throws {
        let route = RouteDefinition(name: "r", pattern: "/r/:a", requiresAuth: false, parameters: ["a": .string],
                                    query: [.init(name: "q", type: .string), .init(name: "q1", type: .string)],
                                    tab: "home", screen: "r")
        func link(_ a: String, _ query: [String: [String]], campaign: CampaignMetadata = CampaignMetadata(source: .push)) -> ParsedDeeplink {
            ParsedDeeplink(configuration: route, pathParameters: ["a": a], queryParameters: query, campaignMetadata: campaign,
                           webBaseURL: "https://sendy.co.kr")
        }
        let payloads = [
            link("x", ["q": ["1:y"]]),
            link("x", ["q1": [":y"]]),
            link("x", ["q": ["1", "y"]]),
            link("x1", ["q": ["y"]]),
            link("x", ["q": ["y"]], campaign: CampaignMetadata(campaignId: "1:push", source: .push)),
            link("x", ["q": ["y"]], campaign: CampaignMetadata(campaignId: "1", groupId: "push", source: .push)),
            link("x", [:]),
            link("x", ["q": [""]]),
            // Joined with a separator but no lengths, these two would read the same.
            link("x", [:], campaign: CampaignMetadata(campaignId: "a:group_id:b", utm: ["utm_z": "c"], source: .push)),
            link("x", [:], campaign: CampaignMetadata(campaignId: "a", groupId: "b:utm_z:c", source: .push)),
        ]
        let fingerprints = payloads.map(RouteEnvelope.fingerprint(of:))
        #expect(Set(fingerprints).count == payloads.count, "\(fingerprints)")
        // The same payload built twice is the same fingerprint.
        #expect(RouteEnvelope.fingerprint(of: link("x", ["q": ["1:y"]])) == fingerprints[0])
    }

    @Test("a fingerprint's text: each field its UTF-8 length, a colon, its bytes; keys sorted, campaign in URL order")
    func fingerprintText() throws {
        let route = RouteDefinition(name: "apply", pattern: "/a/:slug/:id", requiresAuth: false, parameters: ["slug": .string, "id": .string],
                                    query: [.init(name: "z", type: .string), .init(name: "b", type: .string)], tab: "home", screen: "a")
        let long = String(repeating: "x", count: 123)
        let link = ParsedDeeplink(
            configuration: route, pathParameters: ["slug": "신청", "id": long], queryParameters: ["z": ["1", "22"], "b": [""]],
            campaignMetadata: CampaignMetadata(campaignId: "c", utm: ["utm_zz": "3", "utm_medium": "m", "utm_source": "s"], source: .push),
            webBaseURL: "https://sendy.co.kr")
        let expected = "5:apply" + "6:path 2" + "2:id" + "123:" + long + "4:slug" + "6:신청"
            + "7:query 2" + "1:b" + "1:1" + "0:" + "1:z" + "1:2" + "1:1" + "2:22"
            + "10:campaign 4" + "11:campaign_id" + "1:c" + "10:utm_source" + "1:s" + "10:utm_medium" + "1:m" + "6:utm_zz" + "1:3"
            + "4:push"
        #expect(RouteEnvelope.fingerprint(of: link) == expected)
        let envelope = RouteEnvelope(id: EnvelopeID(1), route: link, receivedAt: Date(timeIntervalSince1970: 0))
        #expect(envelope.fingerprint == expected)
        // A fingerprint handed over (a taken offer) is kept as given.
        let carried = RouteEnvelope(id: EnvelopeID(2), route: link, receivedAt: Date(timeIntervalSince1970: 0), fingerprint: "given")
        #expect(carried.fingerprint == "given")
    }

    @Test("a fingerprint longer than the buffer it starts with is written whole")
    func longFingerprint() {
        let route = RouteDefinition(name: "apply", pattern: "/a/:slug", requiresAuth: false, parameters: ["slug": .string],
                                    tab: "home", screen: "a")
        // 3 bytes a character: one field far past the first 256 bytes, then small ones after it.
        let slug = String(repeating: "신", count: 700)
        let link = ParsedDeeplink(configuration: route, pathParameters: ["slug": slug],
                                  campaignMetadata: CampaignMetadata(campaignId: "c", source: .push), webBaseURL: "https://sendy.co.kr")
        let expected = "5:apply" + "6:path 1" + "4:slug" + "2100:" + slug + "7:query 0" + "10:campaign 1" + "11:campaign_id" + "1:c" + "4:push"
        #expect(RouteEnvelope.fingerprint(of: link) == expected)
    }

    private func isDuplicate(_ disposition: NavigationDisposition) -> Bool {
        if case .duplicate = disposition { return true }
        return false
    }

    nonisolated static let stepFailures: [(step: NavigationStep, failure: NavigationFailure)] = [
        (.selectTab, .tabNotSelected(NavigationStepError("injected"))),
        (.attachList, .listNotAttached(NavigationStepError("injected"))),
        (.resolveDetail, .detailFailed(NavigationStepError("injected"))),
        (.show, .showFailed(NavigationStepError("injected"))),
    ]

    @Test("a failed step consumes the envelope with a typed reason naming the step; nothing is left to replay",
          arguments: stepFailures)
    func failedStepConsumes(step: NavigationStep, failure: NavigationFailure) throws {
        let fixture = try NavigatorFixture()
        fixture.host.failing[step] = "injected"
        let disposition = fixture.navigator.navigate(try fixture.link("/vehicles/v-1"))
        #expect(disposition == .failed(EnvelopeID(1), failure))
        #expect(failure.step == step)
        #expect(fixture.outcomes(EnvelopeID(1)) == [.failed(failure)])
        #expect(fixture.navigator.pending == nil && fixture.navigator.waiting.isEmpty && fixture.navigator.current == nil)
        #expect(fixture.host.shown.isEmpty)
        // The next one is not held up by the failure.
        fixture.host.failing = [:]
        #expect(fixture.navigator.navigate(try fixture.link("/vehicles")) == .navigated(EnvelopeID(2)))
    }

    @Test("a detail that resolves to nothing: consumed as failed(detail_not_found), nothing shown")
    func detailNotFound() throws {
        let fixture = try NavigatorFixture()
        fixture.host.notFoundRoutes = ["vehicleDetail"]
        let disposition = fixture.navigator.navigate(try fixture.link("/vehicles/v-gone"))
        #expect(disposition == .failed(EnvelopeID(1), .detailNotFound))
        #expect(NavigationFailure.detailNotFound.code == "detail_not_found")
        #expect(fixture.host.shown.isEmpty)
    }

    @Test("no host attached: failed(no_host), consumed")
    func noHost() throws {
        let fixture = try NavigatorFixture()
        fixture.navigator.host = nil
        #expect(fixture.navigator.navigate(try fixture.link("/start")) == .failed(EnvelopeID(1), .noHost))
    }

    @Test("a navigation started from inside a step queues behind the one running, and then runs")
    func reentrantNavigationQueues() throws {
        let fixture = try NavigatorFixture(appState: .coldStart)
        let extra = try fixture.link("/start")
        var inner: NavigationDisposition?
        fixture.host.onShow = { destination in
            if destination.route.name == "eventCampaign" && inner == nil {
                inner = fixture.navigator.navigate(extra)
            }
        }
        fixture.navigator.navigate(try fixture.link("/event/x"))
        fixture.navigator.navigate(try fixture.link("/vehicles"))
        fixture.navigator.becomeReady()
        #expect(inner == .inProgress(EnvelopeID(3)))
        #expect(fixture.host.shownRoutes == ["eventCampaign", "vehicleList", "onboardingStart"])
    }

    @Test("the audit log is bounded")
    func logBounded() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: true)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 0, logCapacity: 100)
        let link = try handler.parse("https://sendy.co.kr/vehicles")
        for _ in 0..<1_000 { navigator.navigate(link) }
        #expect(navigator.log.entries.count <= 125)
        #expect(navigator.log.entries.count + navigator.log.droppedCount == 1_000)
    }
}

@Suite("Enabled pages: routes.json says which channels may open a route")
@MainActor
struct EnabledPagesTests {
    @Test("checkout from a marketing link is refused with a reason; from push it navigates")
    func refusedByChannel() throws {
        let fixture = try NavigatorFixture()
        let link = try fixture.link("/checkout/k-1?utm_source=sms")
        let refused = fixture.navigator.navigate(link, from: .externalURL)
        let refusal = NavigationRefusal(route: "checkout", channel: .externalURL, enabledFrom: [.push, .kakaotalk, .appInternal, .bridge])
        #expect(refused == .refused(EnvelopeID(1), refusal))
        #expect(refusal.description == "route checkout is not enabled from externalURL (enabled from: push, appInternal, bridge, kakaotalk)")
        #expect(fixture.outcomes(EnvelopeID(1)) == [.refused(refusal)])
        #expect(fixture.host.calls.isEmpty)
        // A refusal is not remembered as a first delivery: the same payload from push is not a duplicate.
        #expect(fixture.navigator.navigate(link, from: .push) == .navigated(EnvelopeID(2)))
    }

    @Test("the channel defaults to the link's campaign source; a CTA passes bridge")
    func channelDefaultsToSource() throws {
        let fixture = try NavigatorFixture()
        let marketing = try fixture.link("/checkout/k-2", source: .externalURL)
        guard case .refused(_, let refusal) = fixture.navigator.navigate(marketing) else { Issue.record("not refused"); return }
        #expect(refusal.channel == .externalURL)
        #expect(fixture.navigator.navigate(marketing, from: .bridge) == .navigated(EnvelopeID(2)))
    }

    @Test("refused before the auth gate: a refused auth-required link presents no login")
    func refusedBeforeLogin() throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let disposition = fixture.navigator.navigate(try fixture.link("/review/5"), from: .externalURL)
        guard case .refused = disposition else { Issue.record("got \(disposition)"); return }
        #expect(fixture.host.loginPresentations == 0)
        #expect(fixture.navigator.pending == nil)
    }
}
