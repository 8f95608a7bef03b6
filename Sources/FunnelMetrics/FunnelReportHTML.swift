/// The report as one self-contained page: inline CSS and SVG bar charts, no scripts, nothing
/// fetched. The markup is well-formed XML (XHTML syntax) so a checker can parse it.
extension FunnelReport {
    private static let barWidth = 360
    private static let labelWidth = 300
    private static let rowHeight = 26

    /// Whether a higher rate is better (all but wrong landing).
    private static let higherIsBetter = [true, false, true, true]

    private static let descriptions = [
        "Deep-link visits that showed the screen the link was for, of the visits whose target is known.",
        "Deep-link visits that showed the home screen within 10 s of the link (a landing the link did not mean).",
        "Cold-start push visits that needed a sign-in, signed in, then showed the screen they were meant for.",
        "Deep-link visits whose every funnel step carries the visit's campaign_id.",
    ]

    public func html(name: String) -> String {
        let rows: [(label: String, short: String, metrics: MetricCounts)] =
            [("all sessions", "all sessions", all)] + groups.map { ($0.group.label, chartLabel($0.group), $0.metrics) }
        var page = """
        <!DOCTYPE html>
        <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
        <head>
        <meta charset="utf-8"/>
        <meta name="viewport" content="width=device-width, initial-scale=1"/>
        <title>Funnel: \(escape(name))</title>
        <style>
        body { font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans KR", sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #1f2933; background: #fbfbfd; word-break: keep-all; overflow-wrap: anywhere; }
        svg { max-width: 100%; height: auto; }
        @media (max-width: 640px) { body { margin: 1rem auto; padding: 0 0.75rem; } table { display: block; overflow-x: auto; } }
        h1 { font-size: 1.5rem; margin-bottom: 0.25rem; }
        h2 { font-size: 1.1rem; margin: 2rem 0 0.25rem; }
        p.lead, p.note { color: #52606d; margin: 0.25rem 0; }
        section { background: #fff; border: 1px solid #e4e7eb; border-radius: 8px; padding: 0.5rem 1rem 1rem; margin-top: 1rem; }
        svg text { font-size: 13px; fill: #1f2933; }
        svg text.value { fill: #3e4c59; font-variant-numeric: tabular-nums; }
        table { border-collapse: collapse; margin-top: 1.5rem; font-size: 0.9rem; width: 100%; }
        th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid #e4e7eb; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        </style>
        </head>
        <body>
        <h1>Deep-link funnel</h1>
        <p class="lead">\(escape(name)): \(eventCount) events, \(all.sessions) deep-link sessions, \(groups.count) groups by campaign_id, source and variant.</p>

        """
        if sessionsWithoutTimes > 0 {
            page += "<p class=\"note\">\(sessionsWithoutTimes) sessions have no times: a wrong landing there is the home screen shown as the first screen.</p>\n"
        }
        for (index, title) in Self.metricTitles.enumerated() {
            page += "<section>\n<h2>\(escape(title))</h2>\n<p class=\"note\">\(escape(Self.descriptions[index]))</p>\n"
            page += chart(rows.map { ($0.short, ratios($0.metrics)[index]) }, good: Self.higherIsBetter[index], title: title)
            page += "</section>\n"
        }
        page += "<table>\n<thead><tr><th>group</th><th>sessions</th>"
        for title in Self.metricTitles { page += "<th>\(escape(title))</th>" }
        page += "</tr></thead>\n<tbody>\n"
        for row in rows {
            page += "<tr><td>\(escape(row.label))</td><td class=\"n\">\(row.metrics.sessions)</td>"
            for ratio in ratios(row.metrics) {
                page += "<td class=\"n\">\(ratio.numerator)/\(ratio.denominator) (\(ratio.percent))</td>"
            }
            page += "</tr>\n"
        }
        page += "</tbody>\n</table>\n</body>\n</html>\n"
        return page
    }

    private func chart(_ bars: [(label: String, ratio: Ratio)], good: Bool, title: String) -> String {
        let width = Self.labelWidth + Self.barWidth + 130
        let height = bars.count * Self.rowHeight + 8
        let colour = good ? "#3f8f5b" : "#d9624a"
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        svg += "<title>\(escape(title))</title>\n"
        for (row, bar) in bars.enumerated() {
            let y = 4 + row * Self.rowHeight
            let filled = Int(((bar.ratio.rate ?? 0) * Double(Self.barWidth)).rounded())
            svg += "<text x=\"0\" y=\"\(y + 17)\">\(escape(bar.label))</text>"
            svg += "<rect x=\"\(Self.labelWidth)\" y=\"\(y + 4)\" width=\"\(Self.barWidth)\" height=\"16\" rx=\"3\" fill=\"#e9edf2\"/>"
            svg += "<rect x=\"\(Self.labelWidth)\" y=\"\(y + 4)\" width=\"\(filled)\" height=\"16\" rx=\"3\" fill=\"\(colour)\"/>"
            svg += "<text class=\"value\" x=\"\(Self.labelWidth + Self.barWidth + 8)\" y=\"\(y + 17)\">\(bar.ratio.percent) (\(bar.ratio.numerator)/\(bar.ratio.denominator))</text>\n"
        }
        return svg + "</svg>\n"
    }

    /// "campaign · source · variant" for a chart row (the table names the fields); a long campaign_id
    /// keeps its start and end so source and variant always show.
    private func chartLabel(_ group: FunnelGroup) -> String {
        let rest = " · \(group.source ?? "(none)") · \(group.variant ?? "(none)")"
        var campaign = group.campaignID ?? "(none)"
        let room = max(12, 40 - rest.count)
        if campaign.count > room { campaign = String(campaign.prefix(room - 7)) + "…" + String(campaign.suffix(6)) }
        return campaign + rest
    }

    private func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
