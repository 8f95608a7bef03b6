import JSONCore
import BridgeContracts

/// One case per contract fixture: the fixture's page (entry link, source, installed apps, login
/// state), its message from its origin and frame, then the reply, error code and pointers,
/// navigation and campaign, and what opened outside the app, as the fixture expects.
enum FixtureCases {
    static func cases(_ fixtures: [Fixture]) -> [ConformanceCase] {
        fixtures.map { fixture in
            var lines: [JSONValue] = []
            if !fixture.installed.isEmpty {
                lines.append(.object(JSONObject([("type", "installed"), ("apps", .array(fixture.installed.map { .string($0) }))])))
            }
            // The page opens (from its entry link, when it has one) before it posts.
            var open = JSONObject([("type", "open"), ("url", fixture.entry.map { .string($0) } ?? .null)])
            if let source = fixture.source { open["source"] = .string(source) }
            lines.append(.object(open))
            lines.append(CaseLines.message(fixture.body, origin: fixture.origin, isMainFrame: fixture.isMainFrame))
            let messageLine = ConformanceCase.lineNumber(ofLineAt: lines.count - 1)
            return ConformanceCase(fixture.path, level: .core, setup: ["loggedIn": .bool(fixture.authenticated)], lines: lines) { transcript in
                problems(fixture, transcript, messageLine: messageLine)
            }
        }
    }

    static func problems(_ fixture: Fixture, _ transcript: HostTranscript, messageLine: Int) -> [String] {
        let expect = fixture.expect
        let replies = transcript.replies(toLine: messageLine).map(ReplyLine.init(object:))
        var problems = replies.count > 1 ? ["\(replies.count) replies to one message: a request is answered once"] : []
        let reply = replies.first
        let ok = reply?.ok ?? !transcript.all("notification").contains { $0["outcome"]?.stringValue != "ok" }
        guard ok == expect.valid else {
            return problems + ["expected \(expect.valid ? "a valid" : "an invalid") message, got \(reply?.summary ?? "no reply")"]
        }
        if !expect.valid { return problems + errorProblems(expect, reply) }
        if let navigation = expect.navigation {
            if navigation == .null {
                problems += Judge.nothingNavigated(transcript, why: "the fixture expects none")
            } else if let first = transcript.navigations.first {
                problems += JSONSubset.mismatch(expected: navigation, actual: .object(first), at: "navigation").map { [$0] } ?? []
            } else {
                problems.append("expected a navigation, got none")
            }
        }
        if let external = expect.external { problems += externalProblems(external, transcript) }
        if let expectedReply = expect.reply {
            if expectedReply == .null {
                if let reply { problems.append("expected no reply, got \(JSONValue.object(reply.object).serialized())") }
            } else if let reply {
                problems += JSONSubset.mismatch(expected: expectedReply, actual: .object(reply.object), at: "reply").map { [$0] } ?? []
            } else {
                problems.append("expected a reply, got none")
            }
        }
        return problems
    }

    /// The code (INVALID_PARAMS when the fixture names none) and every expected error pointer.
    static func errorProblems(_ expect: Fixture.Expectation, _ reply: ReplyLine?) -> [String] {
        guard let reply, reply.error != nil else { return ["expected an error reply, got none"] }
        var problems: [String] = []
        let code = expect.code ?? "INVALID_PARAMS"
        if reply.code != code { problems.append("expected code \(code), got \(reply.summary)") }
        return problems + expect.errors.unreported(in: reply.details)
    }

    /// `expect.external`: the provider and target the reply names, and the URL that opened. A
    /// fallback's URL is the platform's store page, so it is compared only for an app target.
    static func externalProblems(_ expected: JSONValue, _ transcript: HostTranscript) -> [String] {
        let opened = transcript.all("external_open").filter { $0["opened"]?.boolValue == true }
        if expected == .null {
            return opened.isEmpty ? [] : ["expected nothing opened outside the app, got \(opened.map { $0["url"]?.stringValue ?? "?" })"]
        }
        let result = transcript.all("reply").first?["result"]?.objectValue
        guard let url = opened.last?["url"], let target = result?["opened"], let provider = result?["provider"] else {
            return ["expected an external open, got none"]
        }
        var actual = JSONObject([("provider", provider), ("target", target), ("url", url)])
        var wanted = expected.objectValue ?? JSONObject()
        if target != "app" {
            wanted["url"] = nil
            actual["url"] = nil
        }
        return JSONSubset.mismatch(expected: .object(wanted), actual: .object(actual), at: "external").map { [$0] } ?? []
    }
}
