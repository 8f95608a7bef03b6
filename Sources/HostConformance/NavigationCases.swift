import JSONCore
import BridgeContracts

/// The shared navigator's promises, each from a fixture that shows the starting point.
enum NavigationCases {
    static func cases(_ picks: FixturePicks, manifest: BridgeManifest) -> (built: [ConformanceCase], unbuilt: [UnbuiltCase]) {
        var built: [ConformanceCase] = []
        var unbuilt: [UnbuiltCase] = []
        func need(_ name: String, _ fixture: Fixture?, _ kind: String, _ make: (Fixture) -> [ConformanceCase]) {
            if let fixture { built += make(fixture) } else {
                unbuilt.append(UnbuiltCase(name: name, level: .navigation, reason: "no fixture of \(kind) in this contract set (add one)"))
            }
        }
        if let gated = picks.gated {
            built += [loginGate(gated), logoutWhilePending(gated.fixture)]
        } else {
            unbuilt.append(UnbuiltCase(name: "login gate: logged out, then login", level: .navigation,
                                       reason: "no fixture of a logged-out request answered pendingLogin, nor of one navigating to a route that requires login (add one)"))
        }
        need("cold start, then ready", picks.navigating, "a logged-in request that navigates") { [coldStart($0), coldStartWithoutReady($0)] }
        need("duplicate inside the window", picks.navigating, "a logged-in request that navigates") { duplicates($0) }
        need("campaign on every analytics event", picks.campaigned, "a request opened from an entry link with a campaign") { [campaignEverywhere($0)] }
        let older = OlderBuildCases.cases(picks, manifest: manifest)
        built += older.built
        unbuilt += older.unbuilt
        return (built, unbuilt)
    }

    static func loginGate(_ gated: FixturePicks.Gated) -> ConformanceCase {
        let fixture = gated.fixture
        return ConformanceCase("login gate: logged out, then login", level: .navigation, setup: ["loggedIn": false],
                        lines: [FixturePicks.open(fixture), CaseLines.message(fixture.body), CaseLines.plain("login")]) { transcript in
            let (reply, problems) = Judge.oneReply(transcript, line: 3, what: "the logged-out request")
            var found = problems
            if let reply, reply.result?["pendingLogin"] != true {
                found.append("expected the reply to say pendingLogin: true before login, got \(reply.summary == "ok" ? (reply.result ?? .null).serialized() : reply.summary)")
            }
            guard let presented = transcript.position(ofFirst: "login_presented") else {
                return found + ["expected a login_presented line (the app shows its login), got none"]
            }
            found += Judge.navigatedOnce(transcript, expected: gated.route.map { ["route": $0] })
            if let navigated = transcript.position(ofFirst: "navigation"), navigated < presented {
                found.append("navigated before the login was presented")
            }
            return found
        }
    }

    static func logoutWhilePending(_ fixture: Fixture) -> ConformanceCase {
        ConformanceCase("logout while a navigation is pending", level: .navigation, setup: ["loggedIn": false],
                        lines: [FixturePicks.open(fixture), CaseLines.message(fixture.body), CaseLines.plain("logout"), CaseLines.plain("login")]) { transcript in
            Judge.accepted(transcript, line: 3, what: "the logged-out request")
                + Judge.nothingNavigated(transcript, why: "the logout dropped the pending navigation; a later login must not bring it back")
        }
    }

    static func coldStart(_ fixture: Fixture) -> ConformanceCase {
        ConformanceCase("cold start, then ready", level: .navigation, setup: ["loggedIn": true, "appState": "coldStart"],
                        lines: [FixturePicks.open(fixture), CaseLines.message(fixture.body), CaseLines.plain("ready")]) { transcript in
            let (reply, problems) = Judge.oneReply(transcript, line: 3, what: "the request at cold start")
            var found = problems
            if let reply, reply.result?["waitingForReady"] != true {
                found.append("expected the reply to say waitingForReady: true, got \(reply.summary == "ok" ? (reply.result ?? .null).serialized() : reply.summary)")
            }
            return found + Judge.navigatedOnce(transcript, expected: fixture.expect.navigation)
        }
    }

    static func coldStartWithoutReady(_ fixture: Fixture) -> ConformanceCase {
        ConformanceCase("cold start: nothing navigates before ready", level: .navigation, setup: ["loggedIn": true, "appState": "coldStart"],
                        lines: [FixturePicks.open(fixture), CaseLines.message(fixture.body)]) { transcript in
            Judge.accepted(transcript, line: 3, what: "the request at cold start")
                + Judge.nothingNavigated(transcript, why: "the app never became ready")
        }
    }

    /// The same destination twice inside the window (a second id), and the same id twice.
    static func duplicates(_ fixture: Fixture) -> [ConformanceCase] {
        guard let message = fixture.message, let id = message["id"]?.stringValue else { return [] }
        let second = CaseLines.withID(message, String((id + "-2").suffix(64)))
        return [
            ConformanceCase("duplicate inside the window: the same destination again", level: .navigation, setup: ["loggedIn": true],
                            lines: [FixturePicks.open(fixture), CaseLines.message(message), CaseLines.message(second)]) { transcript in
                Judge.accepted(transcript, line: 3, what: "the first request")
                    + Judge.refused(transcript, line: 4, what: "the second request for the same destination", code: "DUPLICATE")
                    + Judge.navigatedOnce(transcript, expected: nil)
            },
            ConformanceCase("duplicate inside the window: the same request id again", level: .navigation, setup: ["loggedIn": true],
                            lines: [FixturePicks.open(fixture), CaseLines.message(message), CaseLines.message(message)]) { transcript in
                Judge.accepted(transcript, line: 3, what: "the first request")
                    + Judge.refused(transcript, line: 4, what: "the same request posted again", code: "DUPLICATE", id: id)
                    + Judge.navigatedOnce(transcript, expected: nil)
            },
        ]
    }

    /// The entry link's campaign on the navigation and on every analytics event after the page opened.
    static func campaignEverywhere(_ fixture: Fixture) -> ConformanceCase {
        let campaign = fixture.expect.navigation?["campaign"] ?? .null
        return ConformanceCase("campaign on every analytics event", level: .navigation, setup: ["loggedIn": true],
                               lines: [FixturePicks.open(fixture), CaseLines.message(fixture.body)]) { transcript in
            var found = Judge.navigatedOnce(transcript, expected: ["campaign": campaign])
            let events = transcript.all("event")
            if events.isEmpty { found.append("expected analytics event lines (type \"event\"), got none") }
            for event in events {
                let name = event["name"]?.stringValue ?? "?"
                if let mismatch = JSONSubset.mismatch(expected: campaign, actual: event["properties"] ?? .null, at: "event \(name)/properties") {
                    found.append(mismatch)
                }
            }
            return found
        }
    }
}
