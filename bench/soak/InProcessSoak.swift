import JSONCore
import DeeplinkRouting
import DeeplinkNavigation
import BridgeContracts
import BridgeHost

/// The app around the bridge, keeping nothing: an async `NavigationHost` whose steps return at
/// once (a tab already built, a detail already cached), the `AuthState`, and the analytics
/// recorder. It only counts. Its detail fetch finds nothing for vehicle list page 13 and fails for
/// promo codes starting with FAIL, so the failure paths run too.
@MainActor
final class CountingApp: NavigationHost, AuthState, HostRecorder {
    var isLoggedIn = true
    private(set) var screensShown = 0
    private(set) var loginPresentations = 0
    private(set) var analyticsEvents = 0
    private(set) var campaignConflicts = 0
    private(set) var notifications = 0

    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {}

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {}

    func resolveDetail(for destination: NavigationDestination, in stack: Void) async throws(NavigationStepError) -> Void? {
        switch Self.detail(for: destination) {
        case .found: return ()
        case .notFound: return nil
        case .failed(let error): throw error
        }
    }

    func show(_ detail: Void, in stack: Void, for destination: NavigationDestination) throws(NavigationStepError) {
        screensShown += 1
    }

    /// What the detail fetch finds, the same for both kinds of host.
    static func detail(for destination: NavigationDestination) -> DetailResolution {
        let query = destination.deeplink.queryParameters
        if query["page"]?.first == "13" { return .notFound }
        if query["promoCode"]?.first?.hasPrefix("FAIL") == true { return .failed(NavigationStepError("HTTP 503")) }
        return .found
    }

    func presentLogin() { loginPresentations += 1 }

    func record(_ record: HostRecord) {
        switch record {
        case .analytics: analyticsEvents += 1
        case .campaignConflict: campaignConflicts += 1
        case .notification: notifications += 1
        case .customActionFailed: break  // the bundled contracts have no custom action yet
        case .eventSent, .eventFailed: break  // the soak's app has no page to post events into
        }
    }
}

/// The same app as a `CallbackNavigationHost`, which the navigator drives directly: no adapter,
/// no task per step. Its completions come before each method returns, as `CountingApp`'s steps
/// do without suspending; what it costs less is what the async adapter costs.
@MainActor
final class CountingCallbackHost: CallbackNavigationHost {
    private unowned let app: CountingApp

    init(_ app: CountingApp) {
        self.app = app
    }

    func selectTab(for destination: NavigationDestination, completion: @escaping @MainActor (Result<Void, NavigationStepError>) -> Void) {
        completion(.success(()))
    }

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {}

    func resolveDetail(for destination: NavigationDestination, completion: @escaping @MainActor (DetailResolution) -> Void) {
        completion(CountingApp.detail(for: destination))
    }

    func show(for destination: NavigationDestination) throws(NavigationStepError) {
        try app.show((), in: (), for: destination)
    }

    func presentLogin() { app.presentLogin() }

    func cancelSteps(for destination: NavigationDestination) {}
}

/// Counts what the navigator recorded and checks that every envelope is consumed exactly once
/// and that nothing is recorded for it afterwards.
@MainActor
final class EnvelopeTracker {
    private var consumed = Bitset()
    private(set) var outcomes: [String: Int] = [:]
    private(set) var failures: [String: Int] = [:]
    private(set) var problems: [String] = []
    private(set) var problemCount = 0

    func record(_ entry: EnvelopeLogEntry) {
        let id = entry.envelopeID.rawValue
        outcomes[entry.outcome.name, default: 0] += 1
        if case .failed(let failure) = entry.outcome { failures[failure.code, default: 0] += 1 }
        if consumed.contains(id) { problem("envelope \(id): \(entry.outcome) recorded after it was consumed") }
        if entry.outcome.isTerminal { consumed.insert(id) }
    }

    /// Every envelope from 1 to `last` consumed.
    func check(last: Int) {
        var missing = 0
        for id in 1...max(1, last) where !consumed.contains(id) {
            missing += 1
            if missing <= 5 { problem("envelope \(id) was never consumed") }
        }
        if last > 0, consumed.count != last { problem("\(consumed.count) envelopes consumed of \(last)") }
    }

    func problem(_ text: String) {
        problemCount += 1
        if problems.count < 20 { problems.append(text) }
    }
}

/// The session through `BridgeHost` and the shared `DeeplinkNavigator` in this process, the way an
/// app wires them: one navigator for the app's life on `SystemNavigationClock`, an async
/// `NavigationHost` (run by the navigator's `AsyncNavigationHostAdapter` in main-actor tasks; or,
/// with `--host callback`, the same app as a `CallbackNavigationHost`), and one `BridgeHost` per
/// page (a new WebView for each `open`), all on the main actor.
///
/// What one message's latency is: from the call of `BridgeHost.receive(body:origin:isMainFrame:reply:)`
/// to the moment its reply callback runs, on the monotonic clock. For a message that navigates
/// that includes validation, mapping, the navigator, both asynchronous steps (with the async host,
/// each a main-actor task), `show`, the analytics events and the reply; the harness
/// waits for each reply (yielding the main actor) before it sends the next message. Messages of a
/// burst are sent without waiting and counted apart (they queue behind each other by design).
/// The synchronous part is the time `receive` itself holds the main thread.
@MainActor
final class InProcessSoak {
    enum Category: String, CaseIterable {
        case validNavigated = "valid, navigated"
        case validParked = "valid, parked (login/ready)"
        case validOther = "valid, not navigated (duplicate, failed, queue full)"
        case rejected = "rejected (invalid, hostile, resent id)"
        case notification = "notification (no reply)"
        case burst = "burst (queued behind each other)"
    }

    let compiled: CompiledContracts
    let app = CountingApp()
    let navigator: DeeplinkNavigator
    let tracker = EnvelopeTracker()
    private(set) var bridge: BridgeHost
    private(set) var latency: [Category: LatencyHistogram] = [:]
    private(set) var validAll = LatencyHistogram()
    private(set) var synchronousValid = LatencyHistogram()
    private(set) var replyCodes: [String: Int] = [:]
    private(set) var messages = 0
    private(set) var pagesOpened = 0
    private var outstanding = 0
    private var answered = Bitset()
    /// Each valid message's latency and kind, by number (the ones the latency target judges), when
    /// asked for (`--latencies`): the same message slow in every run is work the code does at that
    /// point; different ones, the machine.
    private(set) var perMessage: (latency: [UInt64], kind: [SoakMessage.Kind?])?
    /// The largest sizes seen (sampled after each message): what must stay bounded.
    private(set) var largestQueue = 0
    private(set) var largestLog = 0
    private(set) var largestAwaiting = 0

    /// Keeps every message's latency (`messages` of them, allocated now so the run does not grow).
    func recordEachMessage(_ messages: Int) {
        perMessage = ([UInt64](repeating: 0, count: messages + 1), [SoakMessage.Kind?](repeating: nil, count: messages + 1))
    }

    /// Which protocol the app's host implements: the async `NavigationHost` (what an app's
    /// coordinator implements, and what the latency target is judged on) or `CallbackNavigationHost`.
    enum HostKind: String {
        case async
        case callback
    }

    /// The callback host, kept here: the navigator holds its host weakly.
    private let callbackHost: CountingCallbackHost?

    init(host: HostKind = .async) throws {
        // The repository's example set, found as bridgectl finds it (make soak runs from the root).
        compiled = try CompiledContracts(contracts: try ContractSet.load(directory: ContractDiscovery.find(flag: nil).directory))
        let window = compiled.contracts.manifest.limits.duplicateWindowMs
        switch host {
        case .async:
            callbackHost = nil
            navigator = DeeplinkNavigator(host: app, auth: app, clock: SystemNavigationClock(), duplicateWindowMs: window)
        case .callback:
            let callbackHost = CountingCallbackHost(app)
            self.callbackHost = callbackHost
            navigator = DeeplinkNavigator(host: callbackHost, auth: app, clock: SystemNavigationClock(), duplicateWindowMs: window)
        }
        bridge = try BridgeHost(compiled: compiled, navigator: navigator, recorder: app)
        navigator.addObserver { [tracker] entry in tracker.record(entry) }
        for category in Category.allCases { latency[category] = LatencyHistogram() }
    }

    func run(_ session: SoakSession) async throws {
        for event in session {
            switch event {
            case .open(let url, let source):
                await drain()
                // A new page is a new WebView: a new BridgeHost on the app's one navigator.
                bridge = try BridgeHost(compiled: compiled, navigator: navigator, recorder: app)
                pagesOpened += 1
                _ = try? bridge.open(entry: url, source: source.flatMap(CampaignMetadata.Source.init(rawValue:)))
            case .message(let message):
                if !message.burst { await drain() }
                send(message)
                if !message.burst { await drain() }
            case .login:
                await drain()
                app.isLoggedIn = true
                navigator.didCompleteLogin()
            case .logout:
                await drain()
                app.isLoggedIn = false
                navigator.didLogout()
            case .ready:
                await drain()
                navigator.becomeReady()
            case .coldStart:
                await drain()
                navigator.setAppState(.coldStart)
            case .foreground:
                await drain()
                navigator.setAppState(.foreground)
            case .advance:
                break  // the wall clock moves by itself
            }
        }
        await settle()
        tracker.check(last: navigator.nextEnvelopeID.rawValue - 1)
        for number in 1...max(1, messages) where !answered.contains(number) {
            tracker.problem("message \(number) got no reply")
        }
    }

    private func send(_ message: SoakMessage) {
        messages += 1
        outstanding += 1
        let start = monotonicNanoseconds()
        bridge.receive(body: message.body, origin: message.origin, isMainFrame: message.isMainFrame) { [self] reply in
            replied(message, reply, after: monotonicNanoseconds() &- start)
        }
        let synchronous = monotonicNanoseconds() &- start
        if message.kind.isValid && message.expectsReply && !message.burst { synchronousValid.add(synchronous) }
        largestQueue = max(largestQueue, navigator.waiting.count)
        largestLog = max(largestLog, navigator.log.count)
        largestAwaiting = max(largestAwaiting, bridge.awaitingReplyCount)
    }

    private func replied(_ message: SoakMessage, _ reply: BridgeReply?, after nanoseconds: UInt64) {
        outstanding -= 1
        guard answered.insert(message.number) else {
            return tracker.problem("message \(message.number) (\(message.kind)) was answered twice")
        }
        if perMessage != nil, message.kind.isValid, message.expectsReply, !message.burst, message.number < perMessage!.latency.count {
            perMessage!.latency[message.number] = nanoseconds
            perMessage!.kind[message.number] = message.kind
        }
        let code = reply.map { $0.error?.code.rawValue ?? "ok" } ?? "none"
        replyCodes[code, default: 0] += 1
        guard message.expectsReply else {
            if reply != nil { tracker.problem("notification \(message.number) got a reply") }
            return record(.notification, nanoseconds, valid: false)
        }
        guard let reply else { return tracker.problem("message \(message.number) (\(message.kind)) got no reply text") }
        if reply.id != message.replyID {
            tracker.problem("message \(message.number) (\(message.kind)): reply id \(reply.id ?? "null"), expected \(message.replyID ?? "null")")
        }
        if message.kind.isValid && !Self.navigatorCodes.contains(code) {
            tracker.problem("valid message \(message.number) (\(message.kind)) rejected with \(code)")
        }
        if !message.kind.isValid && reply.ok {
            tracker.problem("\(message.kind) message \(message.number) was accepted")
        }
        if message.burst { return record(.burst, nanoseconds, valid: false) }
        guard message.kind.isValid else { return record(.rejected, nanoseconds, valid: false) }
        if let result = reply.result {
            record(result.pendingLogin || result.waitingForReady ? .validParked : result.resolving ? .validOther : .validNavigated,
                   nanoseconds, valid: true)
        } else {
            record(.validOther, nanoseconds, valid: true)
        }
    }

    /// What a valid message may be answered with: the navigator's outcomes.
    private static let navigatorCodes: Set<String> = ["ok", "DUPLICATE", "NAVIGATION_FAILED"]

    private func record(_ category: Category, _ nanoseconds: UInt64, valid: Bool) {
        latency[category]!.add(nanoseconds)
        if valid { validAll.add(nanoseconds) }
    }

    /// Lets the main actor run (the navigator's step tasks) until every reply has come.
    private func drain() async {
        guard outstanding > 0 else { return }
        let started = monotonicNanoseconds()
        while outstanding > 0 {
            await Task.yield()
            if monotonicNanoseconds() - started > 30_000_000_000 {
                tracker.problem("\(outstanding) replies did not come within 30 s")
                return
            }
        }
    }

    /// The end: every reply given and nothing held by the navigator any more.
    private func settle() async {
        await drain()
        let started = monotonicNanoseconds()
        while navigator.current != nil || !navigator.waiting.isEmpty || navigator.pending != nil {
            await Task.yield()
            if monotonicNanoseconds() - started > 30_000_000_000 {
                tracker.problem("the navigator still holds envelopes 30 s after the session ended")
                return
            }
        }
    }
}
