import BridgeContracts
import BridgeHost
import BridgeHostTesting
import JSONCore
import Testing
import TestSupport

/// Messages from subframes: refused unless the manifest, or the action version itself, allows
/// frames; a version's own `allowFrames` wins over the manifest's.
@Suite("Frames: the manifest's allowFrames and each version's own") @MainActor
struct FramePolicyTests {
    /// A host of the example contracts with `allowFrames` set in the manifest and on apply's versions.
    func host(manifest: Bool?, applyV1: Bool? = nil, applyV2: Bool? = nil) throws -> MockBridgeHost {
        var files = try ExampleContracts.files()
        guard case .object(var root) = try JSONValue(parsing: files["manifest.json"]!),
              case .object(var actions)? = root["actions"], case .object(var apply)? = actions["apply"],
              case .object(var versions)? = apply["versions"], case .object(var v1)? = versions["1"], case .object(var v2)? = versions["2"] else {
            Issue.record("the example manifest has apply v1 and v2")
            throw ContractError(file: "manifest.json", pointer: "/actions/apply", message: "missing")
        }
        root["allowFrames"] = manifest.map(JSONValue.bool)
        v1["allowFrames"] = applyV1.map(JSONValue.bool)
        v2["allowFrames"] = applyV2.map(JSONValue.bool)
        versions["1"] = .object(v1)
        versions["2"] = .object(v2)
        apply["versions"] = .object(versions)
        actions["apply"] = .object(apply)
        root["actions"] = .object(actions)
        files["manifest.json"] = JSONValue.object(root).prettyPrinted()
        return try MockBridgeHost(contracts: try ContractSet(files: files, origin: "frames"))
    }

    static let applyV2 = message(version: 2, payload: ["slug": "new-user-promo", "plan": "premium"])

    @Test func withoutAnyVersionAllowingFramesASubframeIsRefusedBeforeTheAction() throws {
        for manifest in [false, nil] as [Bool?] {
            let host = try host(manifest: manifest)
            let reply = try #require(host.receive(message(), isMainFrame: false))
            #expect(reply.error?.code == .originRejected)
            #expect(reply.error?.message == "messages from subframes are not accepted (main frame only)")
            #expect(host.receive(message(id: "req-00000002"))?.result?.route == "applyForm", "the main frame is accepted")
        }
    }

    @Test func aVersionThatAllowsFramesTakesASubframeAndTheOthersStillRefuseIt() throws {
        let host = try host(manifest: false, applyV1: true)
        #expect(host.receive(message(), isMainFrame: false)?.result?.route == "applyForm")
        let v2 = try #require(host.receive(Self.applyV2, isMainFrame: false))
        #expect(v2.error?.code == .originRejected)
        #expect(v2.error?.message == "apply v2 accepts messages from the main frame only")
        let start = try #require(host.receive(message("start", id: "req-00000003", payload: [:]), isMainFrame: false))
        #expect(start.error?.message == "start v1 accepts messages from the main frame only")
    }

    /// The manifest's allowFrames is each version's default; a version may still refuse frames.
    @Test func theManifestsAllowFramesIsTheDefaultAVersionMayOverride() throws {
        let host = try host(manifest: true, applyV2: false)
        #expect(host.receive(message(), isMainFrame: false)?.result?.route == "applyForm")
        #expect(host.receive(Self.applyV2, isMainFrame: false)?.error?.message == "apply v2 accepts messages from the main frame only")
    }
}
