import Testing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeeplinkRouting
import DeeplinkNavigation

/// The stack a step hands to the next: a class, to see that the very object attachList returned
/// is the one resolveDetail and show receive.
@MainActor
final class StackToken {
    let tab: String
    init(tab: String) { self.tab = tab }
}

/// An app's coordinator written with async/await: each asynchronous step suspends until the test
/// resumes it, and tells the test (through `entered`) that it is waiting.
@MainActor
final class SuspendingHost: NavigationHost, AuthState {
    var isLoggedIn = true
    private var tab: CheckedContinuation<Result<Void, NavigationStepError>, Never>?
    private var detail: CheckedContinuation<Result<String?, NavigationStepError>, Never>?
    private let enteredContinuation: AsyncStream<String>.Continuation
    let entered: AsyncStream<String>
    private(set) var stacks: [StackToken] = []
    private(set) var shown: [(detail: String, stack: StackToken, envelope: EnvelopeID)] = []
    private(set) var logins = 0
    /// Whether the detail task was cancelled when its fetch came back.
    private(set) var fetchSawCancellation: [Bool] = []

    init() {
        (entered, enteredContinuation) = AsyncStream.makeStream(of: String.self)
    }

    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {
        let result = await withCheckedContinuation { continuation in
            tab = continuation
            enteredContinuation.yield("selectTab \(destination.tab)")
        }
        try result.get()
    }

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) -> StackToken {
        let stack = StackToken(tab: destination.tab)
        stacks.append(stack)
        return stack
    }

    func resolveDetail(for destination: NavigationDestination, in stack: StackToken) async throws(NavigationStepError) -> String? {
        let result = await withCheckedContinuation { continuation in
            detail = continuation
            enteredContinuation.yield("resolveDetail \(destination.route.name)")
        }
        fetchSawCancellation.append(Task.isCancelled)
        return try result.get()
    }

    func show(_ detail: String, in stack: StackToken, for destination: NavigationDestination) throws(NavigationStepError) {
        shown.append((detail, stack, destination.envelopeID))
    }

    func presentLogin() { logins += 1 }

    func finishTab(_ result: Result<Void, NavigationStepError> = .success(())) {
        tab?.resume(returning: result)
        tab = nil
    }

    func finishDetail(_ result: Result<String?, NavigationStepError>) {
        detail?.resume(returning: result)
        detail = nil
    }
}

/// An app's coordinator written with async/await whose steps have nothing to wait for (the tab is
/// showing, the detail is cached), or, for a route named in `suspendsFor`, wait one turn.
@MainActor
final class ReadyHost: NavigationHost, AuthState {
    var isLoggedIn = true
    var suspendsFor: Set<String> = []
    private(set) var shown: [EnvelopeID] = []

    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {
        if suspendsFor.contains(destination.route.name) { await Task.yield() }
    }

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {}

    func resolveDetail(for destination: NavigationDestination, in stack: Void) async throws(NavigationStepError) -> Void? {
        if destination.deeplink.pathParameters["vehicleId"] == "gone" { return nil }
        return ()
    }

    func show(_ detail: Void, in stack: Void, for destination: NavigationDestination) throws(NavigationStepError) {
        shown.append(destination.envelopeID)
    }

    func presentLogin() {}
}

/// An app's coordinator whose stacks the test watches: each `attachList` makes a new one, held
/// here only weakly, so the test sees when the navigator lets go of it. A detail for "gone" is
/// not found.
@MainActor
final class WatchedStackHost: NavigationHost, AuthState {
    var isLoggedIn = true
    private(set) var stacks: [Weak] = []
    struct Weak { weak var stack: StackToken? }

    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {}

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) -> StackToken {
        let stack = StackToken(tab: destination.route.tab)
        stacks.append(Weak(stack: stack))
        return stack
    }

    func resolveDetail(for destination: NavigationDestination, in stack: StackToken) async throws(NavigationStepError) -> String? {
        await Task.yield()
        return destination.deeplink.pathParameters["vehicleId"] == "gone" ? nil : "vehicle"
    }

    func show(_ detail: String, in stack: StackToken, for destination: NavigationDestination) throws(NavigationStepError) {}

    func presentLogin() {}
}

/// An app's coordinator whose detail fetch cancels the task it runs in (as an app's own
/// cancellation would, not the navigator's) and then finds the detail anyway.
@MainActor
final class SelfCancellingHost: NavigationHost, AuthState {
    var isLoggedIn = true
    private(set) var shown: [EnvelopeID] = []

    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {}

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {}

    func resolveDetail(for destination: NavigationDestination, in stack: Void) async throws(NavigationStepError) -> String? {
        withUnsafeCurrentTask { $0?.cancel() }
        await Task.yield()
        return "detail of \(destination.envelopeID)"
    }

    func show(_ detail: String, in stack: Void, for destination: NavigationDestination) throws(NavigationStepError) {
        shown.append(destination.envelopeID)
    }

    func presentLogin() {}
}

/// The test scheduler, counting every piece of work ever scheduled on it (cancelled or not).
@MainActor
final class CountingClock: NavigationClock {
    let manual = ManualNavigationClock()
    private(set) var scheduled = 0

    func now() -> Date { manual.now() }

    func schedule(afterMs milliseconds: Int, _ work: @escaping @MainActor () -> Void) -> ScheduledWork {
        scheduled += 1
        return manual.schedule(afterMs: milliseconds, work)
    }
}

@Suite("Async/await NavigationHost through AsyncNavigationHostAdapter")
@MainActor
struct AsyncNavigationHostTests {
    let handler: DeeplinkHandler
    init() throws { handler = try repositoryHandler() }

    func link(_ path: String) throws -> ParsedDeeplink { try handler.parse("https://sendy.co.kr" + path) }

    @Test("steps run in order in tasks; the stack and the detail are handed from step to step")
    func stepsInOrder() async throws {
        let host = SuspendingHost()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000)
        var entered = host.entered.makeAsyncIterator()
        let disposition = navigator.navigate(try link("/vehicles/v-1"))
        #expect(disposition == .inProgress(EnvelopeID(1)))
        #expect(await entered.next() == "selectTab vehicles")
        host.finishTab()
        #expect(await entered.next() == "resolveDetail vehicleDetail")
        #expect(navigator.current?.step == .resolveDetail)
        host.finishDetail(.success("vehicle v-1"))
        #expect(await navigator.consumption(of: EnvelopeID(1)) == .navigated)
        #expect(host.shown.count == 1)
        #expect(host.shown.first?.detail == "vehicle v-1")
        #expect(host.shown.first?.stack === host.stacks.first)
    }

    @Test("a detail that resolves to nil: failed(detail_not_found); a throwing tab switch: failed(tab_not_selected)")
    func failures() async throws {
        let host = SuspendingHost()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000)
        var entered = host.entered.makeAsyncIterator()
        let gone = navigator.navigate(try link("/vehicles/v-gone")).envelopeID
        _ = await entered.next()
        host.finishTab()
        _ = await entered.next()
        host.finishDetail(.success(nil))
        #expect(await navigator.consumption(of: gone) == .failed(.detailNotFound))

        let stuck = navigator.navigate(try link("/vehicles")).envelopeID
        _ = await entered.next()
        host.finishTab(.failure(NavigationStepError("a modal would not close")))
        #expect(await navigator.consumption(of: stuck) == .failed(.tabNotSelected(NavigationStepError("a modal would not close"))))
        #expect(host.shown.isEmpty)
    }

    @Test("logout while the detail of an auth-required page loads: its task is cancelled, nothing is shown")
    func logoutCancelsTheTask() async throws {
        let host = SuspendingHost()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000)
        var entered = host.entered.makeAsyncIterator()
        let id = navigator.navigate(try link("/order/12")).envelopeID
        _ = await entered.next()
        host.finishTab()
        #expect(await entered.next() == "resolveDetail orderDetail")
        host.isLoggedIn = false
        navigator.didLogout()
        #expect(navigator.log.outcomes(of: id) == [.cancelledByLogout])
        // The fetch comes back after all: its task had been cancelled, and its result goes nowhere.
        host.finishDetail(.success("order 12"))
        for _ in 0..<100 where host.fetchSawCancellation.isEmpty { await Task.yield() }
        #expect(host.fetchSawCancellation == [true])
        #expect(host.shown.isEmpty)
        #expect(navigator.log.outcomes(of: id) == [.cancelledByLogout])
    }

    @Test("a detail step whose task was cancelled, by whoever, keeps nothing: the detail is not shown")
    func aCancelledDetailTaskKeepsNothing() async throws {
        let host = SelfCancellingHost()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000)
        let id = navigator.navigate(try link("/vehicles/v-1")).envelopeID
        let outcome = await navigator.consumption(of: id)
        #expect(host.shown.isEmpty)
        #expect(outcome == .failed(.showFailed(NavigationStepError("\(id) has no resolved detail to show"))))
    }

    @Test("a fetch that hangs past the step timeout: failed(timed_out), task cancelled, the next navigation runs")
    func stepTimeout() async throws {
        let host = SuspendingHost()
        let clock = ManualNavigationClock()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: clock, duplicateWindowMs: 2_000, stepTimeoutMs: 5_000)
        var entered = host.entered.makeAsyncIterator()
        let slow = navigator.navigate(try link("/vehicles/v-1")).envelopeID
        let next = navigator.navigate(try link("/start")).envelopeID
        _ = await entered.next()
        host.finishTab()
        _ = await entered.next()
        clock.advance(byMs: 5_000)
        #expect(navigator.log.outcomes(of: slow) == [.failed(.timedOut(.resolveDetail, afterMs: 5_000))])
        #expect(await entered.next() == "selectTab home")
        host.finishDetail(.success("too late"))  // the hung fetch of #1 finally answers: ignored
        host.finishTab()
        _ = await entered.next()
        host.finishDetail(.success("onboarding"))
        #expect(await navigator.consumption(of: next) == .navigated)
        #expect(host.shown.map(\.envelope) == [next])
    }

    @Test("steps that do not suspend finish before navigate returns: no task left, no step timer made")
    func stepsThatNeedNotWaitFinishAtOnce() throws {
        let host = ReadyHost()
        let clock = CountingClock()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: clock, duplicateWindowMs: 2_000)
        #expect(navigator.navigate(try link("/vehicles/v-1")) == .navigated(EnvelopeID(1)))
        #expect(host.shown == [EnvelopeID(1)])
        #expect(navigator.current == nil)
        #expect(clock.scheduled == 0, "a step that finished at its start needs no timeout")
        #expect(navigator.navigate(try link("/vehicles/gone")) == .failed(EnvelopeID(2), .detailNotFound))
        #expect(clock.scheduled == 0)
    }

    @Test("a step that suspends keeps its task and its step timer, and finishes when it resumes")
    func aStepThatSuspendsIsTimed() async throws {
        let host = ReadyHost()
        host.suspendsFor = ["vehicleDetail"]
        let clock = CountingClock()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: clock, duplicateWindowMs: 2_000, stepTimeoutMs: 5_000)
        let id = navigator.navigate(try link("/vehicles/v-1")).envelopeID
        #expect(navigator.current?.step == .selectTab)
        #expect(clock.manual.scheduledCount == 1, "the tab switch is timed")
        #expect(await navigator.consumption(of: id) == .navigated)
        #expect(clock.manual.scheduledCount == 0, "the timer went with the step")
        #expect(clock.scheduled == 1, "the detail, found at once, was not timed")
        #expect(host.shown == [id])
    }

    @Test("a step's task that suspended is let go when it finishes: none is kept after the navigation")
    func finishedTasksAreNotKept() async throws {
        let host = SuspendingHost()
        let adapter = AsyncNavigationHostAdapter(host)
        let navigator = DeeplinkNavigator(host: adapter, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000)
        var entered = host.entered.makeAsyncIterator()
        for (number, vehicle) in ["v-1", "v-2"].enumerated() {
            let id = navigator.navigate(try link("/vehicles/" + vehicle)).envelopeID
            _ = await entered.next()
            host.finishTab()
            _ = await entered.next()
            host.finishDetail(.success("vehicle " + vehicle))
            #expect(await navigator.consumption(of: id) == .navigated)
            for _ in 0..<100 where adapter.runningTaskCount > 0 { await Task.yield() }
            #expect(adapter.runningTaskCount == 0, "after navigation \(number + 1)")
        }
    }

    @Test("a detail that is not found lets go of the stack attachList made, as one that is shown does")
    func theStackIsLetGoAfterTheNavigation() async throws {
        let host = WatchedStackHost()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000)
        let gone = navigator.navigate(try link("/vehicles/gone")).envelopeID
        #expect(await navigator.consumption(of: gone) == .failed(.detailNotFound))
        for _ in 0..<100 where host.stacks.contains(where: { $0.stack != nil }) { await Task.yield() }
        #expect(host.stacks.count == 1 && host.stacks[0].stack == nil, "the stack of a detail not found is kept")
        let shown = navigator.navigate(try link("/vehicles/v-1")).envelopeID
        #expect(await navigator.consumption(of: shown) == .navigated)
        for _ in 0..<100 where host.stacks.contains(where: { $0.stack != nil }) { await Task.yield() }
        #expect(host.stacks.count == 2 && host.stacks[1].stack == nil, "the stack of a detail shown is kept")
    }

    @Test("the adapter holds the app's host weakly: once it is gone, a step fails instead of waiting")
    func hostGone() async throws {
        var host: SuspendingHost? = SuspendingHost()
        let navigator = DeeplinkNavigator(host: host!, auth: nil, clock: ManualNavigationClock(), duplicateWindowMs: 2_000)
        host = nil
        let disposition = navigator.navigate(try link("/vehicles"))
        #expect(disposition == .failed(EnvelopeID(1), .tabNotSelected(NavigationStepError("the navigation host is gone"))))
    }

    @Test("the app replaces or clears the navigator's host: later navigations use the new one, or fail with no_host")
    func hostReplaced() throws {
        let host = ReadyHost()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 0)
        #expect(navigator.navigate(try link("/vehicles/v-1")) == .navigated(EnvelopeID(1)))
        let adapter = navigator.host
        navigator.host = nil
        #expect(navigator.navigate(try link("/vehicles/v-2")) == .failed(EnvelopeID(2), .noHost))
        let other = ReadyHost()
        let otherAdapter = AsyncNavigationHostAdapter(other)
        navigator.host = otherAdapter
        #expect(navigator.navigate(try link("/vehicles/v-3")) == .navigated(EnvelopeID(3)))
        #expect(other.shown == [EnvelopeID(3)] && host.shown == [EnvelopeID(1)])
        navigator.host = adapter  // the adapter it made, given back
        #expect(navigator.navigate(try link("/vehicles/v-4")) == .navigated(EnvelopeID(4)))
        #expect(host.shown == [EnvelopeID(1), EnvelopeID(4)])
    }
}
