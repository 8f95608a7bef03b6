import Foundation
import Testing
import TestSupport
import JSONCore
@testable import BridgeCLI

/// `bridgectl funnel`: the example log of docs/operations.md (six visits, one broken per metric,
/// answers worked out by hand there), a host --stdio log fed straight in, and bad input.
@Suite("funnel command")
@MainActor
final class FunnelCLITests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("funnel") }
    deinit { testFolder.remove() }

    nonisolated static let example = RepositoryPaths.url("docs/examples/funnel-events.ndjson").path

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    func scratch(_ name: String) -> String {
        let folder = testFolder.url("funnel-cli-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    @Test("the funnel reads the event and home-screen names of the set in use")
    func theSetsNamesAreRead() throws {
        try withTemporaryFolder("funnel-names") { folder in try checkTheSetsNames(in: folder) }
    }

    func checkTheSetsNames(in folder: URL) throws {
        let contracts = folder.appendingPathComponent("contracts")
        try FileManager.default.copyItem(at: RepositoryPaths.contracts, to: contracts)
        let manifestURL = contracts.appendingPathComponent("manifest.json")
        var manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        manifest = manifest.replacingOccurrences(of: #""pushClicked": "push_clicked""#, with: #""pushClicked": "tap_push""#)
            .replacingOccurrences(of: #""homeScreens": ["home_screen", "home"]"#, with: #""homeScreens": ["start"]"#)
        try manifest.write(to: manifestURL, atomically: true, encoding: .utf8)
        let log = [
            #"{"event":"tap_push","properties":{"distinct_id":"p","time":0,"path":"/event/a","campaign_id":"c"}}"#,
            #"{"event":"screen_view","properties":{"distinct_id":"p","time":3,"screen":"start","campaign_id":"c"}}"#,
        ].joined(separator: "\n") + "\n"
        let own = run(["funnel", "-", "--contracts", contracts.path], input: log)
        #expect(own.code == 0, "\(own.err)")
        #expect(own.out.contains("1 deep-link session"), "\(own.out)")
        #expect(own.out.contains("  wrong landing (home <= 10 s)  1/1"), "\(own.out)")
        // The example's names see no entry in the same log.
        let example = run(["funnel", "-"], input: log)
        #expect(!example.out.contains("1 deep-link session"), "\(example.out)\(example.err)")
    }

    @Test("text: the hand-counted answers of the example log, in total and per group")
    func text() {
        let result = run(["funnel", Self.example])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.err.isEmpty)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(Self.example): 16 events, 6 deep-link sessions (16 export lines)")
        #expect(lines.contains("  target-screen reach           4/6   66.7%   30.0–90.3%"))
        #expect(lines.contains("  wrong landing (home <= 10 s)  1/6   16.7%    3.0–56.4%"))
        #expect(lines.contains("  cold-start consumption        1/2   50.0%    9.5–90.5%   2 signed in"))
        #expect(lines.contains("  campaign_id at every step     5/6   83.3%   43.6–97.0%   missing at screen_view 1"))
        // Two visits per variant: B's misses are no evidence yet (Fisher's exact test, 1/6 + 1/6).
        #expect(lines.contains("  target-screen reach           0.0% vs 100.0%, p = 0.33, not significant at 5% (Fisher's exact test)"))
        #expect(lines.filter { $0.hasPrefix("campaign_id=") && !$0.contains(" against ") } == [
            "campaign_id=2025Q3_signup_retarget source=push variant=A: 2 sessions",
            "campaign_id=2025Q3_signup_retarget source=push variant=B: 2 sessions",
            "campaign_id=2025Q4_truck_week source=kakaotalk variant=A: 1 session",
            "campaign_id=2025Q4_truck_week source=kakaotalk variant=B: 1 session",
        ])
    }

    @Test("json: numerators, denominators and rates per group")
    func json() throws {
        let result = run(["funnel", Self.example, "--format", "json"])
        #expect(result.code == 0, "\(result.err)")
        let value = try JSONValue(parsing: result.out)
        #expect(value.value(at: "/all/sessions") == .integer(6))
        #expect(value.value(at: "/all/targetReach/numerator") == .integer(4))
        #expect(value.value(at: "/all/wrongLanding/numerator") == .integer(1))
        #expect(value.value(at: "/all/coldStartConsumption") == ["numerator": 1, "denominator": 2, "rate": 0.5, "interval95": [0.0945, 0.9055]])
        #expect(value.value(at: "/all/metadataConsistency/denominator") == .integer(6))
        #expect(value.value(at: "/all/missingCampaignByStep") == ["screen_view": 1])
        #expect(value.value(at: "/groups/1/variant") == "B")
        #expect(value.value(at: "/groups/1/wrongLanding/numerator") == .integer(1))
        #expect(value.value(at: "/groups/2/coldStartConsumption/rate") == .null)
    }

    @Test("--html writes one self-contained page: a bar per group and metric, no script, nothing fetched")
    func html() throws {
        let path = scratch("funnel.html")
        let result = run(["funnel", Self.example, "--html", path])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.hasPrefix("\(Self.example): 16 events"), "the text report is still printed")
        let page = try String(contentsOfFile: path, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        // A chart per metric, and the time axis.
        #expect(page.components(separatedBy: "<svg ").count - 1 == 5)
        // Five rows (all + four groups) per chart: a track and a bar each.
        #expect(page.components(separatedBy: "<rect ").count - 1 == 4 * 5 * 2)
        #expect(page.contains("width=\"240\""), "reach 4/6 of 360 px")
        #expect(!page.contains("<script"))
        #expect(!page.contains("http://") || !page.replacingOccurrences(of: "http://www.w3.org/", with: "").contains("http://"))
        #expect(!page.contains("https://"))
    }

    @Test("a host --stdio log is read as it is: cold start, sign-in and the screen come from its lines")
    func hostLogPiped() throws {
        let session = try String(contentsOfFile: RepositoryPaths.url("docs/examples/funnel-host-session.ndjson").path, encoding: .utf8)
        let host = run(["host", "--stdio", "--cold-start", "--logged-out", "--manual-clock"], input: session)
        #expect(host.code == 0, "\(host.err)")
        let result = run(["funnel", "-", "--input-format", "host", "--format", "json"], input: host.out)
        #expect(result.code == 0, "\(result.err)")
        let value = try JSONValue(parsing: result.out)
        #expect(value.value(at: "/all/sessions") == .integer(1))
        #expect(value.value(at: "/all/targetReach/numerator") == .integer(1))
        #expect(value.value(at: "/all/coldStartConsumption") == ["numerator": 1, "denominator": 1, "rate": 1.0, "interval95": [0.2065, 1.0]])
        #expect(value.value(at: "/all/metadataConsistency/numerator") == .integer(1))
        #expect(value.value(at: "/groups/0/variant") == "card_scanner_cta")
        // The same log where the app never becomes ready: signed in, but the form is never shown.
        let unconsumed = run(["host", "--stdio", "--cold-start", "--logged-out", "--manual-clock"],
                             input: session.replacingOccurrences(of: "{\"type\":\"ready\"}\n", with: ""))
        #expect(session.contains("{\"type\":\"ready\"}\n"))
        let lost = try JSONValue(parsing: run(["funnel", "-", "--format", "json"], input: unconsumed.out).out)
        #expect(lost.value(at: "/all/coldStartConsumption") == ["numerator": 0, "denominator": 1, "rate": 0.0, "interval95": [0.0, 0.7935]])
    }

    @Test("bad input: one line naming the file and line, exit 2", arguments: [
        ("{\"event\":\"push_clicked\"}\n{\"event\":\"screen_view\",\"properties\":7}\n", "bridgectl funnel: <stdin>: line 2: \"properties\" must be an object"),
        ("{\"event\":\"a\"}\n{oops\n", "bridgectl funnel: <stdin>: line 2: not JSON: "),
        ("{\"type\":\"reply\",\"ok\":true}\n", "bridgectl funnel: <stdin>: no events (expected one JSON object per line)"),
        ("", "bridgectl funnel: <stdin>: no events (expected one JSON object per line)"),
    ])
    func badInput(input: String, message: String) {
        let result = run(["funnel", "-"], input: input)
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        #expect(result.err.hasPrefix(message), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
    }

    @Test("usage errors and unreadable files exit 2 with one line")
    func usage() {
        let cases: [([String], String)] = [
            (["funnel"], "bridgectl funnel: expected one event log"),
            (["funnel", "/nonexistent/events.ndjson"], "bridgectl funnel: /nonexistent/events.ndjson: no such file"),
            (["funnel", Self.example, "--format", "xml"], "bridgectl funnel: --format must be one of text, json, csv"),
            (["funnel", Self.example, "--input-format", "csv"], "bridgectl funnel: --input-format must be one of auto, host, export"),
            (["funnel", Self.example, "--input-format", "host"], "bridgectl funnel: \(Self.example): line 1: a host log line needs a \"type\""),
            (["funnel", Self.example, "--html", "/nonexistent/dir/f.html"], "bridgectl funnel: cannot write /nonexistent/dir/f.html"),
            (["funnel", Self.example, "--by", "week"], "bridgectl funnel: --by must be one of campaign, source, variant, day, not week"),
            (["funnel", Self.example, "--by", "day", "--by", "day"], "bridgectl funnel: --by day is given twice"),
        ]
        for (arguments, message) in cases {
            let result = run(arguments)
            #expect(result.code == 2, "\(arguments)")
            #expect(result.err.hasPrefix(message), "\(arguments): \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1, "\(arguments)")
        }
    }

    @Test("a truncated last line: exit 2 naming it, or with --skip-bad-lines counted, named and the rest reported")
    func truncatedLog() throws {
        let whole = try String(contentsOfFile: Self.example, encoding: .utf8)
        let truncated = whole + String(whole.prefix(30))
        let refused = run(["funnel", "-"], input: truncated)
        #expect(refused.code == 2)
        #expect(refused.err.hasPrefix("bridgectl funnel: <stdin>: line 17: not JSON"), "\(refused.err)")
        let skipped = run(["funnel", "-", "--skip-bad-lines"], input: truncated)
        #expect(skipped.code == 0, "\(skipped.err)")
        let lines = skipped.out.split(separator: "\n").map(String.init)
        #expect(lines[0] == "<stdin>: 16 events, 6 deep-link sessions (16 export lines)")
        #expect(lines[1].hasPrefix("skipped 1 bad line: line 17 (not JSON"), "\(lines[1])")
        #expect(skipped.out.contains("  target-screen reach           4/6   66.7%   30.0–90.3%"))
    }

    @Test("--by variant --by day and --format csv: one row per group, in the order asked")
    func csvByVariantAndDay() {
        let result = run(["funnel", Self.example, "--by", "variant", "--by", "day", "--format", "csv"])
        #expect(result.code == 0, "\(result.err)")
        let rows = result.out.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(rows[0].hasPrefix("scope,variant,day,sessions,targetReach_count,"))
        #expect(rows.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(4).joined(separator: ",") } == [
            "all,,,6", "group,A,2025-12-01,3", "group,B,2025-12-01,3",
        ])
    }

    @Test("a progress line goes to a terminal's standard error only, and is erased at the end")
    func progressOnTerminalOnly() {
        let terminal = CapturingConsole()
        terminal.standardErrorIsTerminal = true
        #expect(BridgeCLI.main(["funnel", Self.example], console: terminal) == 0)
        #expect(terminal.stderr.hasPrefix("\rbridgectl funnel: 16 lines, 100% of "), "\(terminal.stderr)")
        #expect(terminal.stderr.hasSuffix("\r\u{1B}[K"))
        let pipe = run(["funnel", Self.example])
        #expect(pipe.code == 0)
        #expect(pipe.err.isEmpty)
    }
}
