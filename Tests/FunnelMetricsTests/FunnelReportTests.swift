import Testing
import TestSupport
import JSONCore
import DeeplinkRouting
import FunnelMetrics

/// The four metrics over seeded synthetic sessions whose answers are known from how they were drawn.
@Suite("funnel metrics")
struct FunnelReportTests {
    static let resolver: RouteScreenResolver = {
        let text = try! RepositoryPaths.text("contracts/routes.json")
        return RouteScreenResolver(routes: try! RouteTable(routes: RoutesFile.routes(fromJSON: text)))
    }()

    /// The example set's names (contracts/manifest.json "analytics" and "funnel").
    static let example = FunnelVocabulary(
        pushClicked: "push_clicked", pageOpened: "event_webview_opened", ctaClicked: "event_webview_cta_clicked",
        screenView: "screen_view", homeScreens: ["home_screen", "home"], signIn: "sign_in_success")

    func report(_ lines: [String], vocabulary: FunnelVocabulary = Self.example) throws -> FunnelReport {
        let log = try FunnelLog.events(Array(lines.joined(separator: "\n").utf8))
        return FunnelReport(events: log.events, summary: log.summary, resolver: Self.resolver, vocabulary: vocabulary)
    }

    /// Notes stand only beside the metrics that have something to say: with every target known,
    /// the reach and wrong-landing lines end with their interval; the cold-start line says how
    /// many signed in.
    @Test func notesStandOnlyBesideTheMetricsTheyExplain() throws {
        let lines = [
            #"{"event":"push_clicked","properties":{"distinct_id":"p","time":0,"path":"/order/42","cold_start":true,"campaign_id":"c"}}"#,
            #"{"event":"sign_in_success","properties":{"distinct_id":"p","time":2}}"#,
            #"{"event":"screen_view","properties":{"distinct_id":"p","time":3,"screen":"home","campaign_id":"c"}}"#,
        ]
        let text = try report(lines).text(name: "log").split(separator: "\n").map(String.init)
        for metric in ["target-screen reach", "wrong landing"] {
            let line = try #require(text.first { $0.hasPrefix("  " + metric) })
            let last = try #require(line.split(separator: " ").last)
            #expect(last == "-" || last.hasSuffix("%"), "\(line)")
        }
        let coldStart = try #require(text.first { $0.hasPrefix("  cold-start consumption") })
        #expect(coldStart.hasSuffix("   1 signed in"), "\(coldStart)")
    }

    /// Reports are equal only when everything they count is: two logs of as many events, one
    /// session against two, differ.
    @Test func reportsDifferingInOneSessionAreNotEqual() throws {
        let push = #"{"event":"push_clicked","properties":{"distinct_id":"p","time":0,"path":"/order/42","campaign_id":"c"}}"#
        let one = [push, #"{"event":"screen_view","properties":{"distinct_id":"p","time":5,"screen":"order_detail","campaign_id":"c"}}"#]
        let two = [push, #"{"event":"push_clicked","properties":{"distinct_id":"q","time":5,"path":"/order/42","campaign_id":"c"}}"#]
        #expect(try report(one).eventCount == report(two).eventCount)
        #expect(try report(one) == report(one))
        #expect(try report(one) != report(two))
        // The same visits and days, one more event outside any session: still another report.
        let outside = #"{"event":"screen_view","properties":{"distinct_id":"z","time":7,"screen":"home"}}"#
        let (plain, withOutside) = (try report(one), try report(one + [outside]))
        #expect(withOutside.days.map(\.day) == plain.days.map(\.day))
        #expect(withOutside.eventsOutsideSessions == plain.eventsOutsideSessions + 1)
        #expect(withOutside != plain)
        // The text says how many events fell outside every session, and says nothing when none did.
        #expect(withOutside.text(name: "x").contains("1 event before a person's first deep link (in no session)"))
        #expect(!plain.text(name: "x").contains("before a person's first deep link"))
    }

    @Test func theFunnelReadsTheNamesItIsGivenAndNoOthers() throws {
        // A push that lands on the declared home screen 3 s after the tap, then signs in.
        let lines = [
            #"{"event":"tap_push","properties":{"distinct_id":"p","time":0,"path":"/event/a","cold_start":true,"campaign_id":"c"}}"#,
            #"{"event":"logged_in","properties":{"distinct_id":"p","time":2}}"#,
            #"{"event":"view","properties":{"distinct_id":"p","time":3,"screen":"start","campaign_id":"c"}}"#,
        ]
        let own = FunnelVocabulary(pushClicked: "tap_push", pageOpened: "page", ctaClicked: "cta", screenView: "view",
                                   homeScreens: ["start"], signIn: "logged_in")
        let report = try report(lines, vocabulary: own)
        #expect(report.all.sessions == 1)
        #expect(report.all.wrongLanding.numerator == 1)
        #expect(report.all.coldStartSignedIn == 1)
        // The same log read with the example's names has no entry, so no session.
        #expect(try self.report(lines).all.sessions == 0)
        // "home" is a home screen only when the set says so.
        let homeless = FunnelVocabulary(pushClicked: "tap_push", pageOpened: "page", ctaClicked: "cta", screenView: "view",
                                        homeScreens: ["dashboard"], signIn: "logged_in")
        #expect(try self.report(lines, vocabulary: homeless).all.wrongLanding.numerator == 0)
    }

    func pairs(_ metrics: MetricCounts) -> [(Int, Int)] {
        [metrics.targetReach, metrics.wrongLanding, metrics.coldStartConsumption, metrics.metadataConsistency]
            .map { ($0.numerator, $0.denominator) }
    }

    @Test("every seeded log gives the counts its drawn sessions imply, in total and per group", arguments: [1, 7, 42, 2026] as [UInt64])
    func seededLogs(seed: UInt64) throws {
        let log = SyntheticLog(seed: seed, people: 40)
        let report = try report(log.lines)
        #expect(report.all.sessions == log.drawn.count)
        #expect(pairs(report.all).elementsEqual(log.expected(), by: ==), "seed \(seed)")
        #expect(report.all.coldStartSignedIn == log.drawn.filter { $0.kind == .coldStartConsumed || $0.kind == .coldStartLost }.count)
        #expect(report.all.missingCampaignByStep == (log.expected()[3].0 == log.drawn.count ? [:] : ["screen_view": log.drawn.count - log.expected()[3].0]))
        #expect(report.all.targetUnknown == 0)
        let groups = Set(log.drawn.map { FunnelGroup(campaignID: $0.campaign, source: $0.source, variant: $0.variant) })
        #expect(report.groups.map(\.group) == groups.sorted())
        for (group, metrics) in report.groups {
            let expected = log.expected { $0.campaign == group.value(.campaign) && $0.source == group.value(.source) && $0.variant == group.value(.variant) }
            #expect(pairs(metrics).elementsEqual(expected, by: ==), "seed \(seed), \(group.label)")
        }
    }

    @Test("the seeds draw every kind of session, so each broken metric is exercised")
    func seedsCoverEveryKind() {
        for seed: UInt64 in [1, 7, 42, 2026] {
            let kinds = Set(SyntheticLog(seed: seed, people: 40).drawn.map(\.kind))
            #expect(kinds.count == SessionKind.allCases.count, "seed \(seed)")
        }
    }

    @Test("each broken kind alone breaks exactly its metric")
    func eachKindBreaksItsMetric() throws {
        func only(_ kind: SessionKind) throws -> [(Int, Int)] {
            let lines = SyntheticLog.events(of: kind, campaign: "c", variant: "A", source: "push").enumerated().map { index, event in
                var properties = event.2
                properties["distinct_id"] = "p"
                properties["time"] = .integer(Int64(1_764_000_000 + event.0))
                return JSONValue.object(JSONObject([("event", .string(event.1)), ("properties", .object(properties))])).serialized()
            }
            return pairs(try report(lines).all)
        }
        #expect(try only(.healthyPush).elementsEqual([(1, 1), (0, 1), (0, 0), (1, 1)], by: ==))
        #expect(try only(.missingCampaign).elementsEqual([(1, 1), (0, 1), (0, 0), (0, 1)], by: ==))
        #expect(try only(.homeLanding).elementsEqual([(1, 1), (1, 1), (0, 0), (1, 1)], by: ==))
        #expect(try only(.homeAfterWindow).elementsEqual([(1, 1), (0, 1), (0, 0), (1, 1)], by: ==))
        #expect(try only(.coldStartConsumed).elementsEqual([(1, 1), (0, 1), (1, 1), (1, 1)], by: ==))
        #expect(try only(.coldStartLost).elementsEqual([(0, 1), (0, 1), (0, 1), (1, 1)], by: ==))
    }

    @Test("a screen shown before the sign-in does not count as the cold start consumed")
    func screenBeforeSignIn() throws {
        let lines = [
            #"{"event":"push_clicked","properties":{"distinct_id":"p","time":1,"path":"/order/42","cold_start":true,"campaign_id":"c"}}"#,
            #"{"event":"screen_view","properties":{"distinct_id":"p","time":2,"screen":"order_detail","campaign_id":"c"}}"#,
            #"{"event":"sign_in_success","properties":{"distinct_id":"p","time":3}}"#,
        ]
        #expect(try report(lines).all.coldStartConsumption == Ratio(0, of: 1))
    }

    @Test("an in-app page opened later in the visit is no campaign step; a campaign page without campaign_id is")
    func inAppPageIsNoStep() throws {
        let visit = [
            #"{"event":"push_clicked","properties":{"path":"/vehicles/x","campaign_id":"c"}}"#,
            #"{"event":"screen_view","properties":{"screen":"vehicle_detail","campaign_id":"c"}}"#,
        ]
        let inApp = #"{"event":"event_webview_opened","properties":{"path":"/event/faq","source":"appInternal"}}"#
        let unmarked = #"{"event":"event_webview_opened","properties":{"path":"/event/truck-week"}}"#
        #expect(try report(visit + [inApp]).all.metadataConsistency == Ratio(1, of: 1))
        #expect(try report(visit + [unmarked]).all.metadataConsistency == Ratio(0, of: 1))
        #expect(try report(visit + [unmarked]).all.missingCampaignByStep == ["event_webview_opened": 1])
    }

    @Test("a log without times: home counts as a wrong landing only when it is the first screen shown")
    func untimedHome() throws {
        let first = [
            #"{"event":"push_clicked","properties":{"path":"/vehicles/x","campaign_id":"c"}}"#,
            #"{"event":"home_screen","properties":{}}"#,
        ]
        let later = [
            #"{"event":"push_clicked","properties":{"path":"/vehicles/x","campaign_id":"c"}}"#,
            #"{"event":"screen_view","properties":{"screen":"vehicle_detail","campaign_id":"c"}}"#,
            #"{"event":"home_screen","properties":{}}"#,
        ]
        #expect(try report(first).all.wrongLanding == Ratio(1, of: 1))
        #expect(try report(later).all.wrongLanding == Ratio(0, of: 1))
        #expect(try report(first).sessionsWithoutTimes == 1)
    }

    @Test("a link no route matches has no target: outside reach's denominator, counted apart")
    func unknownTarget() throws {
        let report = try report([#"{"event":"push_clicked","properties":{"path":"/nowhere/at/all","campaign_id":"c"}}"#])
        #expect(report.all.targetReach == Ratio(0, of: 0))
        #expect(report.all.targetUnknown == 1)
        #expect(report.all.targetReach.percent == "-")
    }
}
