import Testing
import DeeplinkRouting
import DeeplinkNavigation

@Suite("DeeplinkNavigator rules")
struct DeeplinkNavigatorTests {
    @Test("foreground: tab, then list for back navigation, then the destination; envelope consumed as navigated")
    func foregroundNavigatesInSteps() throws {
        let fixture = try NavigatorFixture()
        let disposition = fixture.navigator.navigate(try fixture.link("/vehicles/v-100"))
        guard case .navigated(let id) = disposition else { Issue.record("got \(disposition)"); return }
        #expect(fixture.host.calls == [.selectTab("vehicles", id), .attachList("vehicleList", id), .show("vehicleDetail", id)])
        #expect(fixture.outcomes(id) == [.navigated])
    }

    @Test("a route without a list is shown without attaching one")
    func noListNoAttach() throws {
        let fixture = try NavigatorFixture()
        let id = fixture.navigator.navigate(try fixture.link("/vehicles")).envelopeID
        #expect(fixture.host.calls == [.selectTab("vehicles", id), .show("vehicleList", id)])
    }

    @Test("auth-required while logged out: pending, login presented; login consumes it exactly once")
    func pendingLoginConsumedOnce() throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let disposition = fixture.navigator.navigate(try fixture.link("/order/42"))
        #expect(disposition == .pendingLogin(disposition.envelopeID))
        #expect(fixture.host.calls == [.presentLogin])
        #expect(fixture.navigator.pending?.id == disposition.envelopeID)

        fixture.host.isLoggedIn = true
        fixture.navigator.didCompleteLogin()
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
        let second = fixture.navigator.navigate(try fixture.link("/checkout/abc")).envelopeID
        #expect(fixture.outcomes(first) == [.pendingLogin, .replacedWhilePending(by: second)])
        #expect(fixture.host.loginPresentations == 1)

        fixture.host.isLoggedIn = true
        fixture.navigator.didCompleteLogin()
        #expect(fixture.host.shownRoutes == ["checkout"])
        #expect(fixture.outcomes(second) == [.pendingLogin, .navigated])
    }

    @Test("policy: logout while pending cancels it on record; a later login shows nothing")
    func logoutCancelsPending() throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let id = fixture.navigator.navigate(try fixture.link("/order/7")).envelopeID
        fixture.navigator.didLogout()
        #expect(fixture.outcomes(id) == [.pendingLogin, .cancelledByLogout])
        fixture.host.isLoggedIn = true
        fixture.navigator.didCompleteLogin()
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
        fixture.host.isLoggedIn = true
        fixture.navigator.didCompleteLogin()
        #expect(fixture.host.shown.isEmpty)
        #expect(fixture.outcomes(id) == [.pendingLogin, .waitingForReady])
        fixture.navigator.becomeReady()
        #expect(fixture.host.shown == [id])
        #expect(fixture.outcomes(id) == [.pendingLogin, .waitingForReady, .navigated])
    }

    @Test("auth is checked again when the gate opens: a logout while waiting turns into pending login")
    func authRecheckedAtGate() throws {
        let fixture = try NavigatorFixture(loggedIn: true, appState: .coldStart)
        let id = fixture.navigator.navigate(try fixture.link("/order/9")).envelopeID
        fixture.host.isLoggedIn = false
        fixture.navigator.didLogout()
        fixture.navigator.becomeReady()
        #expect(fixture.host.shown.isEmpty)
        #expect(fixture.outcomes(id) == [.waitingForReady, .pendingLogin])
        #expect(fixture.host.authViolations.isEmpty)
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
        fixture.clock.advance(milliseconds: 1_999)
        let second = fixture.navigator.navigate(link)
        #expect(second == .duplicate(EnvelopeID(2), of: first.envelopeID))
        #expect(fixture.outcomes(second.envelopeID) == [.duplicate(of: first.envelopeID)])
        fixture.clock.advance(milliseconds: 1)
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

    @Test("a failed step consumes the envelope as failed; it is not left pending to replay")
    func failedStepConsumes() throws {
        let fixture = try NavigatorFixture()
        fixture.host.failing["attachList"] = "list coordinator unavailable"
        let disposition = fixture.navigator.navigate(try fixture.link("/vehicles/v-1"))
        #expect(disposition == .failed(EnvelopeID(1), reason: "list coordinator unavailable"))
        #expect(fixture.outcomes(EnvelopeID(1)) == [.failed(reason: "list coordinator unavailable")])
        #expect(fixture.navigator.pending == nil && fixture.navigator.waiting.isEmpty)
        #expect(fixture.host.shown.isEmpty)
    }

    @Test("no host attached: failed, consumed")
    func noHost() throws {
        let fixture = try NavigatorFixture()
        fixture.navigator.host = nil
        #expect(fixture.navigator.navigate(try fixture.link("/start")) == .failed(EnvelopeID(1), reason: "no navigation host is attached"))
    }

    @Test("a navigation started while the gate drains queues behind the ones already waiting")
    func reentrantDrainKeepsOrder() throws {
        let fixture = try NavigatorFixture(appState: .coldStart)
        let extra = try fixture.link("/start")
        var triggered = false
        fixture.host.onShow = { destination in
            if destination.route.name == "eventCampaign" && !triggered {
                triggered = true
                fixture.navigator.navigate(extra)
            }
        }
        fixture.navigator.navigate(try fixture.link("/event/x"))
        fixture.navigator.navigate(try fixture.link("/vehicles"))
        fixture.navigator.becomeReady()
        #expect(fixture.host.shownRoutes == ["eventCampaign", "vehicleList", "onboardingStart"])
    }

    @Test("the audit log is bounded")
    func logBounded() throws {
        let handler = try repositoryHandler()
        let host = RecordingHost(loggedIn: true)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 0, logCapacity: 100)
        let link = try handler.parse("https://sendy.co.kr/vehicles")
        for _ in 0..<1_000 { navigator.navigate(link) }
        #expect(navigator.log.entries.count <= 125)
        #expect(navigator.log.entries.count + navigator.log.droppedCount == 1_000)
    }
}
