import Testing
import TestSupport
import JSONCore
import DeeplinkRouting
import FunnelMetrics

/// The log read as a stream: any chunking gives the same report, bad lines skipped on request,
/// the open visits bounded, breakdowns, intervals, comparisons, CSV and the page.
@Suite("funnel streaming and breakdowns")
struct FunnelStreamTests {
    static let resolver = FunnelReportTests.resolver
    static let example = FunnelReportTests.example

    func stream(_ text: String, chunk: Int = 1 << 20, skipBadLines: Bool = false, by dimensions: [FunnelDimension] = FunnelDimension.standard,
                maxOpenVisits: Int = FunnelLogStream.maxOpenVisits) throws(FunnelLogError) -> FunnelReport {
        var stream = FunnelLogStream(resolver: Self.resolver, vocabulary: Self.example, dimensions: dimensions,
                                     skipBadLines: skipBadLines, maxOpenVisits: maxOpenVisits)
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            try stream.feed(Array(bytes[start..<min(bytes.count, start + chunk)]))
            start += chunk
        }
        return try stream.finish()
    }

    func line(_ event: String, _ person: String, _ time: Int, _ properties: String = "") -> String {
        #"{"event":"\#(event)","properties":{"distinct_id":"\#(person)","time":\#(time)\#(properties.isEmpty ? "" : ",")\#(properties)}}"#
    }

    /// The time axis labels every other day of 14 (a sixth of them, rounded down, apart) and
    /// always the last, which that step would skip.
    @Test func theTimeAxisAlwaysLabelsTheLastDay() throws {
        let log = (0..<14).map { day in
            line("push_clicked", "p\(day)", 1_764_547_200 + day * 86_400, #""path":"/order/42","campaign_id":"c""#)
        }.joined(separator: "\n")
        let page = try stream(log).html(name: "days")
        let labels = page.components(separatedBy: "<text class=\"day\"").count - 1
        #expect(labels == 8, "days 1, 3, ..., 13 and 14")
        #expect(page.contains(">2025-12-14</text>") && page.contains(">2025-12-13</text>") && !page.contains(">2025-12-12</text>"))
    }

    /// A visit keeps its first 1,000 steps; later ones are counted as dropped, whichever way they
    /// join the visit (here: the same push logged again without a source, each a step).
    @Test("steps past a visit's first 1,000 are counted as dropped", arguments: [(999, 0), (1_000, 0), (1_001, 1)])
    func stepsPastTheLimitAreDropped(steps: Int, dropped: Int) throws {
        let push = line("push_clicked", "p", 1_764_547_200, #""path":"/order/42","campaign_id":"c""#)
        let log = Array(repeating: push, count: steps).joined(separator: "\n")
        let report = try stream(log)
        #expect(report.stepsDropped == dropped)
        #expect(report.all.sessions == 1)
        // The text says so, in the singular for one, and not at all for none.
        let text = report.text(name: "x")
        #expect(text.contains("1 event past a visit's first 1000 not read") == (dropped == 1), "\(text)")
        #expect(text.contains("past a visit's first") == (dropped > 0))
    }

    /// Export lines without a time make sessions without times: a wrong landing cannot be told
    /// there, and the text says how many; a host log, which has no times, is the same.
    @Test func sessionsWithoutTimesAreCountedInTheText() throws {
        let untimed = [#"{"event":"push_clicked","properties":{"distinct_id":"p","path":"/order/42","campaign_id":"c"}}"#,
                       #"{"event":"push_clicked","properties":{"distinct_id":"q","path":"/order/42","campaign_id":"c"}}"#]
        let text = try stream(untimed.joined(separator: "\n")).text(name: "x")
        #expect(text.contains("2 sessions without times: a wrong landing there is home shown as the first screen"), "\(text)")
        let timed = try stream(line("push_clicked", "p", 1_764_547_200, #""path":"/order/42","campaign_id":"c""#)).text(name: "x")
        #expect(!timed.contains("without times"), "\(timed)")
        let page = try stream(untimed.joined(separator: "\n")).html(name: "x")
        #expect(!page.contains("By day (UTC)"), "no times, no days, no time axis")
        // Without comparisons or days, nothing at all comes between the table and the page's end.
        #expect(page.hasSuffix("</table>\n</body>\n</html>\n"), "\(page.suffix(200))")
    }

    /// A line may hold 1 MiB (its "\r" aside): one byte more is refused with its line number,
    /// whether the log is read whole or fed in chunks, and whether the chunk that crosses the
    /// limit holds the line's end or not.
    @Test("a line of 1 MiB is read, one byte more is refused, whole or in chunks", arguments: [(-1, true), (0, true), (1, false), (3, false)])
    func theLineLengthLimit(extra: Int, read: Bool) throws {
        let push = line("push_clicked", "p", 1_764_547_200, #""path":"/order/42","campaign_id":"c""#)
        let head = #"{"event":"screen_view","properties":{"distinct_id":"p","time":1764547201,"screen":"home""#
        let long = head + String(repeating: " ", count: FunnelLog.maxLineBytes + extra - head.utf8.count - 2) + "}}"
        #expect(long.utf8.count == FunnelLog.maxLineBytes + extra)
        let log = push + "\n" + long + "\r\n" + push + "\n"
        let whole = Result { () throws(FunnelLogError) in try FunnelLog.events(Array(log.utf8)) }
        // The last chunk size ends the first chunk at the long line's last byte, before its "\r\n".
        for chunk in [1 << 21, 65_537, 4096, push.utf8.count + 1 + long.utf8.count] {
            let streamed = Result { () throws(FunnelLogError) in try stream(log, chunk: chunk) }
            for outcome in [whole.map { _ in () }, streamed.map { _ in () }] {
                switch outcome {
                case .success: #expect(read, "extra \(extra), chunk \(chunk): read")
                case .failure(let error):
                    #expect(!read, "extra \(extra), chunk \(chunk): \(error)")
                    #expect(error.line == 2 && error.message == "longer than 1048576 bytes", "\(error)")
                }
            }
        }
        if read { #expect(try stream(log).all.sessions == 1) }
    }

    @Test("a log fed in chunks of any size, cut anywhere in a line, gives the report of the whole log", arguments: [1, 7, 100, 4096])
    func chunking(size: Int) throws {
        let log = SyntheticLog(seed: 7, people: 30).lines.joined(separator: "\n") + "\n"
        let whole = try FunnelLog.events(Array(log.utf8))
        let expected = FunnelReport(events: whole.events, summary: whole.summary, resolver: Self.resolver, vocabulary: Self.example)
        #expect(try stream(log, chunk: size) == expected)
        #expect(try stream(log, chunk: size).all.sessions > 30)
    }

    @Test("without --skip-bad-lines a truncated last line is an error naming its line")
    func truncatedLastLineIsAnError() {
        let log = SyntheticLog(seed: 1, people: 5).lines
        let truncated = log.joined(separator: "\n") + "\n" + String(log[0].prefix(40))
        #expect(throws: FunnelLogError.self) { try stream(truncated) }
        do {
            _ = try stream(truncated)
        } catch {
            #expect(error.line == log.count + 1)
            #expect(error.message.hasPrefix("not JSON"))
        }
    }

    @Test("with --skip-bad-lines a truncated last line is skipped, counted and named; the rest is counted")
    func truncatedLastLineIsSkipped() throws {
        let log = SyntheticLog(seed: 1, people: 5)
        let complete = try stream(log.lines.joined(separator: "\n"))
        let report = try stream(log.lines.joined(separator: "\n") + "\n" + String(log.lines[0].prefix(40)), skipBadLines: true)
        #expect(report.skipped.count == 1)
        #expect(report.skipped.first.map(\.line) == [log.lines.count + 1])
        #expect(report.all == complete.all)
        #expect(report.text(name: "x").contains("skipped 1 bad line: line \(log.lines.count + 1) (not JSON"))
    }

    @Test("of many bad lines all are counted and the first five named")
    func manyBadLines() throws {
        let lines = (1...9).map { $0 % 2 == 0 ? "{oops" : line("push_clicked", "p\($0)", $0, #""path":"/vehicles/x""#) }
        let report = try stream(lines.joined(separator: "\n"), skipBadLines: true)
        #expect(report.skipped.count == 4)
        #expect(report.skipped.first.map(\.line) == [2, 4, 6, 8])
        let many = try stream((1...8).map { _ in "[" }.joined(separator: "\n") + "\n" + lines[0], skipBadLines: true)
        #expect(many.skipped.count == 8)
        #expect(many.skipped.first.map(\.line) == [1, 2, 3, 4, 5])
        #expect(many.text(name: "x").contains("line 5 (not JSON"))
        #expect(many.text(name: "x").contains("; ..."))
    }

    @Test("open visits are bounded: past the limit the least recently active close early and are counted")
    func openVisitsAreBounded() throws {
        // Ten people each open a visit; then each shows the target.
        let opens = (0..<10).map { line("push_clicked", "p\($0)", $0, #""target_screen":"vehicle_detail","campaign_id":"c""#) }
        let shows = (0..<10).map { line("screen_view", "p\($0)", 100 + $0, #""screen":"vehicle_detail","campaign_id":"c""#) }
        let log = (opens + shows).joined(separator: "\n")
        let unbounded = try stream(log)
        #expect(unbounded.all.targetReach == Ratio(10, of: 10))
        #expect(unbounded.visitsClosedEarly == 0)
        let bounded = try stream(log, maxOpenVisits: 4)
        #expect(bounded.all.sessions == 10)
        #expect(bounded.visitsClosedEarly > 0)
        #expect(bounded.all.targetReach.numerator == 10 - bounded.visitsClosedEarly)
        #expect(bounded.eventsOutsideSessions == bounded.visitsClosedEarly)
        #expect(bounded.text(name: "x").contains("closed early"))
    }

    @Test("a push_clicked without source, to the same target, is the same visit; to another target it starts one")
    func pushWithoutSourceDoesNotSplit() throws {
        let first = line("push_clicked", "p", 0, #""target_screen":"vehicle_detail","campaign_id":"c","source":"push""#)
        let again = line("push_clicked", "p", 1, #""target_screen":"vehicle_detail","campaign_id":"c""#)
        let other = line("push_clicked", "p", 1, #""target_screen":"order_detail","campaign_id":"c""#)
        let shown = line("screen_view", "p", 2, #""screen":"vehicle_detail","campaign_id":"c""#)
        let same = try stream([first, again, shown].joined(separator: "\n"))
        #expect(same.all.sessions == 1)
        #expect(same.all.targetReach == Ratio(1, of: 1))
        #expect(same.groups.map(\.group.label) == ["campaign_id=c source=push variant=(none)"])
        #expect(try stream([first, other, shown].joined(separator: "\n")).all.sessions == 2)
    }

    @Test("source cold_start is a cold start, not a group: the visit counts under push")
    func coldStartIsNoSource() throws {
        let log = [
            line("push_clicked", "p", 0, #""path":"/order/42","campaign_id":"c","source":"cold_start""#),
            line("sign_in_success", "p", 5),
            line("screen_view", "p", 6, #""screen":"order_detail","campaign_id":"c","source":"cold_start""#),
            line("push_clicked", "q", 0, #""path":"/order/42","campaign_id":"c","source":"push""#),
        ].joined(separator: "\n")
        let report = try stream(log)
        #expect(report.groups.map { $0.group.value(.source) } == ["push"])
        #expect(report.all.coldStartConsumption == Ratio(1, of: 1))
    }

    @Test("--by day and variant: groups by the UTC day of the entry, then variant, in that order")
    func byDayAndVariant() throws {
        // 1764547199 is 2025-11-30 23:59:59 UTC; one second later is 2025-12-01.
        let log = [
            line("push_clicked", "p", 1_764_547_199, #""path":"/vehicles/x","campaign_id":"c","variant":"B""#),
            line("push_clicked", "q", 1_764_547_200, #""path":"/vehicles/x","campaign_id":"c","variant":"A""#),
            line("push_clicked", "r", 1_764_633_600_000, #""path":"/vehicles/x","campaign_id":"c","variant":"A""#),
        ].joined(separator: "\n")
        let report = try stream(log, by: [.day, .variant])
        #expect(report.groups.map(\.group.label) == ["day=2025-11-30 variant=B", "day=2025-12-01 variant=A", "day=2025-12-02 variant=A"])
        #expect(report.days.map(\.day) == ["2025-11-30", "2025-12-01", "2025-12-02"])
        #expect(try stream(log, by: [.campaign]).groups.map(\.group.label) == ["campaign_id=c"])
    }

    @Test("Wilson 95% intervals match hand-computed values")
    func wilson() throws {
        // 4/6: centre (p + z²/2n)/(1 + z²/n) = 0.6016, half-width 0.3016.
        let interval = try #require(Ratio(4, of: 6).interval)
        #expect(abs(interval.lower - 0.3000) < 0.0005 && abs(interval.upper - 0.9032) < 0.0005)
        #expect(interval.percentRange == "30.0–90.3%")
        #expect(Ratio(0, of: 2).interval?.lower == 0)
        #expect(Ratio(0, of: 0).interval == nil)
    }

    @Test("59.3% against 48.5% (16/27, 16/33): z-test p = 0.405, not significant")
    func zTest() throws {
        // Pooled 32/60; SE = sqrt(0.5333 × 0.4667 × (1/27 + 1/33)) = 0.12946; z = 0.10774 / 0.12946 = 0.8323.
        let comparison = try #require(RateComparison(Ratio(16, of: 27), Ratio(16, of: 33)))
        #expect(comparison.test == .twoProportionZ)
        #expect(abs(comparison.pValue - 0.4053) < 0.0005)
        #expect(comparison.summary == "p = 0.41, not significant at 5%")
        let clear = try #require(RateComparison(Ratio(80, of: 100), Ratio(50, of: 100)))
        #expect(clear.isSignificant && clear.summary == "p < 0.001, significant at 5%")
    }

    @Test("small counts use Fisher's exact test: hand-summed hypergeometric tails")
    func fisher() throws {
        // 3/4 against 1/4 (the tea-tasting table): tables as or less likely sum to 34/70.
        let tea = try #require(RateComparison(Ratio(3, of: 4), Ratio(1, of: 4)))
        #expect(tea.test == .fisherExact)
        #expect(abs(tea.pValue - 34.0 / 70.0) < 1e-9)
        // 0/2 against 2/2: the two extreme tables, 1/6 each.
        #expect(abs(try #require(RateComparison(Ratio(0, of: 2), Ratio(2, of: 2))).pValue - 1.0 / 3.0) < 1e-9)
        #expect(RateComparison(Ratio(0, of: 0), Ratio(1, of: 2)) == nil)
    }

    @Test("variants of the same group are compared, each against the first")
    func variantComparisons() throws {
        var lines: [String] = []
        for (variant, reached, total) in [("A", 16, 27), ("B", 16, 33)] {
            for index in 0..<total {
                let person = "\(variant)\(index)"
                lines.append(line("push_clicked", person, index, #""target_screen":"vehicle_detail","campaign_id":"c","variant":"\#(variant)""#))
                lines.append(line("screen_view", person, index + 1, #""screen":"\#(index < reached ? "vehicle_detail" : "vehicle_list")""#))
            }
        }
        let report = try stream(lines.joined(separator: "\n"))
        let comparison = try #require(report.variantComparisons.first)
        #expect(report.variantComparisons.count == 1)
        #expect(comparison.context == "campaign_id=c source=push")
        #expect(comparison.baseline == "A" && comparison.variant == "B")
        #expect(report.text(name: "x").contains("target-screen reach           48.5% vs 59.3%, p = 0.41, not significant at 5%"))
        // The page lists the same comparison, escaped, in a section of its own.
        let page = report.html(name: "x")
        #expect(page.contains("<h2>Variants compared</h2>"))
        #expect(page.contains("<li>campaign_id=c source=push: variant B against A, "), "\(page)")
        let ungrouped = try stream(lines.joined(separator: "\n"), by: [.campaign])
        #expect(ungrouped.variantComparisons.isEmpty)
        #expect(!ungrouped.html(name: "x").contains("Variants compared"), "no comparisons, no section")
    }

    @Test("CSV: a header, the total, a row per group; fields with commas or quotes are quoted (RFC 4180)")
    func csv() throws {
        let log = [
            line("push_clicked", "p", 0, #""path":"/vehicles/x","campaign_id":"sale, \"big\"","variant":"A""#),
            line("push_clicked", "q", 0, #""path":"/vehicles/x","campaign_id":"plain","variant":"A""#),
        ].joined(separator: "\n")
        let rows = try stream(log).csv().components(separatedBy: "\r\n")
        #expect(rows[0].hasPrefix("scope,campaign_id,source,variant,sessions,targetReach_count,targetReach_of,targetReach_rate,targetReach_ci95_low"))
        #expect(rows[1].hasPrefix("all,,,,2,0,2,0.0000,0.0000,0.6576,"))
        #expect(rows[2].hasPrefix("group,plain,push,A,1,"))
        #expect(rows[3].hasPrefix(#"group,"sale, ""big""",push,A,1,"#))
        #expect(rows.count == 5 && rows[4].isEmpty)
        #expect(rows[0].split(separator: ",").count == 4 + 1 + 4 * 5)
    }

    @Test("the page keeps the text's notes, escaped, and has a time axis per UTC day")
    func page() throws {
        let log = [
            line("push_clicked", "p", 1_764_547_200, #""path":"/order/42","cold_start":true,"campaign_id":"<c&\"d\">""#),
            line("sign_in_success", "p", 1_764_547_205),
            line("screen_view", "p", 1_764_547_206, #""screen":"order_detail""#),
            line("push_clicked", "q", 1_764_633_600, #""path":"/order/42","campaign_id":"e""#),
            "{oops",
        ].joined(separator: "\n")
        let page = try stream(log, skipBadLines: true).html(name: "a<b")
        #expect(page.contains("1 signed in"))
        #expect(page.contains("missing at screen_view 1"))
        #expect(page.contains("skipped 1 bad line: line 5 (not JSON"))
        #expect(page.contains("&lt;c&amp;&quot;d&quot;&gt;"))
        #expect(!page.contains("<c&"))
        #expect(page.contains("a&lt;b"))
        #expect(page.contains("<h2>By day (UTC)</h2>"))
        #expect(page.contains("<td>2025-12-01</td>") && page.contains("<td>2025-12-02</td>"))
        #expect(page.components(separatedBy: "<polyline ").count - 1 == 4)
        // The first day at the plot's left edge (x 44), the last at its right (x 704); labels sit 34 left.
        #expect(page.contains("<text class=\"day\" x=\"10\" y=\"206\">2025-12-01</text>"))
        #expect(page.contains("<text class=\"day\" x=\"670\" y=\"206\">2025-12-02</text>"))
        #expect(page.contains("95% CI "))
    }
}
