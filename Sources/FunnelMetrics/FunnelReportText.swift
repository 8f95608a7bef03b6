import JSONCore

/// Variant B against variant A of the same group (same values of every other dimension).
public struct VariantComparison: Sendable, Equatable {
    /// The other dimensions' values, e.g. `campaign_id=X source=push` ("" when variant is the only one).
    public let context: String
    public let baseline: String?
    public let variant: String?
    /// Per metric (in `FunnelReport.metricTitles` order): the two ratios and, when both apply, the test.
    public let metrics: [(baseline: Ratio, variant: Ratio, comparison: RateComparison?)]

    public static func == (lhs: VariantComparison, rhs: VariantComparison) -> Bool {
        lhs.context == rhs.context && lhs.baseline == rhs.baseline && lhs.variant == rhs.variant
            && lhs.metrics.map(\.comparison) == rhs.metrics.map(\.comparison)
    }
}

/// The report for people at a terminal, as JSON for programs and as CSV for spreadsheets.
extension FunnelReport {
    /// The metric rows, in the order every output shows them.
    public static let metricTitles = [
        "target-screen reach", "wrong landing (home <= 10 s)", "cold-start consumption", "campaign_id at every step",
    ]
    /// The metrics' names in JSON and CSV.
    public static let metricKeys = ["targetReach", "wrongLanding", "coldStartConsumption", "metadataConsistency"]

    func ratios(_ metrics: MetricCounts) -> [Ratio] {
        [metrics.targetReach, metrics.wrongLanding, metrics.coldStartConsumption, metrics.metadataConsistency]
    }

    func notes(_ metrics: MetricCounts) -> [String] {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        func byStep(_ counts: [String: Int]) -> String {
            counts.keys.sorted().map { "\($0) \(counts[$0]!)" }.joined(separator: ", ")
        }
        var consistency: [String] = []
        if !metrics.missingCampaignByStep.isEmpty { consistency.append("missing at " + byStep(metrics.missingCampaignByStep)) }
        if !metrics.otherCampaignByStep.isEmpty { consistency.append("another campaign_id at " + byStep(metrics.otherCampaignByStep)) }
        return [
            metrics.targetUnknown == 0 ? "" : plural(metrics.targetUnknown, "session") + " without a known target",
            "",
            metrics.coldStartConsumption.denominator == 0 ? "" : "\(metrics.coldStartSignedIn) signed in",
            consistency.joined(separator: "; "),
        ]
    }

    /// The lines under the first that say how the log was read, shared by the text and the page.
    public var readingNotes: [String] {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        var lines: [String] = []
        if skipped.count > 0 {
            let named = skipped.first.map { "line \($0.line) (\($0.message))" }.joined(separator: "; ")
            lines.append("skipped \(plural(skipped.count, "bad line")): " + named + (skipped.count > skipped.first.count ? "; ..." : ""))
        }
        if eventsOutsideSessions > 0 {
            lines.append("\(plural(eventsOutsideSessions, "event")) before a person's first deep link (in no session)")
        }
        if sessionsWithoutTimes > 0 {
            lines.append("\(plural(sessionsWithoutTimes, "session")) without times: a wrong landing there is home shown as the first screen")
        }
        if visitsClosedEarly > 0 {
            lines.append("\(plural(visitsClosedEarly, "visit")) closed early: more than \(FunnelLogStream.maxOpenVisits) people had a visit open")
        }
        if stepsDropped > 0 {
            lines.append("\(plural(stepsDropped, "event")) past a visit's first \(VisitTracker.maxStepsPerVisit) not read")
        }
        return lines
    }

    /// The first line: the log's name, its events and visits.
    func headline(name: String) -> String {
        let sessions = all.sessions
        var input: [String] = []
        if summary.hostLines > 0 { input.append("\(summary.hostLines) host lines, \(summary.skippedLines) of them neither events nor funnel facts") }
        if summary.exportLines > 0 { input.append("\(summary.exportLines) export lines") }
        return "\(name): \(eventCount) events, \(sessions) deep-link session\(sessions == 1 ? "" : "s")"
            + (input.isEmpty ? "" : " (\(input.joined(separator: ", ")))")
    }

    /// Each variant against the first variant of the same group, when `variant` is a dimension.
    public var variantComparisons: [VariantComparison] {
        guard let variantIndex = dimensions.firstIndex(of: .variant) else { return [] }
        var contexts: [String] = []
        var byContext: [String: [(variant: String?, metrics: MetricCounts)]] = [:]
        for (group, metrics) in groups {
            var others = group
            others = FunnelGroup(
                dimensions: group.dimensions.enumerated().filter { $0.offset != variantIndex }.map(\.element),
                values: group.values.enumerated().filter { $0.offset != variantIndex }.map(\.element))
            let context = others.label
            if byContext[context] == nil { contexts.append(context) }
            byContext[context, default: []].append((group.values[variantIndex], metrics))
        }
        var comparisons: [VariantComparison] = []
        for context in contexts {
            let variants = byContext[context]!.sorted { ($0.variant ?? "\u{10FFFF}") < ($1.variant ?? "\u{10FFFF}") }
            guard let baseline = variants.first, variants.count > 1 else { continue }
            for other in variants.dropFirst() {
                let metrics = zip(ratios(baseline.metrics), ratios(other.metrics)).map { ($0, $1, RateComparison($0, $1)) }
                comparisons.append(VariantComparison(context: context, baseline: baseline.variant, variant: other.variant, metrics: metrics))
            }
        }
        return comparisons
    }

    /// Lines of plain text; `name` is the log's name as the person gave it.
    public func text(name: String) -> String {
        var lines = [headline(name: name)] + readingNotes
        let width = Self.metricTitles.map(\.count).max()!
        let all = [self.all] + groups.map(\.metrics)
        let countWidth = all.flatMap(ratios).map { "\($0.numerator)/\($0.denominator)".count }.max() ?? 3
        let intervalWidth = all.flatMap(ratios).map { ($0.interval?.percentRange ?? "-").count }.max() ?? 1
        func block(_ title: String, _ metrics: MetricCounts) {
            lines.append("")
            lines.append("\(title): \(metrics.sessions) session\(metrics.sessions == 1 ? "" : "s")")
            for (index, (ratio, note)) in zip(ratios(metrics), notes(metrics)).enumerated() {
                let count = "\(ratio.numerator)/\(ratio.denominator)"
                var line = "  " + Self.metricTitles[index].padded(width) + "  " + count.padded(countWidth) + "  " + ratio.percent.leftPadded(6)
                    + "  " + (ratio.interval?.percentRange ?? "-").leftPadded(intervalWidth)
                if !note.isEmpty { line += "   " + note }
                lines.append(line)
            }
        }
        block("all", self.all)
        for (group, metrics) in groups { block(group.label, metrics) }
        let comparisons = variantComparisons
        if !comparisons.isEmpty {
            lines.append("")
            lines.append("variants compared (each against the first of its group; p: how likely so large a difference is by chance):")
            for comparison in comparisons {
                let context = comparison.context.isEmpty ? "" : "\(comparison.context): "
                lines.append("\(context)variant \(comparison.variant ?? "(none)") against \(comparison.baseline ?? "(none)")")
                for (index, metric) in comparison.metrics.enumerated() {
                    guard let test = metric.comparison else { continue }
                    lines.append("  " + Self.metricTitles[index].padded(width) + "  \(metric.variant.percent) vs \(metric.baseline.percent), "
                        + test.summary + " (\(test.test.rawValue))")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: one object per group with each metric's numerator, denominator, rate
    /// and 95% interval.
    public func json(name: String) -> JSONValue {
        func rounded(_ value: Double) -> JSONValue { .number((value * 10000).rounded() / 10000) }
        func ratio(_ ratio: Ratio) -> JSONValue {
            .object(JSONObject([
                ("numerator", .integer(Int64(ratio.numerator))), ("denominator", .integer(Int64(ratio.denominator))),
                ("rate", ratio.rate.map(rounded) ?? .null),
                ("interval95", ratio.interval.map { .array([rounded($0.lower), rounded($0.upper)]) } ?? .null),
            ]))
        }
        func counts(_ counts: [String: Int]) -> JSONValue {
            .object(JSONObject(counts.keys.sorted().map { ($0, .integer(Int64(counts[$0]!))) }))
        }
        func metrics(_ metrics: MetricCounts) -> [(String, JSONValue)] {
            [
                ("sessions", .integer(Int64(metrics.sessions))),
                ("targetReach", ratio(metrics.targetReach)),
                ("targetUnknown", .integer(Int64(metrics.targetUnknown))),
                ("wrongLanding", ratio(metrics.wrongLanding)),
                ("coldStartConsumption", ratio(metrics.coldStartConsumption)),
                ("coldStartSignedIn", .integer(Int64(metrics.coldStartSignedIn))),
                ("metadataConsistency", ratio(metrics.metadataConsistency)),
                ("missingCampaignByStep", counts(metrics.missingCampaignByStep)),
                ("otherCampaignByStep", counts(metrics.otherCampaignByStep)),
            ]
        }
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return .object(JSONObject([
            ("input", .string(name)),
            ("events", .integer(Int64(eventCount))),
            ("skippedLines", .object(JSONObject([
                ("count", .integer(Int64(skipped.count))),
                ("first", .array(skipped.first.map { .object(JSONObject([("line", .integer(Int64($0.line))), ("message", .string($0.message))])) })),
            ]))),
            ("eventsOutsideSessions", .integer(Int64(eventsOutsideSessions))),
            ("sessionsWithoutTimes", .integer(Int64(sessionsWithoutTimes))),
            ("wrongLandingWindowMs", .integer(Int64(Self.wrongLandingWindowMs))),
            ("by", .array(dimensions.map { .string($0.field) })),
            ("all", .object(JSONObject(metrics(all)))),
            ("groups", .array(groups.map { group, values in
                .object(JSONObject(zip(group.dimensions, group.values).map { ($0.field, text($1)) } + metrics(values)))
            })),
            ("days", .array(days.map { day, values in .object(JSONObject([("day", .string(day))] + metrics(values))) })),
            ("variantComparisons", .array(variantComparisons.map { comparison in
                .object(JSONObject([
                    ("group", .string(comparison.context)), ("baseline", text(comparison.baseline)), ("variant", text(comparison.variant)),
                ] + zip(Self.metricKeys, comparison.metrics).map { key, metric in
                    (key, metric.comparison.map { test in
                        .object(JSONObject([("test", .string(test.test.rawValue)), ("pValue", .number(test.pValue)),
                                            ("significantAt5Percent", .bool(test.isSignificant))]))
                    } ?? .null)
                }))
            })),
        ]))
    }

    /// RFC 4180 CSV: a header, then the total (scope "all") and one row per group, with each
    /// metric's count, denominator, rate and 95% interval.
    public func csv() -> String {
        var header = ["scope"] + dimensions.map(\.field) + ["sessions"]
        for key in Self.metricKeys { header += ["\(key)_count", "\(key)_of", "\(key)_rate", "\(key)_ci95_low", "\(key)_ci95_high"] }
        func decimal(_ value: Double?) -> String {
            guard let value else { return "" }
            let whole = Int((value * 10000).rounded())
            let text = String(whole)
            let padded = String(repeating: "0", count: max(0, 5 - text.count)) + text
            return String(padded.dropLast(4)) + "." + String(padded.suffix(4))
        }
        func row(_ scope: String, _ values: [String?], _ metrics: MetricCounts) -> [String] {
            var fields = [scope] + values.map { $0 ?? "" } + [String(metrics.sessions)]
            for ratio in ratios(metrics) {
                fields += [String(ratio.numerator), String(ratio.denominator), decimal(ratio.rate),
                           decimal(ratio.interval?.lower), decimal(ratio.interval?.upper)]
            }
            return fields
        }
        let rows = [header, row("all", dimensions.map { _ in nil }, all)] + groups.map { row("group", $0.group.values, $0.metrics) }
        return rows.map { $0.map(Self.csvField).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    /// A field quoted when it holds a comma, a quote or a line break; quotes doubled.
    static func csvField(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingAll("\"", with: "\"\"") + "\""
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self { if character == target { result += replacement } else { result.append(character) } }
        return result
    }
}
