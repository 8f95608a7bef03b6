import JSONCore
import TestSupport

/// Seeded synthetic sessions of known kinds, written as a Mixpanel-style export. Each broken kind
/// breaks one metric on purpose, so the expected counts follow from how many of each kind were drawn.
enum SessionKind: CaseIterable {
    /// push -> the target screen, every step with the campaign.
    case healthyPush
    /// An AlimTalk page (the entry is the page) whose CTA leads to a native screen.
    case healthyPage
    /// The target's screen_view lost its campaign_id: breaks metadata consistency only.
    case missingCampaign
    /// Home shown 3 s after the push, the target only later: breaks wrong landing only.
    case homeLanding
    /// Home 15 s after the push, outside the window: breaks nothing.
    case homeAfterWindow
    /// A cold-start push to a login screen: sign-in, then the target. Counts in the cold-start metric.
    case coldStartConsumed
    /// A cold-start push to a login screen: sign-in, then a list, never the target. Breaks the
    /// cold-start metric (and, by nature, target reach).
    case coldStartLost
}

struct SyntheticLog {
    struct Drawn {
        let kind: SessionKind
        let campaign: String
        let variant: String
        let source: String
    }

    var lines: [String] = []
    var drawn: [Drawn] = []

    static let campaigns = ["2025Q3_signup_retarget", "2025Q4_신차_프로모션"]
    static let variants = ["A", "B"]

    init(seed: UInt64, people: Int) {
        var random = SeededGenerator(seed: seed)
        var timed: [(time: Double, order: Int, line: String)] = []
        let start = 1_764_000_000.0
        for person in 0..<people {
            var clock = start + Double(Int.random(in: 0..<3600, using: &random))
            let visits = Int.random(in: 1...3, using: &random)
            for _ in 0..<visits {
                let kind = SessionKind.allCases.randomElement(using: &random)!
                let campaign = Self.campaigns.randomElement(using: &random)!
                let variant = Self.variants.randomElement(using: &random)!
                let source = kind == .healthyPage ? "kakaotalk" : "push"
                drawn.append(Drawn(kind: kind, campaign: campaign, variant: variant, source: source))
                for (offset, name, properties) in Self.events(of: kind, campaign: campaign, variant: variant, source: source) {
                    var all = properties
                    all["distinct_id"] = .string("person-\(person)")
                    all["time"] = .integer(Int64(clock + offset))
                    let line = JSONValue.object(JSONObject([("event", .string(name)), ("properties", .object(all))])).serialized()
                    timed.append((clock + offset, timed.count, line))
                }
                clock += 600
            }
        }
        // An export is ordered by time across people, so visits of different people interleave.
        lines = timed.sorted { ($0.time, $0.order) < ($1.time, $1.order) }.map(\.line)
    }

    static func events(of kind: SessionKind, campaign: String, variant: String, source: String)
        -> [(Double, String, JSONObject)]
    {
        let tagged = JSONObject([("campaign_id", .string(campaign)), ("variant", .string(variant)), ("source", .string(source))])
        func with(_ fields: [(String, JSONValue)], campaign: Bool = true) -> JSONObject {
            var object = JSONObject(fields)
            if campaign { for (key, value) in tagged { object[key] = value } }
            return object
        }
        let detail = with([("path", "/vehicles/truck-7")])
        switch kind {
        case .healthyPush:
            return [(0, "push_clicked", detail), (2, "screen_view", with([("screen", "vehicle_detail")]))]
        case .healthyPage:
            return [
                (0, "event_webview_opened", with([("path", "/event/new-user-promo")])),
                (5, "event_webview_cta_clicked", with([("action", "view_vehicles"), ("route", "vehicleList")])),
                (6, "screen_view", with([("screen", "vehicle_list")])),
            ]
        case .missingCampaign:
            return [(0, "push_clicked", detail), (2, "screen_view", with([("screen", "vehicle_detail")], campaign: false))]
        case .homeLanding:
            return [(0, "push_clicked", detail), (3, "home_screen", JSONObject()), (40, "screen_view", with([("screen", "vehicle_detail")]))]
        case .homeAfterWindow:
            return [(0, "push_clicked", detail), (2, "screen_view", with([("screen", "vehicle_detail")])), (15, "home_screen", JSONObject())]
        case .coldStartConsumed, .coldStartLost:
            let push = with([("path", "/order/42"), ("cold_start", true)])
            let last = kind == .coldStartConsumed ? "order_detail" : "vehicle_list"
            return [(0, "push_clicked", push), (20, "sign_in_success", JSONObject()), (22, "screen_view", with([("screen", .string(last))]))]
        }
    }

    /// The answer, from the drawn kinds alone: (reach, wrong landing, cold start, consistency) as
    /// (numerator, denominator) pairs, for the drawn sessions that `include` keeps.
    func expected(_ include: (Drawn) -> Bool = { _ in true }) -> [(Int, Int)] {
        let kinds = drawn.filter(include).map(\.kind)
        func count(_ wanted: SessionKind...) -> Int { kinds.filter(wanted.contains).count }
        let total = kinds.count
        return [
            (total - count(.coldStartLost), total),
            (count(.homeLanding), total),
            (count(.coldStartConsumed), count(.coldStartConsumed, .coldStartLost)),
            (total - count(.missingCampaign), total),
        ]
    }
}
