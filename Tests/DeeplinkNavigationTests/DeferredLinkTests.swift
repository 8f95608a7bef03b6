import Testing
import DeeplinkRouting
import DeeplinkNavigation

/// Shows offers by writing them down.
@MainActor
final class RecordingPresenter: DeferredOfferPresenting {
    private(set) var shown: [EnvelopeID] = []
    private(set) var ended: [EnvelopeID: OfferEnd] = [:]
    var current: EnvelopeID? { shown.last.flatMap { ended[$0] == nil ? $0 : nil } }
    func presentOffer(_ destination: NavigationDestination) { shown.append(destination.envelopeID) }
    func withdrawOffer(_ destination: NavigationDestination, because end: OfferEnd) { ended[destination.envelopeID] = end }
}

/// Deferred deep links (install attribution, the routing seed): inside the window and before the
/// person does anything, they navigate like any link; after that, they are offered, not forced.
/// Being offered consumes the envelope; taking the offer navigates its destination as a new one.
@Suite("Deferred deep links that arrive late")
@MainActor
struct DeferredLinkTests {
    @MainActor
    struct Setup {
        let fixture: NavigatorFixture
        let presenter = RecordingPresenter()
        init(loggedIn: Bool = true, appState: AppState = .foreground) throws {
            fixture = try NavigatorFixture(loggedIn: loggedIn, appState: appState)
            fixture.navigator.offerPresenter = presenter
        }
        var navigator: DeeplinkNavigator { fixture.navigator }
        var host: ScriptedHost { fixture.host }
        func deferred(_ path: String) throws -> NavigationDisposition {
            fixture.navigator.navigate(try fixture.link(path, source: .externalURL), from: .deferred)
        }
        func outcomes(_ id: EnvelopeID) -> [EnvelopeOutcome] { fixture.outcomes(id) }
        /// Offers a link: the person is browsing when it arrives.
        func offered(_ path: String) throws -> EnvelopeID {
            navigator.didInteract()
            let disposition = try deferred(path)
            #expect(disposition == .offered(disposition.envelopeID))
            return disposition.envelopeID
        }
    }

    static let event = "/event/autumn-promo?campaign_id=2025Q3_install&utm_source=instagram"
    static let vehicles = "/vehicles?vehicleType=1ton&utm_source=instagram"

    @Test("arrives before ready (cold start, inside the window): waits at the ready gate, then navigates")
    func arrivesBeforeReady() throws {
        let setup = try Setup(appState: .coldStart)
        setup.fixture.clock.advance(byMs: 3_000)
        let id = try setup.deferred(Self.event).envelopeID
        #expect(setup.outcomes(id) == [.waitingForReady])
        #expect(setup.host.calls.isEmpty)
        setup.navigator.becomeReady()
        #expect(setup.outcomes(id) == [.waitingForReady, .navigated])
        #expect(setup.presenter.shown.isEmpty)
    }

    @Test("after ready, nobody has touched the app, inside the window: navigates at once, up to the window's last millisecond")
    func afterReadyWithoutInteraction() throws {
        let setup = try Setup()
        setup.fixture.clock.advance(byMs: 10_000)
        #expect(try setup.deferred(Self.event) == .navigated(EnvelopeID(1)))
        #expect(setup.host.shown == [EnvelopeID(1)])
        #expect(setup.presenter.shown.isEmpty)
    }

    @Test("the window elapsed, nobody touched the app: offered (the envelope consumed as offered), not navigated")
    func windowElapsedWithoutInteraction() throws {
        let setup = try Setup()
        setup.fixture.clock.advance(byMs: 10_001)
        let disposition = try setup.deferred(Self.event)
        #expect(disposition == .offered(EnvelopeID(1)))
        #expect(setup.outcomes(EnvelopeID(1)) == [.offered])
        #expect(EnvelopeOutcome.offered.isTerminal)
        #expect(setup.presenter.current == EnvelopeID(1))
        #expect(setup.host.calls.isEmpty, "the person is not taken anywhere")
    }

    @Test("after the person started browsing: offered even inside the window; taking it navigates as a new envelope")
    func afterInteraction() throws {
        let setup = try Setup()
        setup.navigator.didInteract()
        setup.fixture.clock.advance(byMs: 2_000)
        let offer = try setup.deferred(Self.event).envelopeID
        #expect(setup.outcomes(offer) == [.offered])
        #expect(setup.navigator.offer?.id == offer)
        #expect(setup.host.calls.isEmpty)

        let taken = try setup.navigator.acceptOffer(offer)
        #expect(taken == .navigated(EnvelopeID(2)))
        #expect(setup.outcomes(EnvelopeID(2)) == [.navigated])
        #expect(setup.outcomes(offer) == [.offered], "the offered envelope was consumed once, by the offer")
        #expect(setup.host.shownRoutes == ["eventCampaign"])
        #expect(setup.presenter.ended[offer] == .taken(by: EnvelopeID(2)))
        #expect(setup.navigator.offer == nil)
        let entry = try #require(setup.navigator.log.entries.last)
        #expect(entry.acceptedOffer == offer && entry.channel == .deferred)
    }

    @Test("the same deferred link twice: consumed once, even long after the duplicate window")
    func arrivesTwice() throws {
        let setup = try Setup()
        let first = try setup.deferred(Self.event).envelopeID
        setup.fixture.clock.advance(byMs: 30_000)
        #expect(try setup.deferred(Self.event) == .duplicate(EnvelopeID(2), of: first))
        #expect(setup.host.shown == [first])
        #expect(setup.presenter.shown.isEmpty)
    }

    @Test("the same deferred link twice while its offer shows: one offer, the second a duplicate")
    func arrivesTwiceWhileOffered() throws {
        let setup = try Setup()
        let offer = try setup.offered(Self.event)
        #expect(try setup.deferred(Self.event) == .duplicate(EnvelopeID(2), of: offer))
        #expect(setup.presenter.shown == [offer] && setup.presenter.current == offer)
    }

    @Test("an offer accepted twice is taken once: the second tap is a clear error naming the envelope it became")
    func acceptedTwice() throws {
        let setup = try Setup()
        let offer = try setup.offered(Self.event)
        let taken = try setup.navigator.acceptOffer(offer)
        let error = #expect(throws: OfferError.self) { try setup.navigator.acceptOffer(offer) }
        #expect(error == OfferError(offer: offer, end: .taken(by: taken.envelopeID)))
        #expect(error?.description == "offer #1 was already taken (it navigated as envelope #2)")
        #expect(setup.host.shown == [taken.envelopeID], "navigated once")
        #expect(setup.navigator.log.entries.count == 2, "the second tap made no envelope")
    }

    @Test("logged out, inside the window: login first, then the destination; an offer taken while logged out: login first too")
    func loggedOut() throws {
        let setup = try Setup(loggedIn: false)
        let order = try setup.deferred("/order/12?utm_source=newsletter").envelopeID
        #expect(setup.outcomes(order) == [.pendingLogin])
        #expect(setup.host.loginPresentations == 1)
        setup.fixture.login()
        #expect(setup.outcomes(order) == [.pendingLogin, .navigated])

        setup.fixture.logout()
        let offer = try setup.offered("/order/13?utm_source=newsletter")
        let taken = try setup.navigator.acceptOffer(offer)
        #expect(taken == .pendingLogin(taken.envelopeID))
        #expect(setup.host.loginPresentations == 2)
        setup.fixture.login()
        #expect(setup.outcomes(taken.envelopeID) == [.pendingLogin, .navigated])
        #expect(setup.host.shownRoutes == ["orderDetail", "orderDetail"])
        #expect(setup.host.violations.isEmpty)
    }

    @Test("held for login, the person taps around the login screen and logs in: it navigates, no offer (they logged in for it)")
    func interactionWhileHeldForLogin() throws {
        let setup = try Setup(loggedIn: false)
        let order = try setup.deferred("/order/12?utm_source=newsletter").envelopeID
        setup.navigator.didInteract()
        setup.fixture.login()
        #expect(setup.outcomes(order) == [.pendingLogin, .navigated])
        #expect(setup.presenter.shown.isEmpty)
    }

    @Test("a logout ends the offer of an auth-required page; an offer of a public page stays")
    func logoutEndsAuthOffers() throws {
        let setup = try Setup()
        let order = try setup.offered("/order/7?utm_source=newsletter")
        setup.fixture.logout()
        #expect(setup.presenter.ended[order] == .loggedOut)
        #expect(throws: OfferError(offer: order, end: .loggedOut)) { try setup.navigator.acceptOffer(order) }
        let event = try setup.offered(Self.event)
        setup.fixture.logout()
        #expect(setup.presenter.current == event)
    }

    @Test("superseded: a newer offer replaces the shown one, and taking the old one is an error")
    func superseded() throws {
        let setup = try Setup()
        let first = try setup.offered(Self.event)
        let second = try setup.offered(Self.vehicles)
        #expect(setup.outcomes(first) == [.offered] && setup.outcomes(second) == [.offered])
        #expect(setup.presenter.shown == [first, second])
        #expect(setup.presenter.ended[first] == .replaced(by: second))
        let error = #expect(throws: OfferError.self) { try setup.navigator.acceptOffer(first) }
        #expect(error?.description == "offer #1 was replaced by a newer offer (#2)")
        #expect(setup.host.calls.isEmpty)
    }

    @Test("never accepted: the offer expires after its lifetime; taking it then is an error, not a navigation")
    func expires() throws {
        let setup = try Setup()
        let offer = try setup.offered(Self.event)
        setup.fixture.clock.advance(byMs: 59_999)
        #expect(setup.presenter.current == offer)
        setup.fixture.clock.advance(byMs: 1)
        #expect(setup.presenter.ended[offer] == .expired)
        let error = #expect(throws: OfferError.self) { try setup.navigator.acceptOffer(offer) }
        #expect(error?.description == "offer #1 expired")
        #expect(setup.host.calls.isEmpty)
    }

    @Test("dismissed: the offer ends; dismissing or taking it again is an error")
    func dismissed() throws {
        let setup = try Setup()
        let offer = try setup.offered(Self.event)
        try setup.navigator.dismissOffer(offer)
        #expect(setup.presenter.ended[offer] == .dismissed && setup.navigator.offer == nil)
        #expect(throws: OfferError(offer: offer, end: .dismissed)) { try setup.navigator.dismissOffer(offer) }
        #expect(throws: OfferError(offer: offer, end: .dismissed)) { try setup.navigator.acceptOffer(offer) }
        #expect(setup.host.calls.isEmpty)
    }

    @Test("taking an offer that never was (an unknown id, a navigated envelope) is a clear error")
    func unknownOffer() throws {
        let setup = try Setup()
        let navigated = try setup.deferred(Self.event).envelopeID
        let error = #expect(throws: OfferError.self) { try setup.navigator.acceptOffer(EnvelopeID(99)) }
        #expect(error?.description == "no offer #99: nothing with that id was offered")
        #expect(throws: OfferError(offer: navigated, end: nil)) { try setup.navigator.acceptOffer(navigated) }
        #expect(setup.host.shown == [navigated])
    }

    @Test("it waited at the ready gate while the person started using the app: offered when its turn comes")
    func interactionWhileWaitingForReady() throws {
        let setup = try Setup(appState: .coldStart)
        let offer = try setup.deferred(Self.event).envelopeID
        setup.navigator.didInteract()
        setup.navigator.becomeReady()
        #expect(setup.outcomes(offer) == [.waitingForReady, .offered])
        #expect(setup.host.calls.isEmpty)
        let taken = try setup.navigator.acceptOffer(offer)
        #expect(taken == .navigated(EnvelopeID(2)), "once taken, it is not offered again")
    }

    @Test("an offer taken during a cold start waits at the ready gate like any link")
    func takenBeforeReady() throws {
        let setup = try Setup(appState: .coldStart)
        let offer = try setup.offered(Self.event)
        let taken = try setup.navigator.acceptOffer(offer)
        #expect(taken == .waitingForReady(taken.envelopeID))
        setup.navigator.becomeReady()
        #expect(setup.outcomes(taken.envelopeID) == [.waitingForReady, .navigated])
    }

    @Test("routes.json decides which routes a deferred link may open: not checkout")
    func refusedByChannel() throws {
        let setup = try Setup()
        guard case .refused(_, let refusal) = try setup.deferred("/checkout/k-1") else { Issue.record("not refused"); return }
        #expect(refusal.channel == .deferred)
        #expect(setup.presenter.shown.isEmpty)
    }
}
