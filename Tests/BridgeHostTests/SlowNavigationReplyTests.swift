import Testing
import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting
import TestSupport

/// The reply to a CTA whose navigation takes time: given when the navigation settles, or with
/// `resolving: true` at `timeoutMs - replyMarginMs` (apply v1: 5000 - 500 = 4500 ms;
/// view_vehicles v1: 3000 - 500 = 2500 ms), whichever comes first. Exactly one reply either way.
@Suite("Replies to navigations that take time")
@MainActor
struct SlowNavigationReplyTests {
    static let compiled = Result { try CompiledContracts(contracts: try ContractSet.load(directory: RepositoryPaths.contracts.path)) }

    func host(detailLatency: Int? = nil, loggedIn: Bool = true) throws -> MockBridgeHost {
        let host = try MockBridgeHost(compiled: try Self.compiled.get(), loggedIn: loggedIn)
        if let detailLatency { host.stepLatencyMs[.resolveDetail] = detailLatency }
        try host.open(entry: seedEntry)
        return host
    }

    @Test("a 300 ms detail fetch: the reply waits for it and says navigated, no resolving flag")
    func replyAfterFetch() throws {
        let host = try host(detailLatency: 300)
        #expect(host.receive(message("view_vehicles", id: "slow-000001", payload: ["vehicleType": "1ton"])) == nil)
        #expect(host.replies.isEmpty && host.navigations.isEmpty)
        #expect(host.waitingStep?.step == .resolveDetail)
        host.advanceClock(byMs: 299)
        #expect(host.replies.isEmpty)
        host.advanceClock(byMs: 1)
        let reply = try #require(host.replies.first)
        #expect(reply.ok && reply.result?.resolving == false && reply.id == "slow-000001")
        #expect(reply.json.serialized().contains("resolving") == false)
        #expect(host.navigations.map(\.route) == ["vehicleList"])
        // screen_view comes with the navigation, after the fetch.
        #expect(host.analyticsEvents.map(\.name) == ["event_webview_opened", "event_webview_cta_clicked", "screen_view"])
    }

    @Test("a fetch slower than the page waits: ok with resolving at timeoutMs - 500; the navigation follows, no second reply")
    func resolvingBeforeThePageTimesOut() throws {
        let host = try host(detailLatency: 8_000)
        host.receive(message("view_vehicles", id: "slow-000002", payload: ["vehicleType": "1ton"]))
        host.advanceClock(byMs: 2_499)
        #expect(host.replies.isEmpty)
        host.advanceClock(byMs: 1)
        let reply = try #require(host.replies.first)
        #expect(reply.ok && reply.result?.resolving == true)
        #expect(reply.json.serialized() == #"{"v":1,"id":"slow-000002","ok":true,"result":{"route":"vehicleList","url":"https://sendy.co.kr/vehicles?vehicleType=1ton","pendingLogin":false,"resolving":true}}"#)
        #expect(host.navigations.isEmpty)
        host.advanceClock(byMs: 5_500)
        #expect(host.navigations.map(\.route) == ["vehicleList"])
        #expect(host.replies.count == 1)
        #expect(host.bridge.awaitingReplyCount == 0)
    }

    @Test("the detail fetch fails: NAVIGATION_FAILED with the reason and the step in details")
    func fetchFails() throws {
        let host = try host(detailLatency: 200)
        host.detailOutcomes["vehicleList"] = .fail("HTTP 503")
        host.receive(message("view_vehicles", id: "slow-000003", payload: ["vehicleType": "1ton"]))
        host.advanceClock(byMs: 200)
        let error = try #require(host.replies.first?.error)
        #expect(error.code == .navigationFailed)
        #expect(error.message == "the detail could not be resolved: HTTP 503")
        #expect(error.details == [["reason": "detail_failed", "route": "vehicleList", "step": "resolveDetail"]])
    }

    @Test("the detail resolves to nothing (at once): NAVIGATION_FAILED detail_not_found, answered before receive returns")
    func detailNotFound() throws {
        let host = try host()
        host.detailOutcomes["applyForm"] = .notFound
        let reply = try #require(host.receive(message("apply", id: "slow-000004")))
        #expect(reply.error?.code == .navigationFailed)
        #expect(reply.error?.details == [["reason": "detail_not_found", "route": "applyForm", "step": "resolveDetail"]])
        #expect(host.navigations.isEmpty)
        #expect(host.events(named: "screen_view").isEmpty)
    }

    @Test("a second CTA while the first resolves is queued behind it; each gets its own reply, in order")
    func secondMessageQueues() throws {
        let host = try host(detailLatency: 1_000)
        host.receive(message("view_vehicles", id: "slow-000005", payload: ["vehicleType": "1ton"]))
        host.advanceClock(byMs: 400)
        host.receive(message("start", id: "slow-000006", payload: [:]))
        #expect(host.records.contains(.envelope(id: EnvelopeID(2), route: "onboardingStart", outcome: .queued(behind: EnvelopeID(1)))))
        host.advanceClock(byMs: 600)
        #expect(host.replies.map(\.id) == ["slow-000005"])
        host.advanceClock(byMs: 1_000)
        #expect(host.replies.map(\.id) == ["slow-000005", "slow-000006"])
        #expect(host.replies.allSatisfy { $0.ok && $0.result?.resolving == false })
        #expect(host.navigations.map(\.route) == ["vehicleList", "onboardingStart"])
    }

    @Test("a logout during the fetch of an auth-required page: NAVIGATION_FAILED cancelled_by_logout, nothing shown")
    func logoutDuringFetch() throws {
        let host = try host(detailLatency: 1_000)
        host.receive(message("apply", id: "slow-000007"))
        host.advanceClock(byMs: 500)
        host.logout()
        let error = try #require(host.replies.first?.error)
        #expect(error.code == .navigationFailed)
        #expect(error.details == [["reason": "cancelled_by_logout", "route": "applyForm"]])
        host.advanceClock(byMs: 5_000)
        #expect(host.navigations.isEmpty && host.replies.count == 1)
    }

    @Test("a notification whose navigation takes time: no reply; its outcome is recorded when it settles")
    func notificationRecordedLater() throws {
        let host = try host(detailLatency: 300)
        #expect(host.receive(message("view_vehicles", id: nil, payload: ["vehicleType": "1ton"])) == nil)
        #expect(!host.records.contains { if case .notification = $0 { return true } else { return false } })
        host.advanceClock(byMs: 300)
        #expect(host.records.contains(.notification(action: "view_vehicles", version: 1, outcome: "ok")))
        #expect(host.replies.isEmpty)
    }

    @Test("the async receive answers when the navigation settles")
    func asyncReceive() async throws {
        let host = try host(detailLatency: 300)
        let body = Array(message("view_vehicles", id: "slow-000008", payload: ["vehicleType": "1ton"]).utf8)
        let answer = Task { await host.bridge.receive(body: body, origin: "https://sendy.co.kr", isMainFrame: true) }
        for _ in 0..<1_000 where host.bridge.awaitingReplyCount == 0 { await Task.yield() }
        #expect(host.bridge.awaitingReplyCount == 1)
        host.advanceClock(byMs: 300)
        let reply = try #require(await answer.value)
        #expect(reply.ok && reply.id == "slow-000008")
        // Answered at once: the async form returns without anything else happening.
        #expect(await host.bridge.receive(body: "{\"v\":1}", origin: "https://sendy.co.kr", isMainFrame: true)?.error?.code == .invalidMessage)
    }

    @Test("a CTA whose route routes.json does not enable from the bridge: NAVIGATION_FAILED not_enabled")
    func notEnabledFromTheBridge() throws {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        let text = try #require(files["routes.json"])
        let start = try #require(text.range(of: #""name": "vehicleList""#))
        let enabled = try #require(text.range(of: #""enabledFrom": ["push", "kakaotalk", "externalURL", "appInternal", "bridge", "deferred"]"#,
                                              range: start.upperBound..<text.endIndex))
        files["routes.json"] = text.replacingCharacters(in: enabled, with: #""enabledFrom": ["push"]"#)
        let host = try MockBridgeHost(contracts: try ContractSet(files: files, origin: "a copy"))
        let reply = try #require(host.receive(message("view_vehicles", id: "refused-0001", payload: ["vehicleType": "1ton"])))
        #expect(reply.error?.code == .navigationFailed)
        #expect(reply.error?.message == "route vehicleList is not enabled from bridge (enabled from: push)")
        #expect(reply.error?.details == [["reason": "not_enabled", "route": "vehicleList", "channel": "bridge"]])
        #expect(host.navigations.isEmpty)
    }
}

/// The app's coordinator with async/await steps that have nothing to wait for.
@MainActor
private final class CachedScreensApp: NavigationHost, AuthState {
    var isLoggedIn = true
    private(set) var shown: [String] = []
    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {}
    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {}
    func resolveDetail(for destination: NavigationDestination, in stack: Void) async throws(NavigationStepError) -> Void? { () }
    func show(_ detail: Void, in stack: Void, for destination: NavigationDestination) throws(NavigationStepError) {
        shown.append(destination.route.name)
    }
    func presentLogin() {}
}

@Suite("Replies to navigations that need not wait")
@MainActor
struct ImmediateNavigationReplyTests {
    @Test("an async host whose steps do not suspend: the reply comes before receive returns, nothing is left waiting")
    func answeredWithinReceive() throws {
        let app = CachedScreensApp()
        let clock = ManualNavigationClock()
        let navigator = DeeplinkNavigator(host: app, auth: app, clock: clock, duplicateWindowMs: 2_000)
        let bridge = try BridgeHost(compiled: try SlowNavigationReplyTests.compiled.get(), navigator: navigator)
        try bridge.open(entry: seedEntry)
        var replies: [BridgeReply?] = []
        bridge.receive(body: message("view_vehicles", id: "fast-000001", payload: ["vehicleType": "1ton"]),
                       origin: "https://sendy.co.kr", isMainFrame: true) { replies.append($0) }
        #expect(replies.count == 1)
        let reply = try #require(replies.first ?? nil)
        #expect(reply.ok && reply.id == "fast-000001" && reply.result?.resolving == false)
        #expect(app.shown == ["vehicleList"])
        #expect(bridge.awaitingReplyCount == 0)
        #expect(clock.scheduledCount == 0, "no reply deadline and no step timer were needed")
    }
}
