import Testing
import DeeplinkRouting
import DeeplinkNavigation
import TestSupport

@Suite("Navigator invariants over random event sequences")
struct NavigatorInvariantTests {
    /// Links of every kind: public and auth-required, with and without a list, push/AlimTalk/CTA-like.
    static let paths = [
        "/event/new-user-promo?campaign_id=c1&utm_source=kakaotalk", "/event/summer-2026/apply", "/event/a/apply?plan=basic",
        "/vehicles?vehicleType=1ton", "/vehicles/v-7", "/start?referrer=new-user-promo", "/order/12", "/order",
        "/checkout/k-9", "/review/5",
    ]

    enum Step: CaseIterable {
        case open, cta, duplicate, coldStart, ready, login, logout, advanceClock, foreground, failNext
    }

    @Test("every envelope consumed exactly once; no auth screen while logged out; nothing lost; gate order kept",
          arguments: [UInt64(1), 2, 3, 4])
    func invariants(seedBlock: UInt64) throws {
        let handler = try repositoryHandler()
        let links = try Self.paths.map { try handler.parse("https://sendy.co.kr" + $0) }
        var sequences = 0
        for sequence in 0..<750 {
            var random = SeededGenerator(seed: seedBlock &* 1_000_003 &+ UInt64(sequence))
            let host = RecordingHost(loggedIn: Bool.random(using: &random))
            let clock = ManualNavigationClock()
            let navigator = DeeplinkNavigator(host: host, auth: host, clock: clock, duplicateWindowMs: 2_000,
                                              appState: Bool.random(using: &random) ? .coldStart : .foreground,
                                              logCapacity: 1_000_000)
            var created: [EnvelopeID] = []
            var last: ParsedDeeplink?
            let length = Int.random(in: 1...40, using: &random)
            for _ in 0..<length {
                host.failing = [:]
                switch Step.allCases.randomElement(using: &random)! {
                case .open, .cta:
                    let link = links.randomElement(using: &random)!
                    last = link
                    created.append(navigator.navigate(link).envelopeID)
                case .duplicate:
                    if let last { created.append(navigator.navigate(last).envelopeID) }
                case .coldStart: navigator.setAppState(.coldStart)
                case .ready: navigator.becomeReady()
                case .login:
                    host.isLoggedIn = true
                    navigator.didCompleteLogin()
                case .logout:
                    host.isLoggedIn = false
                    navigator.didLogout()
                case .advanceClock: clock.advance(milliseconds: Int.random(in: 0...3_000, using: &random))
                case .foreground: navigator.setAppState(.foreground)
                case .failNext:
                    host.failing[["selectTab", "attachList", "show"].randomElement(using: &random)!] = "injected"
                    if let link = links.randomElement(using: &random) { created.append(navigator.navigate(link).envelopeID) }
                }
                #expect(host.authViolations.isEmpty, "auth-required screen shown while logged out (seed \(seedBlock)/\(sequence))")
            }
            let log = navigator.log.entries

            // Order through the gate: envelopes that left the gate straight to a terminal outcome did
            // so in the order they entered it.
            var gateEntry: [EnvelopeID: Int] = [:]
            var leftInOrder: [Int] = []
            var lastOutcome: [EnvelopeID: EnvelopeOutcome] = [:]
            for (index, entry) in log.enumerated() {
                if entry.outcome == .waitingForReady { gateEntry[entry.envelopeID] = index }
                if lastOutcome[entry.envelopeID] == .waitingForReady, entry.outcome.isTerminal, let position = gateEntry[entry.envelopeID] {
                    leftInOrder.append(position)
                }
                lastOutcome[entry.envelopeID] = entry.outcome
            }
            #expect(leftInOrder == leftInOrder.sorted(), "gate order broken (seed \(seedBlock)/\(sequence))")

            // Nothing parked is lost: whatever is not consumed yet is exactly what is pending or waiting.
            let open = Set(created.filter { !(lastOutcome[$0]?.isTerminal ?? false) })
            let parked = Set(navigator.waiting.map(\.id) + (navigator.pending.map { [$0.id] } ?? []))
            #expect(open == parked, "an envelope is neither consumed nor parked (seed \(seedBlock)/\(sequence))")

            // Drain: ready, then log in. Afterwards every envelope has exactly one terminal outcome.
            navigator.becomeReady()
            host.isLoggedIn = true
            navigator.didCompleteLogin()
            for id in created {
                let outcomes = navigator.log.outcomes(of: id)
                #expect(outcomes.filter(\.isTerminal).count == 1, "envelope \(id): \(outcomes) (seed \(seedBlock)/\(sequence))")
                #expect(outcomes.last?.isTerminal == true)
                // A pending envelope ends only as navigated, replaced (on record), cancelled by logout,
                // duplicate of nothing (impossible after pending) or failed: never vanishes.
                if outcomes.contains(.pendingLogin), let end = outcomes.last {
                    switch end {
                    case .navigated, .replacedWhilePending, .cancelledByLogout, .failed: break
                    default: Issue.record("pending envelope \(id) ended as \(end)")
                    }
                }
            }
            // Each navigation shown corresponds to exactly one navigated envelope.
            let navigated = created.filter { navigator.log.outcomes(of: $0).last == .navigated }
            #expect(host.shown.sorted() == navigated.sorted())
            #expect(host.authViolations.isEmpty)
            sequences += 1
        }
        #expect(sequences == 750)
    }
}
