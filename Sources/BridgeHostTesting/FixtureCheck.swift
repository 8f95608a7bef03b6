import JSONCore
import BridgeContracts
import BridgeHost
import DeeplinkNavigation

/// Checks a contract fixture's expectations against what the mock host did. Shared by the Swift
/// fixture tests and available to `bridgectl check`.
///
/// - `valid` must equal the reply's `ok` (a notification, with no reply, counts as ok when it
///   navigated or was recorded without error).
/// - invalid: the reply's code (INVALID_PARAMS when the fixture names none), and every expected
///   error (instanceLocation, plus keyword when given) among the reply's details.
/// - valid: `navigation` null means nothing was navigated; an object must be a subset of the first
///   navigation record; `reply` (null: no reply) must be a subset of the reply.
///   "Subset": every member the expectation names is present and matches, recursively for objects;
///   arrays and scalars compare exactly.
@MainActor
public enum FixtureCheck {
    public static func problems(_ fixture: Fixture, outcome: ScenarioOutcome) -> [String] {
        var problems: [String] = []
        let expect = fixture.expect
        let reply = outcome.reply
        let ok: Bool
        if let reply {
            ok = reply.ok
        } else {
            ok = !outcome.host.records.contains {
                if case .notification(_, _, let result) = $0 { return result != "ok" }
                return false
            }
        }
        if ok != expect.valid {
            let got = reply.map { $0.error.map { "error \($0.code.rawValue): \($0.message)" } ?? "ok" } ?? "no reply"
            problems.append("expected \(expect.valid ? "a valid" : "an invalid") message, got \(got)")
            return problems
        }
        if !expect.valid {
            guard let error = reply?.error else {
                problems.append("expected an error reply, got none")
                return problems
            }
            let code = expect.code ?? BridgeErrorCode.invalidParams.rawValue
            if error.code.rawValue != code {
                problems.append("expected code \(code), got \(error.code.rawValue): \(error.message)")
            }
            return problems + expect.errors.unreported(in: error.details)
        }
        if let navigation = expect.navigation {
            if navigation == .null {
                if !outcome.host.navigations.isEmpty {
                    problems.append("expected no navigation, got \(outcome.host.navigations.map(\.route))")
                }
            } else if let first = outcome.host.navigations.first {
                if let mismatch = subsetMismatch(expected: navigation, actual: first.json, at: "navigation") {
                    problems.append(mismatch)
                }
            } else {
                problems.append("expected a navigation, got none")
            }
        }
        if let external = expect.external {
            problems += externalProblems(expected: external, host: outcome.host)
        }
        if let expectedReply = expect.reply {
            if expectedReply == .null {
                if let reply { problems.append("expected no reply, got \(reply.json.serialized())") }
            } else if let reply {
                if let mismatch = subsetMismatch(expected: expectedReply, actual: reply.json, at: "reply") {
                    problems.append(mismatch)
                }
            } else {
                problems.append("expected a reply, got none")
            }
        }
        return problems
    }

    /// `expect.external`: null means nothing opened; an object names the provider, the target
    /// (app or fallback) and the URL that opened.
    static func externalProblems(expected: JSONValue, host: MockBridgeHost) -> [String] {
        let outcomes = host.records.compactMap { record -> ExternalOpenOutcome? in
            if case .envelope(_, _, .opened(let outcome)) = record { return outcome }
            return nil
        }
        let opened = host.externalOpens.filter(\.opened)
        if expected == .null {
            return outcomes.isEmpty && opened.isEmpty ? [] : ["expected nothing opened outside the app, got \(opened.map(\.url))"]
        }
        guard let outcome = outcomes.first, let url = opened.last?.url else {
            return ["expected an external open, got none (opens asked for: \(host.externalOpens.map(\.url)))"]
        }
        let actual: JSONValue = ["provider": .string(outcome.provider), "target": .string(outcome.target), "url": .string(url)]
        return subsetMismatch(expected: expected, actual: actual, at: "external").map { [$0] } ?? []
    }

    /// nil when `expected` is a subset of `actual`, else where they differ.
    nonisolated public static func subsetMismatch(expected: JSONValue, actual: JSONValue, at path: String) -> String? {
        JSONSubset.mismatch(expected: expected, actual: actual, at: path)
    }
}
