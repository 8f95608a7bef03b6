import Testing
import TestSupport
import JSONCore
import DeeplinkRouting
import FunnelMetrics

/// The wrong-landing window (FunnelReport.wrongLandingWindowMs, 10 s): a home screen shown within
/// it after the entry is a wrong landing, one shown later is not. Tried 1 ms inside, on the edge
/// and 1 ms past it (log times are seconds).
@Suite("funnel wrong-landing window")
struct WrongLandingWindowTests {
    static let vocabulary = FunnelVocabulary(pushClicked: "tap_push", pageOpened: "page", ctaClicked: "cta", screenView: "view",
                                             homeScreens: ["start"], signIn: "logged_in")

    func wrongLandings(homeAfterSeconds seconds: String) throws -> Int {
        let routes = try RepositoryPaths.text("contracts/routes.json")
        let resolver = RouteScreenResolver(routes: try RouteTable(routes: RoutesFile.routes(fromJSON: routes)))
        let lines = [
            #"{"event":"tap_push","properties":{"distinct_id":"p","time":100,"path":"/event/a","campaign_id":"c"}}"#,
            #"{"event":"view","properties":{"distinct_id":"p","time":\#(seconds),"screen":"start","campaign_id":"c"}}"#,
        ]
        let log = try FunnelLog.events(Array(lines.joined(separator: "\n").utf8))
        let report = FunnelReport(events: log.events, summary: log.summary, resolver: resolver, vocabulary: Self.vocabulary)
        #expect(report.all.wrongLanding.denominator == 1)
        return report.all.wrongLanding.numerator
    }

    @Test func theWindowIsTenSeconds() {
        #expect(FunnelReport.wrongLandingWindowMs == 10_000)
    }

    @Test func homeOneMillisecondInsideTheWindowIsAWrongLanding() throws {
        #expect(try wrongLandings(homeAfterSeconds: "109.999") == 1)
    }

    @Test func homeOnTheWindowsEdgeIsAWrongLanding() throws {
        #expect(try wrongLandings(homeAfterSeconds: "110") == 1)
    }

    @Test func homeOneMillisecondPastTheWindowIsNot() throws {
        #expect(try wrongLandings(homeAfterSeconds: "110.001") == 0)
    }
}
