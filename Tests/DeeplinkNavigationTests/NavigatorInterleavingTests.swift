import Testing
import DeeplinkRouting
import DeeplinkNavigation
import TestSupport

/// Seeded interleavings of everything that can happen to the navigator: envelopes from every
/// channel arriving mid-step, steps completing, failing or resolving to nothing at each point,
/// completions arriving late or twice, login, logout, ready, cold start, time passing past step
/// timeouts, cancellation. The host completes steps only when the sequence says so, and time moves
/// only on the manual clock, so each sequence replays exactly from its seed.
@Suite("Navigator interleavings (seeded property test)")
@MainActor
struct NavigatorInterleavingTests {
    /// Public and auth-required, with and without a list, one refused from marketing links, and
    /// directions to a map app (opened by the same host, as the app's opener).
    nonisolated static let paths = [
        "/event/new-user-promo?campaign_id=c1&utm_source=kakaotalk", "/event/summer-2026/apply", "/event/a/apply?plan=basic",
        "/vehicles?vehicleType=1ton", "/vehicles/v-7", "/start?referrer=new-user-promo", "/order/12", "/order",
        "/checkout/k-9", "/review/5",
        "/directions?lat=37.4979502&lng=127.0276368&name=%EA%B0%95%EB%82%A8%EC%97%AD&provider=kakaomap",
        "/directions?lat=-0.00001&lng=126.978&name=a%2Bb&provider=nmap",
    ]

    enum Action: CaseIterable {
        case entry, entry2, sameAgain, complete, complete2, completeFailing, completeNotFound, completeStale,
             login, logout, ready, coldStart, foreground, advanceClock, cancel, completeOpen, completeOpenFailing
    }

    /// What the sequences did, summed over a block (printed, so the run shows what was exercised).
    struct Tally {
        var sequences = 0, actions = 0, envelopes = 0, stepsCompletedByTest = 0, staleCompletions = 0
        var outcomes: [String: Int] = [:]
        var failures: [String: Int] = [:]

        var line: String {
            let outcomeText = outcomes.keys.sorted().map { "\($0) \(outcomes[$0]!)" }.joined(separator: ", ")
            let failureText = failures.keys.sorted().map { "\($0) \(failures[$0]!)" }.joined(separator: ", ")
            return "\(sequences) sequences, \(actions) actions, \(envelopes) envelopes, \(stepsCompletedByTest) steps completed by the test, "
                + "\(staleCompletions) stale completions ignored; terminal outcomes: \(outcomeText); failures: \(failureText)"
        }
    }

    nonisolated static let sequencesPerBlock = 1_000

    @Test("exactly-once consumption, FIFO, no auth leak, no route outside its channel, nothing waits forever",
          arguments: [UInt64(1), 2, 3, 4])
    func interleavings(block: UInt64) throws {
        let handler = try repositoryHandler()
        let links = try Self.paths.map { try handler.parse("https://sendy.co.kr" + $0) }
        var tally = Tally()
        for sequence in 0..<Self.sequencesPerBlock {
            let seed = block &* 1_000_003 &+ UInt64(sequence)
            try run(seed: seed, links: links, tally: &tally)
        }
        print("navigator interleavings, block \(block): \(tally.line)")
        #expect(tally.sequences == Self.sequencesPerBlock)
        // The block exercised what it claims to (not a vacuous pass).
        for name in ["navigated", "opened_app", "opened_fallback", "cancelled_by_logout", "duplicate", "refused",
                     "replaced_while_pending", "cancelled", "failed"] {
            #expect((tally.outcomes[name] ?? 0) > 0, "no \(name) outcome in block \(block)")
        }
        for code in ["timed_out", "detail_not_found", "detail_failed", "tab_not_selected", "app_not_installed", "open_failed"] {
            #expect((tally.failures[code] ?? 0) > 0, "no \(code) failure in block \(block)")
        }
        #expect(tally.staleCompletions > 0)
    }

    private func run(seed: UInt64, links: [ParsedDeeplink], tally: inout Tally) throws {
        var random = SeededGenerator(seed: seed)
        let host = ScriptedHost(loggedIn: Bool.random(using: &random))
        host.holdsAsyncSteps = Int.random(in: 0..<5, using: &random) > 0
        host.holdsOpens = Bool.random(using: &random)
        host.openableSchemes = Set(["https", "kakaomap", "nmap"].filter { _ in Bool.random(using: &random) })
        let clock = ManualNavigationClock()
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: clock, duplicateWindowMs: 2_000,
                                          appState: Bool.random(using: &random) ? .coldStart : .foreground,
                                          stepTimeoutMs: 3_000, logCapacity: 1_000_000)
        navigator.opener = host
        var created: [EnvelopeID] = []
        /// The order envelopes became eligible to navigate: FIFO means they start in this order.
        var eligible: [EnvelopeID: Int] = [:]
        var last: (ParsedDeeplink, EntryChannel)?
        let where_ = "seed \(seed)"

        var nextPlace = 0
        func enter(_ link: ParsedDeeplink, _ channel: EntryChannel) {
            last = (link, channel)
            // Its place is taken before the call: a navigation the call itself triggers comes after.
            let place = nextPlace
            nextPlace += 1
            let disposition = navigator.navigate(link, from: channel)
            created.append(disposition.envelopeID)
            switch disposition {
            case .pendingLogin, .refused, .duplicate: break
            default: eligible[disposition.envelopeID] = place
            }
        }
        // Sometimes the app navigates again from inside a step (a screen that opens another).
        if Int.random(in: 0..<4, using: &random) == 0, let nested = links.randomElement(using: &random) {
            var done = false
            host.onShow = { _ in
                guard !done else { return }
                done = true
                let disposition = navigator.navigate(nested, from: .appInternal)
                created.append(disposition.envelopeID)
                eligible[disposition.envelopeID] = nextPlace
                nextPlace += 1
            }
        }

        let length = Int.random(in: 1...60, using: &random)
        for _ in 0..<length {
            tally.actions += 1
            switch Action.allCases.randomElement(using: &random)! {
            case .entry, .entry2:
                enter(links.randomElement(using: &random)!, (EntryChannel.builtIn + [.kakaotalk]).randomElement(using: &random)!)
            case .sameAgain:
                if let last { enter(last.0, last.1) }
            case .complete, .complete2:
                if host.completeNext() != nil { tally.stepsCompletedByTest += 1 }
            case .completeFailing:
                if host.completeNext(.failure(NavigationStepError("injected"))) != nil { tally.stepsCompletedByTest += 1 }
            case .completeNotFound:
                if let item = host.outstanding.first {
                    host.notFoundRoutes.insert(item.destination.route.name)
                    host.completeNext()
                    host.notFoundRoutes.removeAll()
                    tally.stepsCompletedByTest += 1
                }
            case .completeStale:
                if let old = host.spent.randomElement(using: &random) {
                    let before = navigator.log.entries.count
                    let step = navigator.current.map { "\($0.envelope.id) \($0.step)" }
                    old.complete(nil)
                    // A spent completion must change nothing (its ticket is gone).
                    #expect(navigator.log.entries.count == before, "stale completion recorded something (\(where_))")
                    #expect(navigator.current.map { "\($0.envelope.id) \($0.step)" } == step, "stale completion moved a step (\(where_))")
                    tally.staleCompletions += 1
                }
            case .login:
                host.isLoggedIn = true
                if let held = navigator.pending {
                    eligible[held.id] = nextPlace
                    nextPlace += 1
                }
                navigator.didCompleteLogin()
            case .logout:
                host.isLoggedIn = false
                navigator.didLogout()
            case .ready: navigator.becomeReady()
            case .coldStart: navigator.setAppState(.coldStart)
            case .foreground: navigator.setAppState(.foreground)
            case .advanceClock: clock.advance(byMs: Int.random(in: 0...4_000, using: &random))
            case .cancel:
                if let id = created.randomElement(using: &random) { navigator.cancel(id) }
            case .completeOpen:
                if host.completeOpen() { tally.stepsCompletedByTest += 1 }
            case .completeOpenFailing:
                if host.completeOpen(false) { tally.stepsCompletedByTest += 1 }
            }
            checkInvariants(navigator, host, created, eligible, where_)
        }

        // Nothing waits forever: once the app is ready and someone logs in, every envelope ends,
        // whether the host answers (cooperative drain) or never does (the step timeout).
        navigator.becomeReady()
        host.isLoggedIn = true
        if let held = navigator.pending {
            eligible[held.id] = nextPlace
            nextPlace += 1
        }
        navigator.didCompleteLogin()
        let cooperative = Bool.random(using: &random)
        var rounds = 0
        while navigator.current != nil || !navigator.waiting.isEmpty || clock.scheduledCount > 0 {
            rounds += 1
            if rounds > 10_000 { Issue.record("drain did not end (\(where_))"); break }
            if cooperative, host.completeNext() != nil || host.completeOpen() { continue }
            clock.runUntilIdle()
        }
        checkInvariants(navigator, host, created, eligible, where_)
        for id in created {
            let outcomes = navigator.log.outcomes(of: id)
            #expect(outcomes.filter(\.isTerminal).count == 1 && outcomes.last?.isTerminal == true,
                    "envelope \(id) ended as \(outcomes) (\(where_))")
            if let end = outcomes.last {
                tally.outcomes[end.name, default: 0] += 1
                if case .failed(let failure) = end { tally.failures[failure.code, default: 0] += 1 }
            }
        }
        #expect(navigator.pending == nil && navigator.waiting.isEmpty && navigator.current == nil, "\(where_)")
        #expect(host.outstanding.isEmpty || !cooperative, "\(where_)")
        // Each screen shown is exactly one navigated envelope.
        let navigated = created.filter { navigator.log.outcomes(of: $0).last == .navigated }
        #expect(host.shown.sorted() == navigated.sorted(), "\(where_)")
        tally.envelopes += created.count
        tally.sequences += 1
    }

    /// Checked after every action. Plain comparisons, recording an issue only when one breaks: an
    /// `#expect` per envelope per action would cost more than the navigator itself.
    private func checkInvariants(_ navigator: DeeplinkNavigator, _ host: ScriptedHost, _ created: [EnvelopeID],
                                 _ eligible: [EnvelopeID: Int], _ where_: String) {
        // The host saw no auth-required step while logged out, no route outside its channel, no two
        // navigations at once.
        if !host.violations.isEmpty { Issue.record("\(host.violations) (\(where_))") }
        if host.outstanding.count > 1 { Issue.record("two steps outstanding (\(where_))") }
        // Consumed at most once; nothing after consumption; whatever is not consumed is held.
        var held = Set(navigator.waiting.map(\.id))
        if let pending = navigator.pending { held.insert(pending.id) }
        if let current = navigator.current { held.insert(current.envelope.id) }
        var outcomes: [EnvelopeID: [EnvelopeOutcome]] = [:]
        for entry in navigator.log.entries { outcomes[entry.envelopeID, default: []].append(entry.outcome) }
        for id in created {
            let recorded = outcomes[id] ?? []
            if let terminal = recorded.firstIndex(where: \.isTerminal) {
                if terminal != recorded.count - 1 { Issue.record("envelope \(id) has outcomes after consumption: \(recorded) (\(where_))") }
                if held.contains(id) { Issue.record("consumed envelope \(id) is still held (\(where_))") }
            } else if !held.contains(id) {
                Issue.record("envelope \(id) is neither consumed nor held: \(recorded) (\(where_))")
            }
        }
        // FIFO: navigations started in the order their envelopes became eligible.
        let order = host.started.map { eligible[$0] ?? -1 }
        if order.contains(-1) || order != order.sorted() { Issue.record("start order \(host.started) (\(where_))") }
    }
}
