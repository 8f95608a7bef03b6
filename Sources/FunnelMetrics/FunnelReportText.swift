import JSONCore

/// The report for people at a terminal, and as JSON for programs.
extension FunnelReport {
    /// The metric rows, in the order every output shows them.
    public static let metricTitles = [
        "target-screen reach", "wrong landing (home <= 10 s)", "cold-start consumption", "campaign_id at every step",
    ]

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

    /// Lines of plain text; `name` is the log's name as the person gave it.
    public func text(name: String) -> String {
        let sessions = all.sessions
        var lines: [String] = []
        var input: [String] = []
        if summary.hostLines > 0 { input.append("\(summary.hostLines) host lines, \(summary.skippedLines) of them neither events nor funnel facts") }
        if summary.exportLines > 0 { input.append("\(summary.exportLines) export lines") }
        lines.append("\(name): \(eventCount) events, \(sessions) deep-link session\(sessions == 1 ? "" : "s")"
            + (input.isEmpty ? "" : " (\(input.joined(separator: ", ")))"))
        if eventsOutsideSessions > 0 {
            lines.append("\(eventsOutsideSessions) event\(eventsOutsideSessions == 1 ? "" : "s") before a person's first deep link (in no session)")
        }
        if sessionsWithoutTimes > 0 {
            lines.append("\(sessionsWithoutTimes) session\(sessionsWithoutTimes == 1 ? "" : "s") without times: a wrong landing there is home shown as the first screen")
        }
        let width = Self.metricTitles.map(\.count).max()!
        let countWidth = ([all] + groups.map(\.metrics)).flatMap(ratios).map { "\($0.numerator)/\($0.denominator)".count }.max() ?? 3
        func block(_ title: String, _ metrics: MetricCounts) {
            lines.append("")
            lines.append("\(title): \(metrics.sessions) session\(metrics.sessions == 1 ? "" : "s")")
            for (index, (ratio, note)) in zip(ratios(metrics), notes(metrics)).enumerated() {
                let count = "\(ratio.numerator)/\(ratio.denominator)"
                var line = "  " + Self.metricTitles[index].padded(width) + "  " + count.padded(countWidth) + "  " + ratio.percent.leftPadded(6)
                if !note.isEmpty { line += "   " + note }
                lines.append(line)
            }
        }
        block("all", all)
        for (group, metrics) in groups { block(group.label, metrics) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as JSON: one object per group with each metric's numerator, denominator and rate.
    public func json(name: String) -> JSONValue {
        func ratio(_ ratio: Ratio) -> JSONValue {
            .object(JSONObject([
                ("numerator", .integer(Int64(ratio.numerator))), ("denominator", .integer(Int64(ratio.denominator))),
                ("rate", ratio.rate.map { .number(($0 * 10000).rounded() / 10000) } ?? .null),
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
            ("eventsOutsideSessions", .integer(Int64(eventsOutsideSessions))),
            ("sessionsWithoutTimes", .integer(Int64(sessionsWithoutTimes))),
            ("wrongLandingWindowMs", .integer(Int64(Self.wrongLandingWindowMs))),
            ("all", .object(JSONObject(metrics(all)))),
            ("groups", .array(groups.map { group, values in
                .object(JSONObject([
                    ("campaign_id", text(group.campaignID)), ("source", text(group.source)), ("variant", text(group.variant)),
                ] + metrics(values)))
            })),
        ]))
    }
}

extension String {
    func padded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
