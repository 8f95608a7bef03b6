import Testing
import JSONCore
import BridgeContracts
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting
import TestSupport

@Suite("Host invariants over random sessions")
@MainActor
struct HostInvariantTests {
    static let payloads: [(String, JSONValue)] = [
        ("apply", ["slug": "new-user-promo"]), ("apply", ["slug": "summer-2026", "plan": "premium"]),
        ("view_vehicles", [:]), ("view_vehicles", ["region": "서울", "page": 3]),
        ("start", ["referrer": "new-user-promo"]), ("start", [:]),
    ]
    static let entries = [seedEntry, "https://sendy.co.kr/event/summer-2026?campaign_id=s1", "sendy://event/new-user-promo"]

    @Test("every request answered, no auth screen while logged out, every envelope consumed once, URLs stay home")
    func randomSessions() throws {
        let contracts = try repositoryContracts()
        let compiled = try CompiledContracts(contracts: contracts)
        let authRoutes = Set(contracts.routes.filter(\.requiresAuth).map(\.name))
        for sequence in 0..<400 {
            var random = SeededGenerator(seed: UInt64(sequence) &* 7_919)
            let host = try MockBridgeHost(compiled: compiled, loggedIn: Bool.random(using: &random),
                                          appState: Bool.random(using: &random) ? .coldStart : .foreground)
            var lastBody: String?
            var requests = 0
            var replies = 0
            for step in 0..<Int.random(in: 1...25, using: &random) {
                let navigationsBefore = host.navigations.count
                switch Int.random(in: 0..<9, using: &random) {
                case 0: _ = try? host.open(entry: Self.entries.randomElement(using: &random)!, source: nil)
                case 1, 2:
                    let (action, payload) = Self.payloads.randomElement(using: &random)!
                    let body = message(action, id: "seq\(sequence)-step\(step)", payload: payload)
                    lastBody = body
                    requests += 1
                    if host.receive(body) != nil { replies += 1 }
                case 3:
                    if let lastBody {
                        requests += 1
                        if host.receive(lastBody) != nil { replies += 1 }
                    }
                case 4: host.completeLogin()
                case 5: host.logout()
                case 6: host.becomeReady()
                case 7: host.setAppState([.coldStart, .foreground, .background].randomElement(using: &random)!)
                default: host.advanceClock(byMs: Int.random(in: 0...3_000, using: &random))
                }
                for navigation in host.navigations[navigationsBefore...] {
                    #expect(!authRoutes.contains(navigation.route) || host.isLoggedIn,
                            "auth-required \(navigation.route) shown while logged out (sequence \(sequence))")
                    #expect(navigation.url.hasPrefix("https://sendy.co.kr/"))
                }
            }
            #expect(replies == requests, "a request went unanswered (sequence \(sequence))")
            host.becomeReady()
            host.completeLogin()
            let log = host.navigator.log.entries
            for id in Set(log.map(\.envelopeID)) {
                let outcomes = host.navigator.log.outcomes(of: id)
                #expect(outcomes.filter(\.isTerminal).count == 1, "envelope \(id): \(outcomes) (sequence \(sequence))")
            }
            #expect(host.navigations.count == log.filter { $0.outcome == .navigated }.count)
            // Every navigation has its screen_view with the same campaign.
            let views = host.events(named: "screen_view")
            #expect(views.count == host.navigations.count, "sequence \(sequence)")
            for (view, navigation) in zip(views, host.navigations) {
                #expect(view["campaign_id"] == navigation.campaign.json["campaign_id"])
                #expect(view["source"] == navigation.campaign.json["source"])
            }
        }
    }
}
