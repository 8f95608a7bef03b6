import Foundation
import Testing
import TestSupport
import JSONCore
import SchemaCheck
@testable import BridgeCLI

/// `--release` on host and simulate, and `bridgectl capabilities`, through the binary's entry point.
@Suite @MainActor final class CapabilitiesCLITests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("capabilities") }
    deinit { testFolder.remove() }

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    static let applyV2 = #"{"type":"message","body":{"v":1,"id":"req-00000001","action":"apply","version":2,"payload":{"slug":"a","plan":"basic"}}}"#
    static let applyV1 = #"{"type":"message","body":{"v":1,"id":"req-00000002","action":"apply","version":1,"payload":{"slug":"a"}}}"#

    func replies(_ output: String) throws -> [JSONValue] {
        try output.split(separator: "\n").map { try JSONDocument(String($0), limits: .unlimited).value }.filter { $0["type"] == "reply" }
    }

    @Test func hostAsABuildWithApplyV1OnlyTakesV1AndNamesItForV2() throws {
        let result = run(["host", "--stdio", "--release", "ios@5.12.0"], input: Self.applyV2 + "\n" + Self.applyV1 + "\n")
        #expect(result.code == 0, "\(result.err)")
        let answers = try replies(result.out)
        #expect(answers.count == 2)
        #expect(answers[0].value(at: "/error/code") == "UNSUPPORTED_VERSION")
        #expect(answers[0].value(at: "/error/details/0/supportedVersions") == [1])
        #expect(answers[1]["ok"] == true)
        let current = try replies(run(["host", "--stdio", "--release", "android@5.13.1"], input: Self.applyV2 + "\n").out)
        #expect(current.first?["ok"] == true)
    }

    @Test func simulateAsABuild() throws {
        let file = testFolder.url("apply-v2-\(UUID().uuidString).json").path
        try #require(FileManager.default.createFile(atPath: file, contents: Data(#"{"v":1,"id":"req-00000001","action":"apply","version":2,"payload":{"slug":"a","plan":"basic"}}"#.utf8)))
        let old = run(["simulate", file, "--release", "android@5.12.3"])
        #expect(old.code == 1)
        #expect(old.out.hasPrefix("reply: error UNSUPPORTED_VERSION: apply has no version 2 here (supported versions: 1)\n"))
        #expect(run(["simulate", file, "--release", "ios@5.13.0"]).code == 0)
    }

    @Test(arguments: [
        (["host", "--stdio", "--release", "ios@5.1.0"], "bridgectl host: --release ios@5.1.0: ios@5.1.0 is not in releases.json (releases: ios@5.9.0, ios@5.12.0, ios@5.13.0, android@5.9.4, android@5.12.3, android@5.13.1)\n"),
        (["simulate", "-", "--release", "web@1.0.0"], "bridgectl simulate: --release web@1.0.0: unknown platform \"web\" (platforms: ios, android)\n"),
        (["capabilities", "--release", "ios-5.12.0"], "bridgectl capabilities: --release ios-5.12.0: \"ios-5.12.0\" is not PLATFORM@VERSION (e.g. ios@5.13.0)\n"),
    ])
    func anUnknownReleaseIsAUsageError(arguments: [String], message: String) {
        let result = run(arguments, input: "{}")
        #expect(result.code == 2)
        #expect(result.err == message)
    }

    @Test func capabilitiesPrintsTheManifestAndTheScript() {
        #expect(run(["capabilities", "--release", "ios@5.12.0"]).out
            == #"{"bridge":"sendyBridge","envelope":1,"app":{"platform":"ios","version":"5.12.0"},"actions":{"apply":[1],"view_vehicles":[1],"start":[1]}}"# + "\n")
        let script = run(["capabilities", "--release", "ios@5.12.0", "--script"]).out
        #expect(script.hasPrefix("// capabilities.js: the document-start script"))
        #expect(script.contains(#"})(this, "sendyBridgeCapabilities", {"bridge":"sendyBridge""#))
    }
}
