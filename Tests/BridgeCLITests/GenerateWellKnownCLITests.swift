import BridgeCLI
import Foundation
import JSONCore
import Testing
import TestSupport

/// `bridgectl generate aasa|assetlinks`: printed, written, checked, and refused without the app
/// it is for.
@Suite @MainActor struct GenerateWellKnownCLITests {
    private static let contracts = ExampleContracts.path

    private func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    private func committed(_ name: String) throws -> String {
        try String(contentsOfFile: Self.contracts + "/well-known/" + name, encoding: .utf8)
    }

    @Test(arguments: [("aasa", "apple-app-site-association.json"), ("assetlinks", "assetlinks.json")])
    func eachFileIsPrintedAsCommittedAndCheckedCurrent(_ target: String, _ name: String) throws {
        let printed = run(["generate", target, "--contracts", Self.contracts])
        #expect(printed.code == 0, "\(printed.err)")
        #expect(printed.out == (try committed(name)))
        let dash = run(["generate", target, "--contracts", Self.contracts, "--out", "-"])
        #expect(dash.out == printed.out)
        let path = Self.contracts + "/well-known/" + name
        let check = run(["generate", target, "--contracts", Self.contracts, "--check", "--out", path])
        #expect(check.code == 0 && check.out == "\(path): current\n", "\(check.out)\(check.err)")
    }

    @Test func aFileIsWrittenOnceThenCurrentAndAStaleOrMissingOneFailsTheCheck() throws {
        let folder = try TemporaryFolder("well-known")
        defer { folder.remove() }
        let path = folder.url("aasa.json").path
        let missing = run(["generate", "aasa", "--contracts", Self.contracts, "--check", "--out", path])
        #expect(missing.code == 1)
        #expect(missing.out == "\(path): missing\nregenerate with: bridgectl generate aasa --contracts \(Self.contracts) --out \(path)\n", "\(missing.out)")
        let written = run(["generate", "aasa", "--contracts", Self.contracts, "--out", path])
        #expect(written.code == 0 && written.out == "wrote \(path)\n", "\(written.out)\(written.err)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == (try committed("apple-app-site-association.json")))
        let again = run(["generate", "aasa", "--contracts", Self.contracts, "--out", path])
        #expect(again.code == 0 && again.out == "\(path): already current\n")
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: path))
        let stale = run(["generate", "aasa", "--contracts", Self.contracts, "--check", "--out", path])
        #expect(stale.code == 1)
        #expect(stale.out.hasPrefix("\(path): stale (differs from what the contracts generate)\n"), "\(stale.out)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "{}\n", "--check writes nothing")
    }

    @Test func misusedOptionsAreUsageErrors() {
        let check = run(["generate", "aasa", "--contracts", Self.contracts, "--check"])
        #expect(check.code == 2 && check.err.contains("--check needs --out FILE, the file to compare"), "\(check.err)")
        let runtime = run(["generate", "assetlinks", "--contracts", Self.contracts, "--update-runtime"])
        #expect(runtime.code == 2 && runtime.err.contains("--update-runtime goes with generate js"), "\(runtime.err)")
    }

    /// Without the app a file is for, there is nothing to generate: each refusal names what is missing.
    @Test func aManifestWithoutTheAppIsRefused() throws {
        let folder = try TemporaryFolder("well-known-apps")
        defer { folder.remove() }
        let copy = folder.url("contracts")
        try FileManager.default.copyItem(atPath: Self.contracts, toPath: copy.path)
        let manifestPath = copy.appendingPathComponent("manifest.json").path
        guard case .object(var manifest) = try JSONValue(parsing: try String(contentsOfFile: manifestPath, encoding: .utf8)),
              case .object(var apps)? = manifest["apps"] else {
            Issue.record("the example manifest has apps")
            return
        }
        func write(_ value: JSONObject) throws {
            try Data(JSONValue.object(value).prettyPrinted().utf8).write(to: URL(fileURLWithPath: manifestPath))
        }
        apps["ios"] = nil
        manifest["apps"] = .object(apps)
        try write(manifest)
        let noIOS = run(["generate", "aasa", "--contracts", copy.path])
        #expect(noIOS.code == 2 && noIOS.err.contains(#"manifest.json: /apps: no "ios" app (teamID, bundleID) for the AASA"#), "\(noIOS.err)")
        #expect(run(["generate", "assetlinks", "--contracts", copy.path]).code == 0, "android alone still makes assetlinks.json")
        apps["android"] = nil
        apps["ios"] = ["teamID": "9JA89QQLNQ", "bundleID": "kr.co.sendy.app"]
        manifest["apps"] = .object(apps)
        try write(manifest)
        let noAndroid = run(["generate", "assetlinks", "--contracts", copy.path])
        #expect(noAndroid.code == 2 && noAndroid.err.contains(#"manifest.json: /apps: no "android" app (package, sha256CertFingerprints) for assetlinks.json"#),
                "\(noAndroid.err)")
        manifest["apps"] = nil
        try write(manifest)
        let none = run(["generate", "aasa", "--contracts", copy.path])
        #expect(none.code == 2 && none.err.contains(#"manifest.json has no "apps" block"#), "\(none.err)")
    }
}
