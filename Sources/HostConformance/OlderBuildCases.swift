import JSONCore
import BridgeContracts

/// An older app build, as the hello line's capabilities describe it: the newest version of one
/// action left out (UNSUPPORTED_VERSION, naming the versions it takes), one action left out
/// entirely (UNKNOWN_ACTION), and the capabilities request answering with exactly that build.
enum OlderBuildCases {
    static let name = "an older build's capabilities"

    static func cases(_ picks: FixturePicks, manifest: BridgeManifest) -> (built: [ConformanceCase], unbuilt: [UnbuiltCase]) {
        var built: [ConformanceCase] = []
        // The newest version of an action that has an older one, with requests of both at hand.
        let versioned = manifest.actions.compactMap { action -> (String, Int, [Int], Fixture, Fixture)? in
            let versions = action.versions.map(\.version).sorted()
            guard versions.count >= 2, let newest = versions.last, let older = versions.dropLast().last,
                  let newFixture = picks.request(action.name, version: newest),
                  let oldFixture = picks.request(action.name, version: older) else { return nil }
            return (action.name, newest, Array(versions.dropLast()), newFixture, oldFixture)
        }.first
        if let (action, newest, kept, newFixture, oldFixture) = versioned {
            let setup = setup(manifest) { name, versions in name == action ? versions.filter { $0 != newest } : versions }
            built.append(ConformanceCase("\(name): \(action) v\(newest) is not in the build", level: .navigation, setup: setup,
                                         lines: [CaseLines.message(newFixture.body), CaseLines.message(oldFixture.body)]) { transcript in
                var found = Judge.refused(transcript, line: 2, what: "\(action) v\(newest)", code: "UNSUPPORTED_VERSION")
                let supported = transcript.replies(toLine: 2).first.flatMap { ReplyLine(object: $0).details.first?["supportedVersions"] }
                let expected = JSONValue.array(kept.map { .integer(Int64($0)) })
                if supported != expected {
                    found.append("expected the refusal's details to name supportedVersions \(expected.serialized()), got \(supported?.serialized() ?? "none")")
                }
                return found + Judge.accepted(transcript, line: 3, what: "\(action) v\(kept.last ?? 0), which the build takes")
            })
        }
        // An action the build lacks altogether (the last one with a request at hand).
        let lacking = manifest.actions.reversed().compactMap { action in
            action.versions.lazy.compactMap { picks.request(action.name, version: $0.version) }.first.map { (action.name, $0) }
        }.first
        if let (action, fixture) = lacking, manifest.actions.count >= 2 {
            let setup = setup(manifest) { name, versions in name == action ? [] : versions }
            let capabilities = capabilitiesRequest(id: "verify-capabilities-0001")
            built.append(ConformanceCase("\(name): \(action) is not in the build", level: .navigation, setup: setup,
                                         lines: [CaseLines.message(fixture.body), CaseLines.message(capabilities)]) { transcript in
                var found = Judge.refused(transcript, line: 2, what: "\(action), which the build lacks", code: "UNKNOWN_ACTION")
                let (reply, problems) = Judge.oneReply(transcript, line: 3, what: "the capabilities request")
                found += problems
                if let reply {
                    let expected = setup["capabilities"]?["actions"] ?? .null
                    if reply.result?["actions"] != expected {
                        found.append("expected the capabilities request to answer actions \(expected.serialized()), got \(reply.result?["actions"]?.serialized() ?? reply.summary)")
                    }
                }
                return found
            })
        }
        let unbuilt = built.isEmpty
            ? [UnbuiltCase(name: name, level: .navigation, reason: "needs two actions, or an action with two versions, each with a logged-in request fixture")]
            : []
        return (built, unbuilt)
    }

    /// A setup whose capabilities take what `keep` leaves of every action's versions.
    static func setup(_ manifest: BridgeManifest, keep: (String, [Int]) -> [Int]) -> JSONValue {
        var actions = JSONObject()
        for action in manifest.actions {
            let versions = keep(action.name, action.versions.map(\.version).sorted())
            if !versions.isEmpty { actions[action.name] = .array(versions.map { .integer(Int64($0)) }) }
        }
        return ["loggedIn": true, "capabilities": ["actions": .object(actions)]]
    }

    static func capabilitiesRequest(id: String) -> JSONValue {
        .object(JSONObject([("v", 1), ("id", .string(id)), ("action", .string(BridgeManifest.capabilitiesRequestAction)), ("version", 1), ("payload", .object(JSONObject()))]))
    }
}
