import JSONCore
import BridgeContracts

/// Events to the page: every event fixture emitted (a valid one reaches the page as written, an
/// invalid one is refused with its errors and nothing posted), `navigation_completed` after a
/// parked request ends, and the places an event must never go.
enum EventCases {
    static let navigationCompleted = "navigation_completed"

    static func cases(_ fixtures: [EventFixture], picks: FixturePicks, manifest: BridgeManifest) -> (built: [ConformanceCase], unbuilt: [UnbuiltCase]) {
        guard let origin = manifest.allowedOrigins.first(where: { !$0.contains("*") }) else {
            return ([], [UnbuiltCase(name: "events", level: .events, reason: "the manifest allows no plain origin for the page")])
        }
        var built = fixtures.compactMap { fixtureCase($0, origin: origin) }
        var unbuilt: [UnbuiltCase] = []
        if let gated = picks.gated {
            built += completedCases(gated.fixture, origin: origin)
        } else {
            unbuilt.append(UnbuiltCase(name: "navigation_completed", level: .events, reason: "no fixture of a logged-out request answered pendingLogin, nor of one navigating to a route that requires login (add one)"))
        }
        if let valid = fixtures.first(where: \.valid) {
            built += placeCases(valid, origin: origin, manifest: manifest)
        } else {
            unbuilt.append(UnbuiltCase(name: "where events may go", level: .events, reason: "no valid event fixture in this contract set (add one)"))
        }
        return (built, unbuilt)
    }

    /// The emit line of an event fixture's message.
    static func emit(_ message: JSONValue) -> JSONValue? {
        guard let event = message["event"]?.stringValue, let version = message["version"]?.integerValue,
              let payload = message["payload"] else { return nil }
        return CaseLines.emit(event: event, version: Int(version), payload: payload)
    }

    static func fixtureCase(_ fixture: EventFixture, origin: String) -> ConformanceCase? {
        guard let emit = emit(fixture.message) else { return nil }
        return ConformanceCase(fixture.path, level: .events, lines: [CaseLines.page(origin: origin), emit]) { transcript in
            let posted = transcript.pageEvents
            if fixture.valid {
                guard posted.count == 1 else { return ["expected the page to get the event once, got \(posted.count) page-event lines"] }
                var fields = posted[0]
                fields["type"] = nil
                return JSONValue.object(fields) == fixture.message ? [] : ["expected the page to get \(fixture.message.serialized()), got \(JSONValue.object(fields).serialized())"]
            }
            let found = posted.isEmpty ? [] : ["expected nothing posted to the page, got \(posted.count) page-event lines"]
            guard let refusal = transcript.errors(aboutLine: 3).first else { return found + ["expected an error line refusing the emit (input line 3), got none"] }
            return found + fixture.errors.unreported(in: refusal["details"]?.arrayValue ?? [])
        }
    }

    /// A parked request's navigation_completed: navigated after login, cancelled by a logout.
    static func completedCases(_ gated: Fixture, origin: String) -> [ConformanceCase] {
        guard let id = gated.message?["id"]?.stringValue else { return [] }
        @Sendable func completed(_ transcript: HostTranscript) -> [JSONObject] {
            transcript.pageEvents.filter { $0["event"]?.stringValue == navigationCompleted }
        }
        func outcome(_ expected: String) -> @Sendable (HostTranscript) -> [String] {
            { transcript in
                let sent = completed(transcript)
                guard sent.count == 1 else { return ["expected one \(navigationCompleted) page event, got \(sent.count)"] }
                let payload = sent[0]["payload"] ?? .null
                return JSONSubset.mismatch(expected: ["requestId": .string(id), "outcome": .string(expected)], actual: payload, at: navigationCompleted).map { [$0] } ?? []
            }
        }
        let start = [CaseLines.page(origin: origin), FixturePicks.open(gated), CaseLines.message(gated.body)]
        return [
            ConformanceCase("\(navigationCompleted): navigated after login", level: .events, setup: ["loggedIn": false],
                            lines: start + [CaseLines.plain("login")], judge: outcome("navigated")),
            ConformanceCase("\(navigationCompleted): cancelled by logout", level: .events, setup: ["loggedIn": false],
                            lines: start + [CaseLines.plain("logout")], judge: outcome("cancelled_by_logout")),
        ]
    }

    /// A valid event never reaches a subframe, a foreign origin, or a build that does not send it.
    static func placeCases(_ fixture: EventFixture, origin: String, manifest: BridgeManifest) -> [ConformanceCase] {
        guard let emit = emit(fixture.message), let event = fixture.event else { return [] }
        @Sendable func refusedAt(_ transcript: HostTranscript) -> [String] {
            let posted = transcript.pageEvents.filter { $0["event"]?.stringValue == event }
            return (posted.isEmpty ? [] : ["expected \(event) not posted, got \(posted.count) page-event lines"])
                + (transcript.errors(aboutLine: 3).isEmpty ? ["expected an error line refusing the emit (input line 3), got none"] : [])
        }
        var actions = JSONObject()
        for action in manifest.actions { actions[action.name] = .array(action.versions.map { .integer(Int64($0.version)) }) }
        let silentBuild: JSONValue = ["capabilities": ["actions": .object(actions), "events": .object(JSONObject())]]
        return [
            ConformanceCase("event not posted: the page is a subframe", level: .events,
                            lines: [CaseLines.page(origin: origin, isMainFrame: false), emit], judge: refusedAt),
            ConformanceCase("event not posted: the page is at another origin", level: .events,
                            lines: [CaseLines.page(origin: "https://attacker.example"), emit], judge: refusedAt),
            ConformanceCase("event not posted: the build does not send \(event)", level: .events, setup: silentBuild,
                            lines: [CaseLines.page(origin: origin), emit], judge: refusedAt),
        ]
    }
}
