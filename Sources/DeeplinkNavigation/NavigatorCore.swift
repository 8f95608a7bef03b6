#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeeplinkRouting

/// The world as the navigator's rules see it while they handle one event. Each answer is read when
/// a rule asks: each reads a weak reference (an atomic operation), and most events ask none.
@MainActor
protocol NavigatorContext: AnyObject {
    /// Whether the person is logged in (an auth-required route waits for login otherwise).
    var isLoggedIn: Bool { get }
    /// Whether a navigation host is there to run steps.
    var hasHost: Bool { get }
    /// Whether something opens destinations outside the app.
    var hasOpener: Bool { get }
}

/// The navigator's rules as a value: events in, commands out. It reads no clock, calls no host and
/// never waits; `DeeplinkNavigator` feeds it events (an entry, login, logout, ready, a step's
/// completion, a timer) and carries out the commands it returns (record an outcome, present login,
/// perform a step, start a timer). Being a plain state machine, any interleaving of events can be
/// replayed exactly, which is what the navigator's property tests do by the thousand.
///
/// One navigation runs at a time (`running`), its steps in the seed's order; every other envelope
/// that may navigate waits in `queue`, first in first out, behind it or (cold start) at the ready
/// gate. The auth gate holds at most one envelope (`pending`).
///
/// Bounded for a long session: `queue` and `pending` together hold at most `queueCapacity`
/// envelopes. A new entry that would go past that is consumed at once as `failed(queue_full)`, on
/// record; what was already taken (answered "waiting for ready", "after login") is never dropped
/// for the bound, and the pending envelope login releases always has its place in the queue. The
/// duplicate filter keeps at most `DuplicateFilter.defaultCapacity` fingerprints.
@MainActor
struct NavigatorCore: Sendable {
    /// What the core may know of the world at the moment of an event, asked when a rule needs it
    /// (nothing outside the core runs while it handles an event, so the answer is the same then).
    typealias Context = any NavigatorContext

    enum Event: Sendable {
        case entry(RouteEnvelope)
        case loginCompleted
        case loggedOut
        case ready
        case appState(AppState)
        case stepFinished(ticket: Int, StepResult)
        case stepTimedOut(ticket: Int)
        case cancel(EnvelopeID)
        /// The person used the app (a tap, a scroll): deferred links are offered from now on.
        case interaction
        /// The person took the offer; `envelope` (a new one, `acceptedOffer` set) navigates it.
        case acceptOffer(RouteEnvelope)
        case dismissOffer(EnvelopeID)
        case offerExpired(EnvelopeID)
    }

    enum StepResult: Sendable, Equatable {
        case done
        /// Only for resolveDetail: nothing to show.
        case notFound
        case failed(NavigationStepError)
        /// Only for openExternal: where the destination went.
        case opened(ExternalOpenOutcome)
        /// A failure the step already typed (an external destination's, a missing opener).
        case failedWith(NavigationFailure)
    }

    enum Command: Sendable, Equatable {
        case record(RouteEnvelope, EnvelopeOutcome)
        case presentLogin
        /// Start this step; its completion comes back as `stepFinished(ticket:)`.
        case perform(NavigationStep, ticket: Int, NavigationDestination)
        /// The running step must finish within this time, or `stepTimedOut(ticket:)` comes back.
        /// Replaces any earlier timer.
        case startTimer(ticket: Int, timeoutMs: Int)
        case stopTimer
        /// The navigator gave up on this destination: stop its work, drop what was prepared.
        case cancelSteps(NavigationDestination)
        /// Show the offer of a deferred link (a snackbar); it expires after the given time.
        case presentOffer(NavigationDestination, expiresAfterMs: Int)
        /// Take the offer away: it ended.
        case withdrawOffer(NavigationDestination, OfferEnd)
    }

    struct Running: Sendable, Equatable {
        let envelope: RouteEnvelope
        var step: NavigationStep
        var ticket: Int
    }

    private(set) var appState: AppState
    private(set) var isGateOpen: Bool
    private(set) var pending: RouteEnvelope?
    private(set) var queue: [RouteEnvelope] = []
    private(set) var running: Running?
    /// The deferred link on offer, if any (one at a time: the latest wins). Its envelope was
    /// consumed as `offered`; the offer lives on until it ends.
    private(set) var offer: RouteEnvelope?
    /// How each offer ended, so a late tap on one gets a clear answer: the latest
    /// `NavigatorCore.deferredMemory` offers (a tap on an older one hears "no offer").
    private(set) var endedOffers = RecentMemory<EnvelopeID, OfferEnd>(capacity: NavigatorCore.deferredMemory)
    private(set) var hasInteracted = false
    /// When the app launched, for the deferred-link window.
    let launchedAt: Date
    let deferredWindowMs: Int
    let offerLifetimeMs: Int
    /// Fingerprints of the deferred links seen: install attribution may deliver one twice, any time.
    /// The latest `NavigatorCore.deferredMemory` of them: attribution delivers a link again within
    /// seconds or minutes, not after hundreds of other deferred links.
    private var deferredSeen = RecentMemory<FingerprintKey, EnvelopeID>(capacity: NavigatorCore.deferredMemory)
    /// Deferred links the person logged in for (login was presented for them): they navigate even
    /// if the person touched the app meanwhile.
    private var committed: Set<EnvelopeID> = []
    private var duplicates: DuplicateFilter
    let stepTimeoutMs: Int
    let queueCapacity: Int
    private var nextTicket = 1
    private var out: [Command] = []

    init(appState: AppState, duplicateWindowMs: Int, stepTimeoutMs: Int, launchedAt: Date,
         deferredWindowMs: Int = 10_000, offerLifetimeMs: Int = 60_000,
         queueCapacity: Int = NavigatorCore.defaultQueueCapacity, duplicateCapacity: Int = DuplicateFilter.defaultCapacity) {
        self.appState = appState
        self.launchedAt = launchedAt
        self.deferredWindowMs = max(0, deferredWindowMs)
        self.offerLifetimeMs = max(1, offerLifetimeMs)
        isGateOpen = appState != .coldStart
        duplicates = DuplicateFilter(windowMs: duplicateWindowMs, capacity: duplicateCapacity)
        self.stepTimeoutMs = max(1, stepTimeoutMs)
        self.queueCapacity = max(1, queueCapacity)
    }

    static let defaultQueueCapacity = 64
    /// How many deferred links and ended offers the navigator recalls (see their fields).
    static let deferredMemory = 256

    /// Envelopes waiting: in the queue, and the one held for login.
    private var held: Int { queue.count + (pending == nil ? 0 : 1) }

    /// Whether a new envelope can still be taken (see the bound in the type's comment).
    private var hasRoom: Bool { held < queueCapacity }

    /// Whether the envelope is held by the navigator (pending, queued or running).
    func holds(_ id: EnvelopeID) -> Bool {
        pending?.id == id || running?.envelope.id == id || queue.contains { $0.id == id }
    }

    mutating func handle(_ event: Event, _ context: Context) -> [Command] {
        var commands: [Command] = []
        handle(event, context, into: &commands)
        return commands
    }

    /// Appends the event's commands to `commands`, whose buffer the caller keeps from one event
    /// to the next (no array is made per event).
    mutating func handle(_ event: Event, _ context: Context, into commands: inout [Command]) {
        swap(&out, &commands)
        defer { swap(&out, &commands) }
        switch event {
        case .entry(let envelope):
            receive(envelope, context)
        case .loginCompleted:
            if let envelope = pending {
                pending = nil
                if envelope.channel == .deferred { committed.insert(envelope.id) }
                enqueue(envelope)  // it moves from the login slot to the queue: the count stays
            }
        case .loggedOut:
            logOut()
        case .ready:
            isGateOpen = true
            if appState == .coldStart { appState = .foreground }
        case .appState(let state):
            appState = state
            isGateOpen = state != .coldStart
        case .stepFinished(let ticket, let result):
            if let current = running, current.ticket == ticket {
                advance(current, result, context)
            }
        case .stepTimedOut(let ticket):
            if let current = running, current.ticket == ticket {
                out.append(.cancelSteps(NavigationDestination(current.envelope)))
                finish(current.envelope, .failed(.timedOut(current.step, afterMs: stepTimeoutMs)))
            }
        case .cancel(let id):
            cancel(id)
        case .interaction:
            hasInteracted = true
        case .acceptOffer(let envelope):
            if let offered = offer, offered.id == envelope.acceptedOffer {
                end(offered, .taken(by: envelope.id))
                // The person's own tap: no duplicate of the offered envelope, no second offer,
                // but the auth and ready gates as for any link.
                admit(envelope, context)
            } else {
                record(envelope, .cancelled)
            }
        case .dismissOffer(let id):
            if let offered = offer, offered.id == id { end(offered, .dismissed) }
        case .offerExpired(let id):
            if let offered = offer, offered.id == id { end(offered, .expired) }
        }
        startNext(context)
    }

    // MARK: - Entry

    private mutating func receive(_ envelope: RouteEnvelope, _ context: Context) {
        let route = envelope.route.configuration
        guard route.isEnabled(from: envelope.channel) else {
            return record(envelope, .refused(NavigationRefusal(route: route.name, channel: envelope.channel,
                                                               enabledFrom: route.enabledFrom)))
        }
        if let original = duplicates.check(envelope) {
            return record(envelope, .duplicate(of: original))
        }
        if envelope.channel == .deferred {
            // Install attribution can hand over the same link twice, seconds apart or more.
            if let original = deferredSeen[envelope.fingerprintKey] {
                return record(envelope, .duplicate(of: original))
            }
            deferredSeen.remember(envelope.id, for: envelope.fingerprintKey)
            // The routing seed's rule: once the person is browsing, do not yank them away; offer.
            let elapsed = envelope.receivedAt.timeIntervalSince(launchedAt) * 1000
            if hasInteracted || elapsed > Double(deferredWindowMs) {
                return makeOffer(envelope)
            }
        }
        admit(envelope, context)
    }

    /// Through the auth gate into the queue.
    private mutating func admit(_ envelope: RouteEnvelope, _ context: Context) {
        // Login is presented at once, even during a cold start or while another navigation runs:
        // it is the launch flow's own screen and needs no tab bar.
        if envelope.route.configuration.requiresAuth && !context.isLoggedIn {
            // Latest wins in the login slot (the count stays); an empty slot needs room.
            if pending == nil && !hasRoom { return refuseForRoom(envelope) }
            return holdForLogin(envelope)
        }
        guard hasRoom else { return refuseForRoom(envelope) }
        enqueue(envelope)
    }

    /// The bound: a new envelope the navigator has no room for is consumed at once, on record, so
    /// its sender is answered (a CTA gets NAVIGATION_FAILED with reason queue_full).
    private mutating func refuseForRoom(_ envelope: RouteEnvelope) {
        duplicates.forget(envelope)  // the page may retry once there is room; that is no duplicate
        record(envelope, .failed(.queueFull(capacity: queueCapacity)))
    }

    // MARK: - Deferred links

    /// The envelope is consumed as `offered`; the offer replaces any older one.
    private mutating func makeOffer(_ envelope: RouteEnvelope) {
        if let older = offer { end(older, .replaced(by: envelope.id)) }
        offer = envelope
        record(envelope, .offered)
        out.append(.presentOffer(NavigationDestination(envelope), expiresAfterMs: offerLifetimeMs))
    }

    private mutating func end(_ offered: RouteEnvelope, _ end: OfferEnd) {
        offer = nil
        endedOffers.remember(end, for: offered.id)
        out.append(.withdrawOffer(NavigationDestination(offered), end))
    }

    private mutating func enqueue(_ envelope: RouteEnvelope) {
        let ahead = running?.envelope.id ?? queue.last?.id
        queue.append(envelope)
        if !isGateOpen {
            record(envelope, .waitingForReady)
        } else if let ahead {
            record(envelope, .queued(behind: ahead))
        }
    }

    /// The auth gate holds one envelope; the most recent request wins (the person's latest tap is
    /// what they expect after logging in), the other is consumed on record. Login is presented once.
    private mutating func holdForLogin(_ envelope: RouteEnvelope) {
        guard let held = pending else {
            pending = envelope
            record(envelope, .pendingLogin)
            out.append(.presentLogin)
            return
        }
        if envelope.id > held.id {
            record(held, .replacedWhilePending(by: envelope.id))
            pending = envelope
            record(envelope, .pendingLogin)
        } else {
            // An older envelope reaching the gate late (it left the queue after a newer one was held).
            record(envelope, .replacedWhilePending(by: held.id))
        }
    }

    // MARK: - Logout and cancellation

    /// Every auth-required envelope belongs to the session that just ended: the running one is
    /// stopped, the pending one and the queued ones are consumed. The next person to log in on this
    /// device must not land on them. Public destinations carry on.
    private mutating func logOut() {
        if let current = running, current.envelope.route.configuration.requiresAuth {
            out.append(.cancelSteps(NavigationDestination(current.envelope)))
            finish(current.envelope, .cancelledByLogout)
        }
        if let held = pending {
            pending = nil
            record(held, .cancelledByLogout)
        }
        if let offered = offer, offered.route.configuration.requiresAuth {
            end(offered, .loggedOut)
        }
        let dropped = queue.filter { $0.route.configuration.requiresAuth }
        queue.removeAll { $0.route.configuration.requiresAuth }
        for envelope in dropped { record(envelope, .cancelledByLogout) }
    }

    private mutating func cancel(_ id: EnvelopeID) {
        if let current = running, current.envelope.id == id {
            out.append(.cancelSteps(NavigationDestination(current.envelope)))
            finish(current.envelope, .cancelled)
        } else if let held = pending, held.id == id {
            pending = nil
            record(held, .cancelled)
        } else if let index = queue.firstIndex(where: { $0.id == id }) {
            record(queue.remove(at: index), .cancelled)
        }
    }

    // MARK: - Steps

    private mutating func startNext(_ context: Context) {
        while running == nil, isGateOpen, !queue.isEmpty {
            let envelope = queue.removeFirst()
            // A deferred link that waited (for ready, behind another navigation) while the person
            // started browsing is offered rather than yanking them away.
            if envelope.channel == .deferred && hasInteracted && envelope.acceptedOffer == nil
                && !committed.contains(envelope.id) {
                makeOffer(envelope)
                continue
            }
            // Auth may have changed while the envelope waited without the app reporting a logout.
            if envelope.route.configuration.requiresAuth && !context.isLoggedIn {
                holdForLogin(envelope)
                continue
            }
            if envelope.route.configuration.isExternal {
                guard context.hasOpener else {
                    record(envelope, .failed(.noOpener))
                    continue
                }
                perform(.openExternal, envelope)
                continue
            }
            guard context.hasHost else {
                record(envelope, .failed(.noHost))
                continue
            }
            perform(.selectTab, envelope)
        }
    }

    private mutating func perform(_ step: NavigationStep, _ envelope: RouteEnvelope) {
        let ticket = nextTicket
        nextTicket += 1
        running = Running(envelope: envelope, step: step, ticket: ticket)
        out.append(step.isAsynchronous ? .startTimer(ticket: ticket, timeoutMs: stepTimeoutMs) : .stopTimer)
        out.append(.perform(step, ticket: ticket, NavigationDestination(envelope)))
    }

    private mutating func advance(_ current: Running, _ result: StepResult, _ context: Context) {
        let envelope = current.envelope
        if current.step == .openExternal {
            // The external router answers with where it went or a typed failure; anything else
            // from a host is an open that did not happen.
            switch result {
            case .opened(let outcome): return finish(envelope, .opened(outcome))
            case .failedWith(let failure): return finish(envelope, .failed(failure))
            case .done, .notFound, .failed:
                let provider = envelope.route.configuration.external.flatMap { envelope.route.fieldValues[$0.providerField] } ?? ""
                return finish(envelope, .failed(.external(.openFailed(provider: provider))))
            }
        }
        switch result {
        case .failed(let error): return finish(envelope, .failed(Self.failure(current.step, error)))
        case .failedWith(let failure): return finish(envelope, .failed(failure))
        case .opened, .done, .notFound: break
        }
        let next: NavigationStep
        switch current.step {
        case .openExternal:
            return  // answered above
        case .selectTab: next = .attachList
        case .attachList: next = .resolveDetail
        case .resolveDetail:
            if result == .notFound { return finish(envelope, .failed(.detailNotFound)) }
            next = .show
        case .show:
            return finish(envelope, .navigated)
        }
        // Checked before every step: a fetch for an account page must not run, nor the page be
        // shown, for a person who logged out while the tab switched or the detail loaded.
        if envelope.route.configuration.requiresAuth && !context.isLoggedIn {
            out.append(.cancelSteps(NavigationDestination(envelope)))
            return finish(envelope, .cancelledByLogout)
        }
        perform(next, envelope)
    }

    private mutating func finish(_ envelope: RouteEnvelope, _ outcome: EnvelopeOutcome) {
        running = nil
        out.append(.stopTimer)
        record(envelope, outcome)
    }

    private mutating func record(_ envelope: RouteEnvelope, _ outcome: EnvelopeOutcome) {
        if outcome.isTerminal, !committed.isEmpty { committed.remove(envelope.id) }
        out.append(.record(envelope, outcome))
    }

    static func failure(_ step: NavigationStep, _ error: NavigationStepError) -> NavigationFailure {
        switch step {
        case .selectTab: return .tabNotSelected(error)
        case .attachList: return .listNotAttached(error)
        case .resolveDetail: return .detailFailed(error)
        case .show: return .showFailed(error)
        case .openExternal: return .external(.openFailed(provider: ""))
        }
    }
}
