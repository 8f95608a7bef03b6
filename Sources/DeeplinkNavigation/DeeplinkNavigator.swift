import DeeplinkRouting

/// What `navigate` did with an entry right away.
public enum NavigationDisposition: Sendable, Equatable {
    case navigated(EnvelopeID)
    /// Held until login; login was presented (or already showing).
    case pendingLogin(EnvelopeID)
    /// Held at the ready gate (cold start); it will be routed in arrival order on `becomeReady()`.
    case waitingForReady(EnvelopeID)
    case duplicate(EnvelopeID, of: EnvelopeID)
    case failed(EnvelopeID, reason: String)

    public var envelopeID: EnvelopeID {
        switch self {
        case .navigated(let id), .pendingLogin(let id), .waitingForReady(let id),
             .duplicate(let id, _), .failed(let id, _):
            return id
        }
    }
}

/// The one navigator every entry shares: push, AlimTalk and external links, and web CTAs all
/// arrive as a `ParsedDeeplink` and take this path (deeplink-routing-layer.ko.txt: the navigator
/// only navigates; coordinator-push-routing.ko.txt: envelopes, fingerprint dedupe, ready gate).
///
/// Order of the checks for a new entry:
/// 1. Wrap it in an envelope (id, route, receivedAt, fingerprint).
/// 2. Duplicate: the same fingerprint within `duplicateWindowMs` is consumed as `duplicate`.
/// 3. Auth gate: a route that requires auth while logged out is parked as pending and login is
///    presented. Login can be presented during a cold start: it is the launch flow's own screen
///    and needs no tab bar.
/// 4. Ready gate: during a cold start the envelope waits; `becomeReady()` routes the waiting
///    envelopes in arrival order.
/// 5. Navigate: select the tab, attach the list (when the route names one), push or present.
///    Auth is checked again at this moment, since it may have changed while the envelope waited.
///
/// Policies (each tested):
/// - **Second auth-required link while one is pending: latest wins.** The person's most recent
///   tap is what they expect after logging in. The replaced envelope is consumed with outcome
///   `replacedWhilePending(by:)`, so it is never silently dropped. Login is presented once.
/// - **Logout while pending: the pending envelope is cancelled** (`cancelledByLogout`). The link
///   belonged to the session that was just ended; the next person to log in on this device must not
///   land on it. Envelopes waiting at the ready gate are kept: they are checked for auth when they
///   are routed.
/// - **Every exit path consumes the envelope exactly once**, success or failure (a failed step
///   never leaves it pending, so it cannot be replayed forever; retry would be a separate queue).
///
/// Not thread-safe by design: confine it to one thread or actor (on iOS, the main actor). All
/// calls are synchronous, so tests drive it step by step without waiting.
public final class DeeplinkNavigator {
    public weak var host: NavigationHost?
    public weak var auth: AuthState?
    private let clock: NavigationClock

    public private(set) var appState: AppState
    private var gate: ReadyGate
    private var duplicates: DuplicateFilter
    private var nextID = 1

    /// The envelope held for login, if any (at most one: latest wins).
    public private(set) var pending: RouteEnvelope?
    /// Envelopes waiting at the ready gate, in arrival order.
    public private(set) var waiting: [RouteEnvelope] = []

    public private(set) var log: EnvelopeLog
    private var observers: [(EnvelopeLogEntry) -> Void] = []

    public init(
        host: NavigationHost?, auth: AuthState?, clock: NavigationClock = SystemNavigationClock(),
        duplicateWindowMs: Int, appState: AppState = .foreground, logCapacity: Int = 1024
    ) {
        self.host = host
        self.auth = auth
        self.clock = clock
        self.appState = appState
        self.gate = ReadyGate(isOpen: appState != .coldStart)
        self.duplicates = DuplicateFilter(windowMilliseconds: duplicateWindowMs)
        self.log = EnvelopeLog(capacity: logCapacity)
    }

    /// Whether navigation runs immediately (false during a cold start until `becomeReady()`).
    public var isReady: Bool { gate.isOpen }

    /// Called with every log entry as it is recorded (analytics, records, audits).
    public func addObserver(_ observer: @escaping (EnvelopeLogEntry) -> Void) {
        observers.append(observer)
    }

    private var isLoggedIn: Bool { auth?.isLoggedIn ?? false }

    // MARK: - Entries

    @discardableResult
    public func navigate(_ deeplink: ParsedDeeplink) -> NavigationDisposition {
        let envelope = RouteEnvelope(id: EnvelopeID(nextID), route: deeplink, receivedAt: clock.now())
        nextID += 1
        if let original = duplicates.check(envelope) {
            record(envelope, .duplicate(of: original))
            return .duplicate(envelope.id, of: original)
        }
        if deeplink.configuration.requiresAuth && !isLoggedIn {
            holdForLogin(envelope)
            return .pendingLogin(envelope.id)
        }
        return route(envelope)
    }

    /// Login finished: the pending envelope (if any) is taken out exactly once and routed.
    public func didCompleteLogin() {
        guard let envelope = pending else { return }
        pending = nil
        _ = route(envelope)
    }

    /// The session ended: a pending envelope is cancelled, on record.
    public func didLogout() {
        guard let envelope = pending else { return }
        pending = nil
        record(envelope, .cancelledByLogout)
    }

    /// The navigation hierarchy exists now: waiting envelopes are routed in arrival order.
    public func becomeReady() {
        if appState == .coldStart { appState = .foreground }
        guard gate.beginDraining() else { return }
        while let work = gate.next() { work() }
    }

    /// Foreground and background both mean the hierarchy exists, so they open the gate too;
    /// a cold start closes it.
    public func setAppState(_ state: AppState) {
        appState = state
        if state == .coldStart {
            gate.close()
        } else {
            becomeReady()
        }
    }

    // MARK: - Steps

    private func route(_ envelope: RouteEnvelope) -> NavigationDisposition {
        if gate.mustQueue {
            waiting.append(envelope)
            record(envelope, .waitingForReady)
            gate.enqueue { [weak self] in self?.leaveGate(envelope) }
            return .waitingForReady(envelope.id)
        }
        return perform(envelope)
    }

    private func leaveGate(_ envelope: RouteEnvelope) {
        waiting.removeAll { $0.id == envelope.id }
        _ = perform(envelope)
    }

    private func holdForLogin(_ envelope: RouteEnvelope) {
        let loginAlreadyShown = pending != nil
        if let replaced = pending {
            record(replaced, .replacedWhilePending(by: envelope.id))
        }
        pending = envelope
        record(envelope, .pendingLogin)
        if !loginAlreadyShown { host?.presentLogin() }
    }

    private func perform(_ envelope: RouteEnvelope) -> NavigationDisposition {
        let destination = NavigationDestination(envelopeID: envelope.id, deeplink: envelope.route)
        // Auth may have changed while the envelope waited at the gate.
        if destination.route.requiresAuth && !isLoggedIn {
            holdForLogin(envelope)
            return .pendingLogin(envelope.id)
        }
        guard let host else {
            return fail(envelope, "no navigation host is attached")
        }
        do {
            try host.selectTab(destination.tab, for: destination)
            if let list = destination.list {
                try host.attachList(list, for: destination)
            }
            try host.show(destination)
        } catch {
            return fail(envelope, error.reason)
        }
        record(envelope, .navigated)
        return .navigated(envelope.id)
    }

    private func fail(_ envelope: RouteEnvelope, _ reason: String) -> NavigationDisposition {
        record(envelope, .failed(reason: reason))
        return .failed(envelope.id, reason: reason)
    }

    private func record(_ envelope: RouteEnvelope, _ outcome: EnvelopeOutcome) {
        let entry = EnvelopeLogEntry(envelope: envelope, outcome: outcome, at: clock.now())
        log.append(entry)
        for observer in observers { observer(entry) }
    }
}
