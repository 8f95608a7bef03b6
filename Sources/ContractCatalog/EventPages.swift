import BridgeContracts
import JSONCore

/// The app's events in the catalog: a section of the index, and one page per event with each
/// version's payload fields, the schema's example messages and the event fixtures.
extension PageWriter {
    static func eventPage(_ event: String) -> String {
        "events/\(event).html"
    }

    /// The index section "Events (app to page)": every event a host of the contracts sends.
    func eventIndex() -> String {
        var body = "<h2 id=\"events\">Events (app to page)</h2>\n"
        body += "<p>What the app tells an open page without being asked; a page listens with <code>bridge.on(name, handler)</code>. "
        body += "The app checks each event against its schema before sending it.</p>\n"
        let rows = contracts.manifest.allEvents.map { event -> [String] in
            [
                HTML.code(event.name), HTML.escape(event.title),
                event.versions.map { "<a href=\"\(Self.eventPage(event.name))#v\($0.version)\">v\($0.version)</a>" }.joined(separator: ", "),
                event.isBuiltIn ? "built in: every app sends it" : "these contracts",
            ]
        }
        return body + HTML.table(head: ["Event", "제목 (title)", "Versions", "From"], rows: rows, className: "events")
    }

    func eventPage(_ event: BridgeEvent) -> String {
        let root = "../"
        var body = "<h1>\(HTML.escape(event.name))<span class=\"korean\">\(HTML.escape(event.title))</span></h1>\n"
        body += "<p class=\"lead\">An event the app sends to the page unasked, as <code>{\"v\":1,\"event\":\"\(HTML.escape(event.name))\",\"version\":N,\"payload\":{…}}</code>; "
        body += "a page listens with <code>bridge.on(\"\(HTML.escape(event.name))\", handler)</code>, and the handler gets the payload. "
        body += event.isBuiltIn ? "It is built into bridgekit: every app sends it, whatever the contracts.</p>\n"
            : "Versions: " + event.versions.map { "<a href=\"#v\($0.version)\">v\($0.version)</a>" }.joined(separator: ", ") + ".</p>\n"
        for contract in event.versions {
            body += versionSection(contract, builtIn: event.isBuiltIn, root: root)
        }
        return HTML.page(title: "\(event.name) (\(event.title))", root: root, footer: footer, body: body)
    }

    private func versionSection(_ contract: EventContract, builtIn: Bool, root: String) -> String {
        let schemaName = builtIn ? BuiltInEvents.schemaURI(file: contract.schema) : "schemas/" + contract.schema
        var body = "<h2 id=\"v\(contract.version)\">Version \(contract.version)</h2>\n"
        body += "<p>Checked against <code>\(HTML.escape(schemaName))</code>.</p>\n"
        body += "<h3>Payload fields</h3>\n"
        let fields = FieldTable(contracts: contracts, campaignFile: nil).rows(file: contract.schema).filter { $0.path.hasPrefix("payload.") }
        body += fields.isEmpty ? "<p class=\"note\">The payload has no declared fields.</p>\n" : fieldTable(fields, root: root)
        let examples = contracts.eventExamples(contract)
        if !examples.isEmpty {
            body += "<h3>Examples</h3>\n<p>What the app sends (the schema's examples).</p>\n"
            body += examples.map { "<pre class=\"message\">\(HTML.escape($0.serialized()))</pre>\n" }.joined()
        }
        let fixtures = contracts.eventFixtures.filter { $0.event == contract.event && $0.version == contract.version }
            .sorted { ($0.valid ? 0 : 1, $0.path) < ($1.valid ? 0 : 1, $1.path) }
        if !fixtures.isEmpty {
            body += "<h3>Contract tests</h3>\n<p>The event fixtures both teams run (<code>contracts/event-fixtures/\(HTML.escape(contract.event))/v\(contract.version)/</code>).</p>\n"
            body += fixtures.map { fixtureExample($0, version: contract.version) }.joined()
        }
        return body
    }

    private func fixtureExample(_ fixture: EventFixture, version: Int) -> String {
        let name = fixture.path.split(separator: "/").last.map(String.init) ?? fixture.path
        let id = "v\(version)-" + (name.hasSuffix(".json") ? String(name.dropLast(5)) : name)
        var text = "<div class=\"example\" id=\"\(HTML.escape(id))\">\n<h4>"
        text += (fixture.valid ? "<span class=\"tag ok\">valid</span> " : "<span class=\"tag bad\">invalid</span> ") + HTML.escape(fixture.description) + "</h4>\n"
        text += "<pre class=\"message\">\(HTML.escape(fixture.message.serialized()))</pre>\n"
        if fixture.valid {
            text += "<div class=\"answer\">The page gets it as written.</div>\n"
        } else {
            let errors = fixture.errors.map { error in
                "<li>" + HTML.code(error.instanceLocation.isEmpty ? "(the message)" : error.instanceLocation) + (error.keyword.map { " breaks " + HTML.code($0) } ?? "") + "</li>"
            }
            text += "<div class=\"answer\">The app refuses to send it, and a page validating events drops it:<ul>" + errors.joined() + "</ul></div>\n"
        }
        return text + "</div>\n"
    }
}
