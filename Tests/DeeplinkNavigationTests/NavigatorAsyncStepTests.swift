import Testing
import DeeplinkRouting
import DeeplinkNavigation

/// Steps that take time: the host holds the tab switch and the detail fetch until the test
/// completes them, so what arrives "during the fetch" arrives exactly then.
@Suite("Navigation steps that take time")
@MainActor
struct NavigatorAsyncStepTests {
    @Test("a second envelope arriving while the first waits for its fetch waits behind it, then runs")
    func secondWaitsBehindFirst() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true)
        let first = fixture.navigator.navigate(try fixture.link("/vehicles/v-1"))
        #expect(first == .inProgress(EnvelopeID(1)))
        #expect(fixture.navigator.current?.step == .selectTab)
        fixture.host.completeNext()  // tab switched; the detail fetch starts
        #expect(fixture.navigator.current?.step == .resolveDetail)

        let second = fixture.navigator.navigate(try fixture.link("/start"))
        #expect(second == .inProgress(EnvelopeID(2)))
        #expect(fixture.outcomes(EnvelopeID(2)) == [.queued(behind: EnvelopeID(1))])
        #expect(fixture.host.started == [EnvelopeID(1)])

        fixture.host.completeNext()  // detail fetched: #1 shown, #2 starts
        #expect(fixture.outcomes(EnvelopeID(1)) == [.navigated])
        #expect(fixture.host.started == [EnvelopeID(1), EnvelopeID(2)])
        fixture.host.completeNext()
        fixture.host.completeNext()
        #expect(fixture.host.shown == [EnvelopeID(1), EnvelopeID(2)])
        #expect(fixture.outcomes(EnvelopeID(2)) == [.queued(behind: EnvelopeID(1)), .navigated])
        #expect(fixture.host.violations.isEmpty)
    }

    @Test("a logout during the fetch of an auth-required detail cancels it; the late fetch result is ignored")
    func logoutDuringFetch() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true)
        let order = fixture.navigator.navigate(try fixture.link("/order/12")).envelopeID
        let event = fixture.navigator.navigate(try fixture.link("/event/after")).envelopeID
        fixture.host.completeNext()  // tab
        #expect(fixture.navigator.current?.step == .resolveDetail)
        let fetch = try #require(fixture.host.outstanding.first)

        fixture.logout()
        #expect(fixture.outcomes(order) == [.cancelledByLogout])
        #expect(fixture.host.calls.contains(.cancelSteps(order)))
        // The fetch answers anyway, late: nothing happens for #1.
        fetch.complete(nil)
        #expect(fixture.outcomes(order) == [.cancelledByLogout])
        // The public page queued behind it goes on.
        #expect(fixture.host.started == [order, event])
        fixture.host.completeNext()
        fixture.host.completeNext()
        #expect(fixture.host.shownRoutes == ["eventCampaign"])
        #expect(fixture.host.violations.isEmpty)
    }

    @Test("a logout during the fetch of a public page does not stop it")
    func logoutDuringPublicFetch() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true)
        let id = fixture.navigator.navigate(try fixture.link("/vehicles/v-9")).envelopeID
        fixture.host.completeNext()
        fixture.logout()
        fixture.host.completeNext()
        #expect(fixture.outcomes(id) == [.navigated])
    }

    @Test("the detail fetch fails after the tab was switched: failed(detail_failed), and the queue moves on")
    func fetchFailsAfterTabSwitch() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true)
        let first = fixture.navigator.navigate(try fixture.link("/vehicles/v-1")).envelopeID
        let second = fixture.navigator.navigate(try fixture.link("/vehicles")).envelopeID
        fixture.host.completeNext()
        fixture.host.completeNext(.failure(NavigationStepError("HTTP 503")))
        #expect(fixture.outcomes(first) == [.failed(.detailFailed(NavigationStepError("HTTP 503")))])
        #expect(fixture.host.calls.prefix(3) == [.selectTab("vehicles", first), .attachList("vehicleList", first), .resolveDetail(first)])
        #expect(fixture.navigator.current?.envelope.id == second)
    }

    @Test("a step that never completes times out after stepTimeoutMs and is cancelled; its late completion is ignored")
    func stepTimeout() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true, stepTimeoutMs: 3_000)
        let id = fixture.navigator.navigate(try fixture.link("/vehicles/v-1")).envelopeID
        fixture.host.completeNext()
        let fetch = try #require(fixture.host.outstanding.first)
        fixture.clock.advance(byMs: 2_999)
        #expect(fixture.outcomes(id).isEmpty)
        fixture.clock.advance(byMs: 1)
        #expect(fixture.outcomes(id) == [.failed(.timedOut(.resolveDetail, afterMs: 3_000))])
        #expect(fixture.host.calls.last == .cancelSteps(id))
        fetch.complete(nil)
        #expect(fixture.host.shown.isEmpty)
        #expect(fixture.outcomes(id).count == 1)
    }

    @Test("each step gets its own timeout: a slow tab and a slow fetch within the limit both pass")
    func timeoutPerStep() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true, stepTimeoutMs: 3_000)
        let id = fixture.navigator.navigate(try fixture.link("/vehicles/v-1")).envelopeID
        fixture.clock.advance(byMs: 2_500)
        fixture.host.completeNext()
        fixture.clock.advance(byMs: 2_500)
        fixture.host.completeNext()
        #expect(fixture.outcomes(id) == [.navigated])
        #expect(fixture.clock.scheduledCount == 0)
    }

    @Test("cancel: a running, a queued and a pending envelope are each consumed as cancelled")
    func cancel() throws {
        let fixture = try NavigatorFixture(loggedIn: false, holdsAsyncSteps: true)
        let running = fixture.navigator.navigate(try fixture.link("/vehicles/v-1")).envelopeID
        let queued = fixture.navigator.navigate(try fixture.link("/start")).envelopeID
        let pending = fixture.navigator.navigate(try fixture.link("/order/3")).envelopeID
        #expect(fixture.navigator.cancel(queued))
        #expect(fixture.navigator.cancel(pending))
        #expect(fixture.navigator.cancel(running))
        #expect(!fixture.navigator.cancel(running))
        #expect(fixture.outcomes(running) == [.cancelled])
        #expect(fixture.outcomes(queued) == [.queued(behind: running), .cancelled])
        #expect(fixture.outcomes(pending) == [.pendingLogin, .cancelled])
        #expect(fixture.host.outstanding.isEmpty)
        #expect(fixture.navigator.current == nil && fixture.navigator.waiting.isEmpty && fixture.navigator.pending == nil)
    }

    @Test("policy: a newer auth-required envelope arriving while one resolves (logged in) waits its turn; both navigate")
    func newerAuthWhileResolving() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true)
        let first = fixture.navigator.navigate(try fixture.link("/order/1")).envelopeID
        fixture.host.completeNext()
        let second = fixture.navigator.navigate(try fixture.link("/order/2")).envelopeID
        while fixture.host.completeNext() != nil {}
        #expect(fixture.host.shown == [first, second])
    }

    @Test("a completion called twice counts once")
    func completionTwice() throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true)
        let first = fixture.navigator.navigate(try fixture.link("/vehicles/v-1")).envelopeID
        let tab = try #require(fixture.host.completeNext())
        tab.complete(nil)  // again: must not skip the fetch
        #expect(fixture.navigator.current?.step == .resolveDetail)
        fixture.host.completeNext()
        #expect(fixture.outcomes(first) == [.navigated])
    }

    @Test("settlement(of:) answers once the envelope is consumed or parked")
    func settlement() async throws {
        let fixture = try NavigatorFixture(holdsAsyncSteps: true)
        let id = fixture.navigator.navigate(try fixture.link("/vehicles/v-1")).envelopeID
        async let outcome = fixture.navigator.settlement(of: id)
        await Task.yield()
        fixture.host.completeNext()
        fixture.host.completeNext()
        #expect(await outcome == .navigated)
        #expect(await fixture.navigator.settlement(of: id) == .navigated)
        #expect(await fixture.navigator.settlement(of: EnvelopeID(99)) == nil)
    }

    /// A request parked for login is settled (its reply said so) though the navigator still
    /// holds it: asking afterwards answers at once, and never waits for the login.
    /// (Asked from a task of its own and polled, so a regression fails here instead of hanging.)
    @Test("settlement(of:) a request already parked for login answers at once")
    func settlementOfAParkedRequest() async throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let id = fixture.navigator.navigate(try fixture.link("/order/12")).envelopeID
        #expect(fixture.navigator.pending?.id == id)
        let answer = SettlementAnswer()
        Task { @MainActor in answer.outcome = await fixture.navigator.settlement(of: id) }
        for _ in 0..<1_000 where answer.outcome == nil { await Task.yield() }
        let settled = try #require(answer.outcome, "settlement(of:) waited for the login")
        #expect(settled.settlesRequest && !settled.isTerminal, "\(settled)")
        #expect(fixture.navigator.pending?.id == id, "still held for the login")
    }

    /// consumption(of:) is the other question: what the request finally did. Parked for login, it
    /// is not answered yet; after the login it is, with the navigation.
    @Test("consumption(of:) a request parked for login waits for the login, then answers navigated")
    func consumptionOfAParkedRequestWaitsForTheLogin() async throws {
        let fixture = try NavigatorFixture(loggedIn: false)
        let id = fixture.navigator.navigate(try fixture.link("/order/12")).envelopeID
        let answer = SettlementAnswer()
        Task { @MainActor in answer.outcome = await fixture.navigator.consumption(of: id) }
        for _ in 0..<200 { await Task.yield() }
        #expect(answer.outcome == nil, "consumption(of:) answered before the login: \(String(describing: answer.outcome))")
        fixture.login()
        for _ in 0..<1_000 where answer.outcome == nil { await Task.yield() }
        #expect(answer.outcome == .navigated)
    }
}

@MainActor
private final class SettlementAnswer {
    var outcome: EnvelopeOutcome?
}
