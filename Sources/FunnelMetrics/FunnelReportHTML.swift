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
        span.ci { color: #52606d; font-size: 0.8rem; }
        svg.time-axis text.day { font-size: 11px; }
        </style>
        </head>
        <body>
        <h1>Deep-link funnel</h1>
        <p class="lead">\(escape(headline(name: name))); \(groups.count) groups by \(escape(dimensions.map(\.field).joined(separator: ", "))).</p>

        """
        for note in readingNotes { page += "<p class=\"note\">\(escape(note))</p>\n" }
        for (index, title) in Self.metricTitles.enumerated() {
            page += "<section>\n<h2>\(escape(title))</h2>\n<p class=\"note\">\(escape(Self.descriptions[index]))</p>\n"
            page += chart(rows.map { ($0.short, ratios($0.metrics)[index]) }, good: Self.higherIsBetter[index], title: title)
            page += "</section>\n"
        }
        page += table(rows.map { ($0.label, $0.metrics) }, first: "group")
        page += comparisonsSection()
        page += timeAxis()
        page += "</body>\n</html>\n"
        return page
    }

    /// Each metric's count, rate and 95% interval, with the notes the text output gives.
    private func table(_ rows: [(label: String, metrics: MetricCounts)], first: String) -> String {
        var html = "<table>\n<thead><tr><th>\(escape(first))</th><th>sessions</th>"
        for title in Self.metricTitles { html += "<th>\(escape(title))</th>" }
        html += "</tr></thead>\n<tbody>\n"
        for row in rows {
            html += "<tr><td>\(escape(row.label))</td><td class=\"n\">\(row.metrics.sessions)</td>"
            for (ratio, note) in zip(ratios(row.metrics), notes(row.metrics)) {
                html += "<td class=\"n\">\(ratio.numerator)/\(ratio.denominator) (\(ratio.percent))"
                if let interval = ratio.interval { html += "<br/><span class=\"ci\">95% CI \(interval.percentRange)</span>" }
                if !note.isEmpty { html += "<br/><span class=\"ci\">\(escape(note))</span>" }
                html += "</td>"
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n"
    }

    private func comparisonsSection() -> String {
        let comparisons = variantComparisons
        guard !comparisons.isEmpty else { return "" }
        var html = "<section class=\"comparisons\">\n<h2>Variants compared</h2>\n"
        html += "<p class=\"note\">Each variant against the first of its group: the p-value of the difference (two-proportion z-test; Fisher's exact test when an expected count is under 5).</p>\n<ul>\n"
        for comparison in comparisons {
            let context = comparison.context.isEmpty ? "" : comparison.context + ": "
            for (index, metric) in comparison.metrics.enumerated() {
                guard let test = metric.comparison else { continue }
                let line = "\(context)variant \(comparison.variant ?? "(none)") against \(comparison.baseline ?? "(none)"), "
                    + "\(Self.metricTitles[index]) \(metric.variant.percent) vs \(metric.baseline.percent): \(test.summary) (\(test.test.rawValue))"
                html += "<li>\(escape(line))</li>\n"
            }
        }
        return html + "</ul>\n</section>\n"
    }

    /// Per UTC day of the visits' entries: each metric's rate as a line over the days, and a table.
    private func timeAxis() -> String {
        guard !days.isEmpty else { return "" }
        let width = 720, height = 220, left = 44, right = 16, top = 12, bottom = 40
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let colours = ["#3f8f5b", "#d9624a", "#3a6ea5", "#8a5fb0"]
        func x(_ index: Int) -> Int { days.count == 1 ? left + plotWidth / 2 : left + index * plotWidth / (days.count - 1) }
        func y(_ rate: Double) -> Int { top + Int(((1 - rate) * Double(plotHeight)).rounded()) }
        var html = "<section class=\"days\">\n<h2>By day (UTC)</h2>\n"
        html += "<p class=\"note\">Each metric's rate per day of the visits' deep links, in UTC; visits without a time are in no day.</p>\n"
        html += "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" class=\"time-axis\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\">\n"
        html += "<title>rates per day (UTC)</title>\n"
        for tick in [0.0, 0.5, 1.0] {
            html += "<line x1=\"\(left)\" y1=\"\(y(tick))\" x2=\"\(width - right)\" y2=\"\(y(tick))\" stroke=\"#e4e7eb\"/>"
            html += "<text x=\"0\" y=\"\(y(tick) + 4)\">\(Int(tick * 100))%</text>\n"
        }
        let step = max(1, days.count / 6)
        for (index, day) in days.enumerated() where index % step == 0 || index == days.count - 1 {
            html += "<text class=\"day\" x=\"\(x(index) - 34)\" y=\"\(height - 14)\">\(escape(day.day))</text>\n"
        }
        for metric in 0..<4 {
            let points = days.enumerated().compactMap { index, day in
                ratios(day.metrics)[metric].rate.map { "\(x(index)),\(y($0))" }
            }
            guard !points.isEmpty else { continue }
            html += "<polyline fill=\"none\" stroke=\"\(colours[metric])\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\">"
            html += "<title>\(escape(Self.metricTitles[metric]))</title></polyline>\n"
        }
        html += "</svg>\n<p class=\"legend\">"
        html += (0..<4).map { "<span style=\"color: \(colours[$0])\">■</span> \(escape(Self.metricTitles[$0]))" }.joined(separator: " · ")
        html += "</p>\n"
        html += table(days.map { ($0.day, $0.metrics) }, first: "day (UTC)")
        return html + "</section>\n"
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
        let values = group.values.map { $0 ?? "(none)" }
        guard let head = values.first else { return "all sessions" }
        let rest = values.dropFirst().map { " · " + $0 }.joined()
        var first = head
        let room = max(12, 40 - rest.count)
        if first.count > room { first = String(first.prefix(room - 7)) + "…" + String(first.suffix(6)) }
        return first + rest
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
