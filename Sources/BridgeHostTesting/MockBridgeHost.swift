import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost

/// What a mock navigation step does when it completes.
public enum MockStepResult: Sendable, Equatable {
    case ok
    case fail(String)
    /// Only for resolveDetail: the item is not there.
    case notFound
}

/// A recording stand-in for the app around a `BridgeHost`, for an app's own tests, `bridgectl
/// simulate` and `bridgectl host --stdio`. It is the navigation host (records navigations instead of
/// pushing screens), the AuthState (a flag the test sets) and the analytics recorder, and it drives
/// the real `DeeplinkNavigator` and `BridgeHost` on a manual clock, so every run is deterministic.
///
/// Steps take the time they are told to (`stepLatencyMs`, measured on the manual clock), wait for
/// `completeStep` (`heldSteps`), fail (`failingSteps`) or find nothing (`detailOutcomes`), so a
/// test can put a slow detail fetch, a failure after the tab switched, or a logout mid-fetch
/// exactly where it wants.
///
/// It keeps every record in its lists by default; `retention: .streaming` (what `bridgectl host
/// --stdio` uses) keeps none, so a long session holds only what is in flight (see
/// `MockRecordRetention`).
///
/// Custom actions (`"handler": "custom"`) are answered by stand-ins that run at once: the result
/// set in `customResults`, else the first `examples` entry of the action's result schema (lint
/// requires one that matches). Set `customResults` to a result the schema rejects, or
/// `customFailures` to an error, to see how the host answers a misbehaving handler.
@MainActor
public final class MockBridgeHost: CallbackNavigationHost, AuthState, HostRecorder, ApplicationOpening, DeferredOfferPresenting,
    PageEventTransport {
    public let contracts: ContractSet
    public let clock: ManualNavigationClock
    public let navigator: DeeplinkNavigator
    /// What the lists below keep (`.all` unless the host was made to stream).
    public let retention: MockRecordRetention
    /// Created right after the navigator; never nil once `init` returned.
    public private(set) var bridge: BridgeHost!

    public var isLoggedIn: Bool
    public private(set) var navigations: [NavigationRecord] = []
    public private(set) var analyticsEvents: [AnalyticsEvent] = []
    public private(set) var replies: [BridgeReply] = []
    /// How many messages `receive` was given (a reply record names the message it answers by this count).
    public private(set) var messagesReceived = 0
    /// Messages whose reply has not been given yet (their navigation is still resolving).
    public private(set) var unansweredMessages: Set<Int> = []
    public private(set) var loginPresentations = 0
    public private(set) var campaignConflicts: [CampaignConflict] = []
    /// Custom actions whose stand-in threw or answered with a result its schema rejects.
    public private(set) var customActionFailures: [CustomActionFailure] = []
    /// What the stand-in answers a custom action with, by action name (default: the result
    /// schema's first example).
    public var customResults: [String: JSONValue] = [:]
    /// Makes the stand-in of a custom action throw this error, by action name.
    public var customFailures: [String: BridgeError] = [:]
    /// The requests the custom action stand-ins were given, in order.
    public private(set) var customRequests: [CustomActionRequest<JSONValue>] = []
    /// Everything above plus envelope outcomes, waiting steps and notifications, in order.
    public private(set) var records: [MockRecord] = []
    /// When each record was made, in milliseconds on the mock's clock (parallel to `records`).
    public private(set) var recordTimes: [Int] = []
    /// Called with each record as it is made (host --stdio prints and flushes each at once).
    public var onRecord: ((MockRecord) -> Void)?
    /// How many records were made, whatever `retention` kept.
    public private(set) var recordCount = 0
    /// Where the simulated page is (default: the first allowed origin, main frame); nil: no page.
    public var pageLocation: PageLocation?
    /// The events posted to the page, in order.
    public private(set) var pageEventsPosted: [PageEvent] = []
    /// The events the host did not post, and why.
    public private(set) var pageEventFailures: [PageEventFailure] = []

    /// Make a navigation step fail: step name ("selectTab", "attachList", "resolveDetail", "show")
    /// -> reason.
    public var failingSteps: [String: String] = [:]
    /// How each route's detail fetch ends when it is not `.ok` (e.g. `.fail("HTTP 503")`, `.notFound`).
    public var detailOutcomes: [String: MockStepResult] = [:]
    /// How long the asynchronous steps (selectTab, resolveDetail) take, on the mock's clock. Absent
    /// or 0: they complete before they return.
    public var stepLatencyMs: [NavigationStep: Int] = [:]
    /// Asynchronous steps that wait for `completeStep` however long it takes (the navigator's step
    /// timeout still applies).
    public var heldSteps: Set<NavigationStep> = []

    /// The step waiting right now (one navigation runs at a time, so at most one).
    public struct WaitingStep {
        public let step: NavigationStep
        public let destination: NavigationDestination
        /// The latency it was given; nil when held for `completeStep`.
        public let latencyMs: Int?
        let planned: MockStepResult
        let finish: @MainActor (MockStepResult) -> Void
        let timer: ScheduledWork?
    }
    public private(set) var waitingStep: WaitingStep?

    /// The apps installed on the simulated device, by URL scheme ("mapsapp"). `canOpen` answers as
    /// iOS does: no for a scheme the manifest's queriedURLSchemes does not declare (whatever is
    /// installed), yes for http(s) (a browser is always there), else whether the app is installed.
    public var installedApps: Set<String> = []
    /// Schemes whose `open` reports failure although `canOpen` said yes.
    public var failingOpens: Set<String> = []
    /// Every `open` the navigator asked for, in order.
    public private(set) var externalOpens: [ExternalOpenRecord] = []
    /// The deferred link on offer right now (the snackbar the person sees), if any.
    public private(set) var shownOffer: NavigationDestination?
    /// How many offers were presented.
    public private(set) var offersPresented = 0

    /// `stepTimeoutMs` is the navigator's bound on each asynchronous step. `capabilities`: the app
    /// build this host acts as (`HostCapabilities(contracts:release:)`); default every version.
    /// Deferred deep links navigate within `deferredWindowMs` of launch and are offered after it.
    public convenience init(contracts: ContractSet, loggedIn: Bool = true, appState: AppState = .foreground,
                            clock: ManualNavigationClock = ManualNavigationClock(),
                            stepTimeoutMs: Int = 10_000, capabilities: HostCapabilities? = nil,
                            deferredWindowMs: Int = 10_000, offerLifetimeMs: Int = 60_000,
                            retention: MockRecordRetention = .all) throws(BridgeHostSetupError) {
        let compiled: CompiledContracts
        do {
            compiled = try CompiledContracts(contracts: contracts)
        } catch {
            throw .contracts(error)
        }
        try self.init(compiled: compiled, loggedIn: loggedIn, appState: appState, clock: clock, stepTimeoutMs: stepTimeoutMs,
                      capabilities: capabilities, deferredWindowMs: deferredWindowMs, offerLifetimeMs: offerLifetimeMs,
                      retention: retention)
    }

    /// Many mock hosts can share contracts compiled once (test suites that create a host per case).
    /// The navigator is made now: this is the launch the deferred-link window counts from.
    public init(compiled: CompiledContracts, loggedIn: Bool = true, appState: AppState = .foreground,
                clock: ManualNavigationClock = ManualNavigationClock(), stepTimeoutMs: Int = 10_000,
                capabilities: HostCapabilities? = nil, deferredWindowMs: Int = 10_000,
                offerLifetimeMs: Int = 60_000, retention: MockRecordRetention = .all) throws(BridgeHostSetupError) {
        let contracts = compiled.contracts
        self.contracts = contracts
        self.retention = retention
        self.isLoggedIn = loggedIn
        self.clock = clock
        self.navigator = DeeplinkNavigator(host: nil, auth: nil, clock: clock,
                                           duplicateWindowMs: contracts.manifest.limits.duplicateWindowMs,
                                           appState: appState, stepTimeoutMs: stepTimeoutMs,
                                           logCapacity: retention == .all ? 100_000 : 1024,
                                           deferredWindowMs: deferredWindowMs, offerLifetimeMs: offerLifetimeMs)
        navigator.host = self
        navigator.auth = self
        navigator.opener = self
        navigator.offerPresenter = self
        navigator.addObserver { [weak self] entry in
            self?.append(.envelope(id: entry.envelopeID, route: entry.routeName, outcome: entry.outcome))
        }
        bridge = try BridgeHost(compiled: compiled, navigator: navigator, customActions: standIns(for: contracts),
                                recorder: self, capabilities: capabilities)
        pageLocation = contracts.manifest.allowedOrigins.first.map { PageLocation(origin: $0, isMainFrame: true) }
        bridge.pageEvents = self
    }

    /// One immediate stand-in per custom action version of the contracts (the host refuses to start
    /// without a handler for each one it takes).
    private func standIns(for contracts: ContractSet) -> CustomActions {
        var actions = CustomActions()
        for action in contracts.manifest.actions {
            for contract in action.versions where contract.isCustom {
                let example = contracts.exampleResult(for: contract)
                actions.registerImmediate(action.name, version: contract.version) { [weak self] request in
                    if let self { self.customRequests.append(request, keepingAtMost: self.retention.limit) }
                    if let failure = self?.customFailures[request.action] { throw failure }
                    guard let result = self?.customResults[request.action] ?? example else {
                        throw BridgeError(.unavailable, "\(request.action) v\(request.version) has no example result for the mock host to answer with")
                    }
                    return result
                }
            }
        }
        return actions
    }

    // MARK: - Driving

    /// The origin a message comes from when the caller does not say: the first allowed origin
    /// of the contracts in use (so a contract set for another site works without options).
    public var defaultOrigin: String { contracts.manifest.allowedOrigins.first ?? "" }

    /// The page was opened from `entry` (nil: an in-app page without a link).
    @discardableResult
    public func open(entry: String?, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> ParsedDeeplink? {
        try bridge.open(entry: entry, source: source)
    }

    /// Posts a message. Returns the reply when it was given before this returned (always, unless a
    /// step takes time); a reply that comes later (the navigation settled, or the reply deadline)
    /// lands in `replies` and `records` then. nil also for a notification.
    @discardableResult
    public func receive(_ body: String, origin: String? = nil, isMainFrame: Bool = true) -> BridgeReply? {
        receive(bytes: Array(body.utf8), origin: origin, isMainFrame: isMainFrame)
    }

    @discardableResult
    public func receive(bytes: [UInt8], origin: String? = nil, isMainFrame: Bool = true) -> BridgeReply? {
        let answer = ReplyBox()
        messagesReceived += 1
        let number = messagesReceived
        unansweredMessages.insert(number)
        bridge.receive(body: bytes, origin: origin ?? defaultOrigin, isMainFrame: isMainFrame) { [weak self] reply in
            answer.reply = reply
            self?.unansweredMessages.remove(number)
            guard let reply, let self else { return }
            self.replies.append(reply, keepingAtMost: self.retention.limit)
            self.append(.reply(reply, message: number))
        }
        return answer.reply
    }

    /// Routes a link the way a push tap or a messenger link does (not through the bridge).
    @discardableResult
    public func openLink(_ url: String, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> NavigationDisposition {
        navigator.navigate(try bridge.handler.parse(url, source: source))
    }

    /// Install attribution handed over the link that was opened before the app was installed.
    /// It navigates inside the deferred window unless the person is browsing; then it is offered.
    @discardableResult
    public func openDeferred(_ url: String, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> NavigationDisposition {
        navigator.navigate(try bridge.handler.parse(url, source: source), from: .deferred)
    }

    /// The person used the app (a tap, a scroll).
    public func interact() { navigator.didInteract() }

    /// The person tapped offer `id`: its destination navigates as a new envelope. Throws for an
    /// offer that ended or never was.
    @discardableResult
    public func acceptOffer(_ id: EnvelopeID) throws(OfferError) -> NavigationDisposition { try navigator.acceptOffer(id) }

    /// The person swiped offer `id` away.
    public func dismissOffer(_ id: EnvelopeID) throws(OfferError) { try navigator.dismissOffer(id) }

    public func completeLogin() {
        isLoggedIn = true
        navigator.didCompleteLogin()
    }

    public func logout() {
        isLoggedIn = false
        navigator.didLogout()
    }

    public func becomeReady() { navigator.becomeReady() }

    public func setAppState(_ state: AppState) { navigator.setAppState(state) }

    /// Moves the mock's clock; latencies, step timeouts and reply deadlines that fall due run.
    public func advanceClock(byMs milliseconds: Int) {
        clock.advance(byMs: milliseconds)
    }

    /// Runs the clock until nothing is scheduled: every latency, timeout and reply deadline has
    /// fired. Returns the milliseconds that passed.
    @discardableResult
    public func runUntilIdle() -> Int {
        let before = clock.elapsedMs
        clock.runUntilIdle()
        return clock.elapsedMs - before
    }

    /// Completes the waiting step now, as planned (`failingSteps`, `detailOutcomes`) or with
    /// `result`. Returns a sentence when there is nothing to complete or `step`/`envelope` do not
    /// name the waiting step.
    @discardableResult
    public func completeStep(_ result: MockStepResult? = nil, step: NavigationStep? = nil, envelope: EnvelopeID? = nil) -> String? {
        guard let waiting = waitingStep else { return "no navigation step is waiting" }
        if let step, step != waiting.step {
            return "the waiting step is \(waiting.step.rawValue) of envelope \(waiting.destination.envelopeID.rawValue), not \(step.rawValue)"
        }
        if let envelope, envelope != waiting.destination.envelopeID {
            return "the waiting step belongs to envelope \(waiting.destination.envelopeID.rawValue), not \(envelope.rawValue)"
        }
        if result == .notFound && waiting.step != .resolveDetail {
            return "only resolveDetail can find nothing; the waiting step is \(waiting.step.rawValue)"
        }
        waiting.timer?.cancel()
        waitingStep = nil
        waiting.finish(result ?? waiting.planned)
        return nil
    }

    // MARK: - CallbackNavigationHost

    public func selectTab(for destination: NavigationDestination, completion: @escaping @MainActor (Result<Void, NavigationStepError>) -> Void) {
        run(.selectTab, destination, planned: failingSteps["selectTab"].map(MockStepResult.fail) ?? .ok) { result in
            if case .fail(let reason) = result { completion(.failure(NavigationStepError(reason))) } else { completion(.success(())) }
        }
    }

    public func attachList(for destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failingSteps["attachList"] { throw NavigationStepError(reason) }
        if let list = destination.list, contracts.route(named: list) == nil {
            throw NavigationStepError("route \(destination.route.name) names list \(list), which is not a route")
        }
    }

    public func resolveDetail(for destination: NavigationDestination, completion: @escaping @MainActor (DetailResolution) -> Void) {
        let planned = failingSteps["resolveDetail"].map(MockStepResult.fail) ?? detailOutcomes[destination.route.name] ?? .ok
        run(.resolveDetail, destination, planned: planned) { result in
            switch result {
            case .ok: completion(.found)
            case .notFound: completion(.notFound)
            case .fail(let reason): completion(.failed(NavigationStepError(reason)))
            }
        }
    }

    public func show(for destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failingSteps["show"] { throw NavigationStepError(reason) }
        let deeplink = destination.deeplink
        let record = NavigationRecord(
            envelopeID: destination.envelopeID, route: destination.route.name, url: destination.url,
            tab: destination.tab, list: destination.list, screen: destination.screen,
            presentation: destination.presentation, parameters: deeplink.pathParameters,
            query: deeplink.queryParameters, campaign: deeplink.campaignMetadata)
        navigations.append(record, keepingAtMost: retention.limit)
        append(.navigation(record))
    }

    public func presentLogin() {
        loginPresentations += 1
        append(.loginPresented)
    }

    public func cancelSteps(for destination: NavigationDestination) {
        guard let waiting = waitingStep, waiting.destination.envelopeID == destination.envelopeID else { return }
        waiting.timer?.cancel()
        waitingStep = nil
    }

    private func run(_ step: NavigationStep, _ destination: NavigationDestination, planned: MockStepResult,
                     finish: @escaping @MainActor (MockStepResult) -> Void) {
        let held = heldSteps.contains(step)
        let latency = stepLatencyMs[step] ?? 0
        guard held || latency > 0 else { return finish(planned) }
        var timer: ScheduledWork?
        if !held {
            timer = clock.schedule(afterMs: latency) { [weak self] in
                guard let self, let waiting = self.waitingStep, waiting.destination.envelopeID == destination.envelopeID,
                      waiting.step == step else { return }
                self.waitingStep = nil
                finish(planned)
            }
        }
        waitingStep = WaitingStep(step: step, destination: destination, latencyMs: held ? nil : latency, planned: planned,
                                  finish: finish, timer: timer)
        append(.step(id: destination.envelopeID, route: destination.route.name, step: step, latencyMs: held ? nil : latency))
    }

    // MARK: - ApplicationOpening

    public func canOpen(_ url: String) -> Bool {
        let scheme = Self.scheme(of: url)
        guard contracts.manifest.queriedURLSchemes.contains(scheme) else { return false }
        return scheme == "https" || scheme == "http" || installedApps.contains(scheme)
    }

    public func open(_ url: String, completion: @escaping @MainActor (Bool) -> Void) {
        let scheme = Self.scheme(of: url)
        let opened = !failingOpens.contains(scheme) && (scheme == "https" || scheme == "http" || installedApps.contains(scheme))
        let record = ExternalOpenRecord(url: url, scheme: scheme, opened: opened)
        externalOpens.append(record, keepingAtMost: retention.limit)
        append(.externalOpen(record))
        completion(opened)
    }

    static func scheme(of url: String) -> String {
        url.firstIndex(of: ":").map { url[..<$0].lowercased() } ?? ""
    }

    // MARK: - DeferredOfferPresenting

    public func presentOffer(_ destination: NavigationDestination) {
        shownOffer = destination
        offersPresented += 1
        append(.offer(id: destination.envelopeID, route: destination.route.name, url: destination.url))
    }

    public func withdrawOffer(_ destination: NavigationDestination, because end: OfferEnd) {
        if shownOffer?.envelopeID == destination.envelopeID { shownOffer = nil }
        append(.offerWithdrawn(id: destination.envelopeID, route: destination.route.name, end: end))
    }

    // MARK: - HostRecorder

    public func record(_ record: HostRecord) {
        switch record {
        case .analytics(let event):
            analyticsEvents.append(event, keepingAtMost: retention.limit)
            append(.event(event))
        case .campaignConflict(let conflict):
            campaignConflicts.append(conflict, keepingAtMost: retention.limit)
            append(.campaignConflict(conflict))
        case .notification(let action, let version, let outcome):
            append(.notification(action: action, version: version, outcome: outcome))
        case .customActionFailed(let failure):
            customActionFailures.append(failure, keepingAtMost: retention.limit)
            append(.customActionFailed(failure))
        case .eventSent:
            break  // `post` recorded it as the page got it
        case .eventFailed(let failure):
            pageEventFailures.append(failure, keepingAtMost: retention.limit)
            append(.eventFailed(failure))
        }
    }

    // MARK: - PageEventTransport

    public func post(_ event: PageEvent) {
        pageEventsPosted.append(event, keepingAtMost: retention.limit)
        append(.pageEvent(event))
    }

    /// Sends an event to the simulated page through the host (checked, then posted here).
    public func emit(event: String, version: Int, payload: JSONValue) throws(PageEventError) {
        try bridge.emit(event: event, version: version, payload: payload)
    }

    private func append(_ record: MockRecord) {
        recordCount += 1
        records.append(record, keepingAtMost: retention.limit)
        recordTimes.append(clock.elapsedMs, keepingAtMost: retention.limit)
        onRecord?(record)
    }

    /// The analytics events with a given name.
    public func events(named name: String) -> [AnalyticsEvent] {
        analyticsEvents.filter { $0.name == name }
    }
}

/// Where a reply callback leaves its answer for a caller that is still on the stack.
@MainActor
private final class ReplyBox {
    var reply: BridgeReply?
}
