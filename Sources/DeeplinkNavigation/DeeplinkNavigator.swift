import DeeplinkRouting

/// What `navigate` could say about an entry by the time it returned.
public enum NavigationDisposition: Sendable, Equatable {
    case navigated(EnvelopeID)
    /// Held until login; login was presented (or already showing).
    case pendingLogin(EnvelopeID)
    /// Held at the ready gate (cold start); it will be routed in arrival order once ready.
    case waitingForReady(EnvelopeID)
    /// Accepted: its steps are running (a tab switch, a detail fetch), or it waits behind the
    /// navigation that is. `DeeplinkNavigator.settlement(of:)` or an observer gives the outcome.
    case inProgress(EnvelopeID)
    /// An external destination opened (the provider's app, or its fallback).
    case opened(EnvelopeID, ExternalOpenOutcome)
    case duplicate(EnvelopeID, of: EnvelopeID)
    case failed(EnvelopeID, NavigationFailure)
    case refused(EnvelopeID, NavigationRefusal)
    /// Consumed by a cancellation before `navigate` returned (an observer cancelled it).
    case cancelled(EnvelopeID, byLogout: Bool)
    /// A deferred deep link offered to the person instead of navigated (they were browsing); the
    /// id is the offer's, for `acceptOffer`.
    case offered(EnvelopeID)

    public var envelopeID: EnvelopeID {
        switch self {
        case .navigated(let id), .pendingLogin(let id), .waitingForReady(let id), .inProgress(let id), .opened(let id, _),
             .duplicate(let id, _), .failed(let id, _), .refused(let id, _), .cancelled(let id, _), .offered(let id):
            return id
        }
    }

    /// The disposition of envelope `id` whose last recorded outcome is `outcome` (nil: none yet).
    public init(_ id: EnvelopeID, outcome: EnvelopeOutcome?) {
        switch outcome {
        case nil, .queued?: self = .inProgress(id)
        case .navigated?: self = .navigated(id)
        case .opened(let outcome)?: self = .opened(id, outcome)
        case .pendingLogin?: self = .pendingLogin(id)
        case .waitingForReady?: self = .waitingForReady(id)
        case .duplicate(let original)?: self = .duplicate(id, of: original)
        case .failed(let failure)?: self = .failed(id, failure)
        case .refused(let refusal)?: self = .refused(id, refusal)
        case .cancelledByLogout?: self = .cancelled(id, byLogout: true)
        case .cancelled?, .replacedWhilePending?: self = .cancelled(id, byLogout: false)
        case .offered?: self = .offered(id)
        }
    }
}

/// The one navigator every entry shares: push, messenger and external links, and web CTAs all
/// arrive as a `ParsedDeeplink` and take this path (deeplink-routing-layer.ko.txt: the navigator
/// only navigates; coordinator-push-routing.ko.txt: envelopes, fingerprint dedupe, a ready gate
/// that keeps many callbacks, `enabledPages`, and every early return marking the envelope consumed).
///
/// For a new entry, in order:
/// 1. Wrap it in an envelope (id, route, channel, receivedAt, fingerprint).
/// 2. Enabled pages: a route the channel may not open (routes.json `enabledFrom`) is `refused`.
/// 3. Duplicate: the same fingerprint within `duplicateWindowMs` is consumed as `duplicate`.
/// 4. Auth gate: an auth-required route while logged out is held as pending and login presented.
/// 5. Queue: one navigation runs at a time; the others wait in arrival order behind it, or at the
///    ready gate during a cold start.
/// 6. Steps: select the tab, attach the list, resolve the detail, show it. The first and third take
///    time; each may fail with a typed reason; each must finish within `stepTimeoutMs`. Auth is
///    checked again before every step of an auth-required route.
///
/// Policies (each tested, see docs/app-integration.md): latest wins in the auth gate; a logout
/// consumes every auth-required envelope the navigator holds, running ones included; an envelope
/// is consumed exactly once on every exit (navigated, duplicate, refused, replaced, each failure,
/// timeout, cancellation, logout), and nothing waits forever but what waits for login or ready.
///
/// Memory over a long session: what it holds is bounded, whatever the number of entries. The
/// envelopes waiting (queue, ready gate, login slot) by `queueCapacity` (64; a new entry past it is
/// consumed as `failed(queue_full)`), the duplicate window by 1024 fingerprints, the audit log by
/// `logCapacity`, the `settlement`/`consumption` waiters by the envelopes held, and the observers
/// added with an owner by the owners alive (one per `BridgeHost`, that is per WebView).
///
/// Concurrency: main-actor bound, like the UIKit calls its host makes. The rules live in
/// `NavigatorCore`, a value driven by events; this class feeds it and carries out its commands,
/// one event at a time, so a completion that arrives while a step is being started (a host that
/// completes at once, an observer that navigates) is queued, never nested.
@MainActor
public final class DeeplinkNavigator {
    /// The host the steps run on. Held weakly (the app's coordinator usually owns the navigator),
    /// except the adapter made by `init(host:...)` for an async host, which the navigator owns.
    public var host: (any CallbackNavigationHost)? {
        get { hostReference }
        set {
            hostReference = newValue
            hostIsOwnedAdapter = ownedAdapter != nil && newValue === ownedAdapter
        }
    }
    public var auth: (any AuthState)? {
        get { authReference }
        set { authReference = newValue }
    }
    /// Opens destinations outside the app (routes.json `external`): the map apps.
    public var opener: (any ApplicationOpening)? {
        get { openerReference }
        set { openerReference = newValue }
    }
    /// Shows and takes away the offer of a deferred deep link (a snackbar).
    public var offerPresenter: (any DeferredOfferPresenting)? {
        get { offerPresenterReference }
        set { offerPresenterReference = newValue }
    }
    // The references themselves are private, so the optimizer sees every access to them and
    // reads them without a run-time exclusivity check (a public stored property keeps one).
    private weak var hostReference: (any CallbackNavigationHost)?
    private weak var authReference: (any AuthState)?
    private weak var openerReference: (any ApplicationOpening)?
    private weak var offerPresenterReference: (any DeferredOfferPresenting)?
    public let clock: any NavigationClock
    private var ownedAdapter: (any CallbackNavigationHost)?
    /// `host` is the adapter this navigator owns, so it is there without loading the weak reference.
    private var hostIsOwnedAdapter = false

    private var core: NavigatorCore
    private var events: [NavigatorCore.Event] = []
    /// The commands of the event being handled (the buffer is kept between events).
    private var commands: [NavigatorCore.Command] = []
    private var isProcessing = false
    private var nextID = 1
    private var stepTimer: ScheduledWork?
    /// The step timer the core asked for, armed when the step's start returns.
    private var stepTimerDue: (ticket: Int, timeoutMs: Int)?
    /// Where `send` is in `events`: those after it are still to be handled.
    private var nextEvent = 0
    private var offerTimer: ScheduledWork?
    /// The envelopes of the `navigate` calls on the stack (innermost last), and the last outcome
    /// each got so far: rarely more than one, so a list beats hashing.
    private var probes: [(id: EnvelopeID, outcome: EnvelopeOutcome?)] = []
    private struct Waiter {
        let settling: Bool
        let continuation: CheckedContinuation<EnvelopeOutcome?, Never>
    }
    private var waiters: [EnvelopeID: [Waiter]] = [:]

    public var log: EnvelopeLog { envelopeLog }
    private var envelopeLog: EnvelopeLog
    private var observers: [NavigatorObserver] = []

    /// A navigator over a host with completion handlers (tests, mocks, a coordinator written like
    /// the seed's). `stepTimeoutMs` bounds each asynchronous step (tab switch, detail fetch).
    /// Deferred deep links (channel `.deferred`) arriving more than `deferredWindowMs` after launch
    /// (the navigator's creation), or after `didInteract()`, are offered for `offerLifetimeMs`
    /// instead of navigated.
    public init(
        host: (any CallbackNavigationHost)?, auth: (any AuthState)?, clock: any NavigationClock = SystemNavigationClock(),
        duplicateWindowMs: Int, appState: AppState = .foreground, stepTimeoutMs: Int = 10_000, logCapacity: Int = 1024,
        deferredWindowMs: Int = 10_000, offerLifetimeMs: Int = 60_000,
        queueCapacity: Int = 64
    ) {
        hostReference = host
        authReference = auth
        self.clock = clock
        core = NavigatorCore(appState: appState, duplicateWindowMs: duplicateWindowMs,
                             stepTimeoutMs: stepTimeoutMs, launchedAt: clock.now(),
                             deferredWindowMs: deferredWindowMs, offerLifetimeMs: offerLifetimeMs,
                             queueCapacity: queueCapacity)
        envelopeLog = EnvelopeLog(capacity: logCapacity)
    }

    /// A navigator over an async/await host: the app's coordinator.
    public convenience init<Host: NavigationHost>(
        host: Host, auth: (any AuthState)?, clock: any NavigationClock = SystemNavigationClock(),
        duplicateWindowMs: Int, appState: AppState = .foreground, stepTimeoutMs: Int = 10_000, logCapacity: Int = 1024,
        deferredWindowMs: Int = 10_000, offerLifetimeMs: Int = 60_000,
        queueCapacity: Int = 64
    ) {
        let adapter = AsyncNavigationHostAdapter(host)
        self.init(host: adapter, auth: auth, clock: clock, duplicateWindowMs: duplicateWindowMs, appState: appState,
                  stepTimeoutMs: stepTimeoutMs, logCapacity: logCapacity, deferredWindowMs: deferredWindowMs,
                  offerLifetimeMs: offerLifetimeMs, queueCapacity: queueCapacity)
        ownedAdapter = adapter
        hostIsOwnedAdapter = true
    }

    public var appState: AppState { core.appState }
    /// Whether navigation may start (false during a cold start until `becomeReady()`).
    public var isReady: Bool { core.isGateOpen }
    /// The envelope held for login, if any (at most one: latest wins).
    public var pending: RouteEnvelope? { core.pending }
    /// Envelopes waiting to navigate, in order (at the ready gate, or behind `current`).
    public var waiting: [RouteEnvelope] { core.queue }
    /// The envelope whose steps are running, and the step.
    public var current: (envelope: RouteEnvelope, step: NavigationStep)? {
        core.running.map { ($0.envelope, $0.step) }
    }
    public var stepTimeoutMs: Int { core.stepTimeoutMs }
    /// The most envelopes that wait at once (queue, ready gate and login slot together).
    public var queueCapacity: Int { core.queueCapacity }
    /// The deferred deep link on offer, if any (its id is the offer's).
    public var offer: RouteEnvelope? { core.offer }
    /// Whether the person has used the app since launch (`didInteract()`).
    public var hasInteracted: Bool { core.hasInteracted }
    /// The id the next `navigate` call will give its envelope (so a caller can recognise the
    /// records made while that call runs).
    public var nextEnvelopeID: EnvelopeID { EnvelopeID(nextID) }

    /// Called with every log entry as it is recorded (analytics, records, the bridge's replies),
    /// for the navigator's life.
    public func addObserver(_ observer: @escaping @MainActor (EnvelopeLogEntry) -> Void) {
        observers.append(NavigatorObserver(observer))
    }

    /// Called with every log entry as long as `owner` is alive, then dropped: what a `BridgeHost`
    /// uses, so a navigator that outlives many WebViews does not keep one observer for each.
    public func addObserver(owner: AnyObject, _ observer: @escaping @MainActor (EnvelopeLogEntry) -> Void) {
        observers.append(NavigatorObserver(owner: owner) { _, entry in observer(entry) })
    }

    /// As `addObserver(owner:_:)`, with the owner handed to each call: the navigator reads its weak
    /// reference once per entry, and the observer needs no weak reference of its own.
    public func addObserver<Owner: AnyObject>(owner: Owner, _ observer: @escaping @MainActor (Owner, EnvelopeLogEntry) -> Void) {
        observers.append(NavigatorObserver(owner: owner, observer))
    }

    /// Observers held now (those whose owner is gone are dropped at the next record).
    public var observerCount: Int { observers.count }

    // MARK: - Entries and app events

    /// Hands an entry to the navigator. `channel` is the door it came through (routes.json
    /// `enabledFrom`); by default the campaign source of the link. Returns what is known when the
    /// call returns: with a host whose steps complete at once, the final outcome.
    @discardableResult
    public func navigate(_ deeplink: ParsedDeeplink, from channel: EntryChannel? = nil) -> NavigationDisposition {
        let envelope = RouteEnvelope(id: EnvelopeID(nextID), route: deeplink, channel: channel, receivedAt: clock.now())
        nextID += 1
        return probe(envelope.id) { send(.entry(envelope)) }
    }

    /// Runs `body` and returns what envelope `id` came to meanwhile.
    private func probe(_ id: EnvelopeID, _ body: () -> Void) -> NavigationDisposition {
        probes.append((id, nil))
        body()
        let outcome = probes.lastIndex { $0.id == id }.map { probes.remove(at: $0).outcome } ?? nil
        return NavigationDisposition(id, outcome: outcome)
    }

    /// Login finished: the pending envelope (if any) is taken out exactly once and queued.
    public func didCompleteLogin() { send(.loginCompleted) }

    /// The session ended: every auth-required envelope held is consumed as `cancelledByLogout`.
    public func didLogout() { send(.loggedOut) }

    /// The navigation hierarchy exists now: waiting envelopes are routed in arrival order.
    public func becomeReady() { send(.ready) }

    /// Foreground and background both mean the hierarchy exists, so they open the gate; a cold
    /// start closes it (what runs carries on, what waits keeps waiting).
    public func setAppState(_ state: AppState) { send(.appState(state)) }

    /// The person used the app (the first tap or scroll is enough): from now on a deferred deep
    /// link is offered, not navigated, so nobody is yanked away from what they are looking at.
    public func didInteract() { send(.interaction) }

    /// The person took offer `id`: its destination navigates as a new envelope (through the auth
    /// and ready gates, like any link), returned as for `navigate`. An offer is taken at most once;
    /// an offer that ended (taken, dismissed, expired, replaced, logged out) or never existed throws.
    @discardableResult
    public func acceptOffer(_ id: EnvelopeID) throws(OfferError) -> NavigationDisposition {
        guard let offered = core.offer, offered.id == id else { throw OfferError(offer: id, end: core.endedOffers[id]) }
        let envelope = RouteEnvelope(id: EnvelopeID(nextID), route: offered.route, channel: offered.channel,
                                     receivedAt: clock.now(), fingerprint: offered.fingerprint, acceptedOffer: id)
        nextID += 1
        return probe(envelope.id) { send(.acceptOffer(envelope)) }
    }

    /// The person dismissed offer `id`; throws when it is not on offer.
    public func dismissOffer(_ id: EnvelopeID) throws(OfferError) {
        guard core.offer?.id == id else { throw OfferError(offer: id, end: core.endedOffers[id]) }
        send(.dismissOffer(id))
    }

    /// Gives up on an envelope the navigator holds (the person backed out while it loaded):
    /// consumed as `cancelled`, its running step cancelled. False when it is not held.
    @discardableResult
    public func cancel(_ id: EnvelopeID) -> Bool {
        guard core.holds(id) else { return false }
        send(.cancel(id))
        return true
    }

    /// The outcome that settles envelope `id`: consumed, or parked for login or ready. Returns at
    /// once when it is already settled and still in the log; nil for an id the navigator does not
    /// know (any more).
    public func settlement(of id: EnvelopeID) async -> EnvelopeOutcome? {
        await outcome(of: id, settling: true)
    }

    /// The outcome that consumes envelope `id` (after login and ready, if it waits for them); nil
    /// for an id the navigator does not know (any more).
    public func consumption(of id: EnvelopeID) async -> EnvelopeOutcome? {
        await outcome(of: id, settling: false)
    }

    private func outcome(of id: EnvelopeID, settling: Bool) async -> EnvelopeOutcome? {
        if let last = log.lastOutcome(of: id), settling ? last.settlesRequest : last.isTerminal { return last }
        guard core.holds(id) else { return log.lastOutcome(of: id) }
        return await withCheckedContinuation { continuation in
            waiters[id, default: []].append(Waiter(settling: settling, continuation: continuation))
        }
    }

    // MARK: - Driving the core

    private func send(_ event: NavigatorCore.Event) {
        events.append(event)
        guard !isProcessing else { return }
        isProcessing = true
        defer { isProcessing = false }
        nextEvent = 0
        while nextEvent < events.count {
            let next = events[nextEvent]
            nextEvent += 1
            core.handle(next, self, into: &commands)
            // Executing never handles another event (`send` only queues while processing).
            for command in commands { execute(command) }
            commands.removeAll(keepingCapacity: true)
        }
        events.removeAll(keepingCapacity: true)
        nextEvent = 0
    }

    /// Arms the step timer the core asked for, once the step's start has returned, unless the
    /// step already finished (a host that completes at once): no timer is made and dropped for it.
    private func armStepTimer(for ticket: Int) {
        guard let due = stepTimerDue, due.ticket == ticket else { return }
        stepTimerDue = nil
        let finished = events[nextEvent...].contains {
            if case .stepFinished(let finishedTicket, _) = $0 { finishedTicket == ticket } else { false }
        }
        guard !finished else { return }
        stepTimer = clock.schedule(afterMs: due.timeoutMs) { [weak self] in
            self?.send(.stepTimedOut(ticket: ticket))
        }
    }

    private func execute(_ command: NavigatorCore.Command) {
        switch command {
        case .record(let envelope, let outcome):
            record(envelope, outcome)
        case .presentLogin:
            host?.presentLogin()
        case .startTimer(let ticket, let timeoutMs):
            stepTimer?.cancel()
            stepTimer = nil
            stepTimerDue = (ticket, timeoutMs)
        case .stopTimer:
            stepTimer?.cancel()
            stepTimer = nil
            stepTimerDue = nil
        case .cancelSteps(let destination):
            host?.cancelSteps(for: destination)
        case .presentOffer(let destination, let milliseconds):
            offerTimer?.cancel()
            let id = destination.envelopeID
            offerTimer = clock.schedule(afterMs: milliseconds) { [weak self] in self?.send(.offerExpired(id)) }
            offerPresenter?.presentOffer(destination)
        case .withdrawOffer(let destination, let end):
            offerTimer?.cancel()
            offerTimer = nil
            offerPresenter?.withdrawOffer(destination, because: end)
        case .perform(let step, let ticket, let destination):
            perform(step, ticket: ticket, destination)
            armStepTimer(for: ticket)
        }
    }

    private func perform(_ step: NavigationStep, ticket: Int, _ destination: NavigationDestination) {
        if step == .openExternal {
            guard let opener else { return send(.stepFinished(ticket: ticket, .failedWith(.noOpener))) }
            return ExternalRouter(opener: opener).open(destination.deeplink) { [weak self] result in
                switch result {
                case .success(let outcome): self?.send(.stepFinished(ticket: ticket, .opened(outcome)))
                case .failure(let error): self?.send(.stepFinished(ticket: ticket, .failedWith(.external(error))))
                }
            }
        }
        guard let host else {
            return send(.stepFinished(ticket: ticket, .failed(NavigationStepError("the navigation host is gone"))))
        }
        switch step {
        case .selectTab:
            host.selectTab(for: destination) { [weak self] result in
                switch result {
                case .success: self?.send(.stepFinished(ticket: ticket, .done))
                case .failure(let error): self?.send(.stepFinished(ticket: ticket, .failed(error)))
                }
            }
        case .attachList:
            do {
                try host.attachList(for: destination)
                send(.stepFinished(ticket: ticket, .done))
            } catch {
                send(.stepFinished(ticket: ticket, .failed(error)))
            }
        case .resolveDetail:
            host.resolveDetail(for: destination) { [weak self] resolution in
                switch resolution {
                case .found: self?.send(.stepFinished(ticket: ticket, .done))
                case .notFound: self?.send(.stepFinished(ticket: ticket, .notFound))
                case .failed(let error): self?.send(.stepFinished(ticket: ticket, .failed(error)))
                }
            }
        case .show:
            do {
                try host.show(for: destination)
                send(.stepFinished(ticket: ticket, .done))
            } catch {
                send(.stepFinished(ticket: ticket, .failed(error)))
            }
        case .openExternal:
            break  // handled above
        }
    }

    private func record(_ envelope: RouteEnvelope, _ outcome: EnvelopeOutcome) {
        let entry = EnvelopeLogEntry(envelope: envelope, outcome: outcome, at: clock.now())
        envelopeLog.append(entry)
        if let probe = probes.lastIndex(where: { $0.id == envelope.id }) { probes[probe].outcome = outcome }
        if outcome.settlesRequest, !waiters.isEmpty, let waiting = waiters[envelope.id] {
            var still: [Waiter] = []
            for waiter in waiting {
                if outcome.isTerminal || waiter.settling {
                    waiter.continuation.resume(returning: outcome)
                } else {
                    still.append(waiter)
                }
            }
            waiters[envelope.id] = still.isEmpty ? nil : still
        }
        // By index, without a copy of the list: an observer added meanwhile is appended (and called
        // from the next record on), and orphans are removed only after the loop.
        var orphans = false
        for index in 0..<observers.count where !observers[index].deliver(entry) { orphans = true }
        if orphans { observers.removeAll { $0.isOrphaned } }
    }
}

/// An observer of the log; one that follows an owner (`addObserver(owner:_:)`) holds it weakly
/// in its call. A class, so the list's copy for a record retains one object per observer.
@MainActor
private final class NavigatorObserver {
    /// Calls the observer with an entry; false, without calling it, once its owner is gone.
    private let call: @MainActor (EnvelopeLogEntry) -> Bool
    /// Its owner was released: nothing will ever want its calls again.
    private(set) var isOrphaned = false

    init(_ observer: @escaping @MainActor (EnvelopeLogEntry) -> Void) {
        call = { entry in
            observer(entry)
            return true
        }
    }

    /// Generic over the owner, so it reaches `observer` as the type it was given, with no cast.
    init<Owner: AnyObject>(owner: Owner, _ observer: @escaping @MainActor (Owner, EnvelopeLogEntry) -> Void) {
        call = { [weak owner] entry in
            guard let owner else { return false }
            observer(owner, entry)
            return true
        }
    }

    /// Calls the observer with `entry`; false, without calling it, once its owner is gone.
    func deliver(_ entry: EnvelopeLogEntry) -> Bool {
        if !isOrphaned && !call(entry) { isOrphaned = true }
        return !isOrphaned
    }
}

extension DeeplinkNavigator: NavigatorContext {
    var isLoggedIn: Bool { authReference?.isLoggedIn ?? false }
    var hasHost: Bool { hostIsOwnedAdapter || hostReference != nil }
    var hasOpener: Bool { openerReference != nil }
}
