import BridgeCLI
import BridgeHost
import Foundation
import Testing
import TestSupport

/// `bridgectl generate js` through the CLI entry point, on a temporary copy of the contracts.
@Suite @MainActor struct GenerateCLITests {
    private static let repository = RepositoryPaths.root

    private func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    private func temporaryContracts() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("generate")
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("contracts"), to: folder.url("contracts"))
        return folder
    }

    /// Without --out the kit goes beside the contracts folder in use, never into the working folder.
    @Test func theDefaultOutputIsBesideTheContractsFolder() throws {
        let folder = try temporaryContracts()
        defer { folder.remove() }
        let contracts = folder.url("contracts").path
        let written = run(["generate", "js", "--contracts", contracts])
        #expect(written.code == 0, "\(written.err)")
        #expect(written.out.contains("wrote \(folder.path)/js/bridge.js\n"), "\(written.out)")
        #expect(FileManager.default.fileExists(atPath: folder.url("js/bridge.js").path))
        let check = run(["generate", "js", "--contracts", contracts, "--check"])
        #expect(check.code == 0 && check.out == "\(folder.path)/js: the 35 files of the kit are current\n", "\(check.out)")
    }

    @Test func checkFailsNamingTheStaleFileAfterASchemaChange() throws {
        let folder = try temporaryContracts()
        defer { folder.remove() }
        let contracts = folder.url("contracts").path
        let out = folder.url("js").path

        let missing = run(["generate", "js", "--contracts", contracts, "--out", out, "--check"])
        #expect(missing.code == 1)
        #expect(missing.out.contains("\(out)/bridge.js: missing"))

        let generated = run(["generate", "js", "--contracts", contracts, "--out", out])
        #expect(generated.code == 0, "\(generated.err)")
        #expect(generated.out.contains("wrote \(out)/testing/fake-host.js"))
        #expect(generated.out.contains("wrote \(out)/src/bridge-runtime.js"))
        let current = run(["generate", "js", "--contracts", contracts, "--out", out, "--check"])
        #expect(current.code == 0)
        #expect(current.out.contains("current"))

        let schema = URL(fileURLWithPath: contracts).appendingPathComponent("schemas/view_vehicles.v1.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        try text.replacingOccurrences(of: "\"5ton\"", with: "\"5ton\", \"11ton\"").write(to: schema, atomically: true, encoding: .utf8)
        let stale = run(["generate", "js", "--contracts", contracts, "--out", out, "--check"])
        #expect(stale.code == 1)
        #expect(stale.out.contains("\(out)/bridge.d.ts: stale"))
        #expect(!stale.out.contains("bridge.js:"), "the data table does not hold enums; only the types changed")
        // The command that fixes it: the same contracts, the same folder.
        #expect(stale.out.contains("regenerate with: bridgectl generate js --contracts \(contracts) --out \(out)\n"))

        #expect(run(["generate", "js", "--contracts", contracts, "--out", out]).code == 0)
        #expect(run(["generate", "js", "--contracts", contracts, "--out", out, "--check"]).code == 0)

        // An edited runtime file is reported, and kept unless --update-runtime says otherwise.
        let runtime = URL(fileURLWithPath: out).appendingPathComponent("src/fake-host.js")
        try (String(contentsOf: runtime, encoding: .utf8) + "// edited\n").write(to: runtime, atomically: true, encoding: .utf8)
        let edited = run(["generate", "js", "--contracts", contracts, "--out", out, "--check"])
        #expect(edited.code == 1)
        #expect(edited.out.contains("\(out)/src/fake-host.js: differs from the runtime built into this bridgectl"))
        let refused = run(["generate", "js", "--contracts", contracts, "--out", out])
        #expect(refused.code == 2)
        #expect(refused.err.contains("--update-runtime"))
        #expect(try String(contentsOf: runtime, encoding: .utf8).hasSuffix("// edited\n"))
        #expect(run(["generate", "js", "--contracts", contracts, "--out", out, "--update-runtime"]).code == 0)
        #expect(run(["generate", "js", "--contracts", contracts, "--out", out, "--check"]).code == 0)
    }

    @Test func unsupportedSchemasAndUsageErrorsExitTwo() throws {
        let folder = try temporaryContracts()
        defer { folder.remove() }
        let contracts = folder.url("contracts").path
        let schema = URL(fileURLWithPath: contracts).appendingPathComponent("schemas/start.v1.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        try text.replacingOccurrences(of: "\"promoCode\": { \"type\": \"string\"", with: "\"promoCode\": { \"unevaluatedProperties\": false, \"type\": \"string\"")
            .write(to: schema, atomically: true, encoding: .utf8)
        let unsupported = run(["generate", "js", "--contracts", contracts, "--out", folder.url("js").path])
        #expect(unsupported.code == 2)
        #expect(unsupported.err.contains("start.v1.json#/$defs/payload/properties/promoCode/unevaluatedProperties"))
        #expect(!FileManager.default.fileExists(atPath: folder.url("js").path), "nothing is written")

        #expect(run(["generate", "ts"]).code == 2)
        #expect(run(["generate"]).code == 2)
        #expect(run(["generate", "js", "--fast"]).code == 2)
        #expect(run(["generate", "js", "--contracts", folder.url("nowhere").path]).code == 2)
        let help = run(["generate", "--help"])
        #expect(help.code == 0)
        #expect(help.out.contains("--check"))
    }

    /// The shim's list is hand-written in js/src; the app's is BridgeErrorCode: one closed set.
    @Test func theRuntimesErrorCodesAreTheHostsClosedSet() throws {
        let runtime = try String(contentsOf: Self.repository.appendingPathComponent("js/src/errors.js"), encoding: .utf8)
        let start = try #require(runtime.range(of: "export const ERROR_CODES = Object.freeze(["))
        let end = try #require(runtime.range(of: "]);", range: start.upperBound..<runtime.endIndex))
        let listed = runtime[start.upperBound..<end.lowerBound].split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        #expect(listed == BridgeErrorCode.allCases.map(\.rawValue))
    }

    /// lint names each keyword the JS validator generator cannot compile, with its JSON Pointer.
    @Test func lintNamesKeywordsTheValidatorGeneratorCannotCompile() throws {
        let folder = try temporaryContracts()
        defer { folder.remove() }
        let contracts = folder.url("contracts").path
        let clean = run(["lint", "--contracts", contracts])
        #expect(clean.code == 0, "\(clean.out)")
        let schema = URL(fileURLWithPath: contracts).appendingPathComponent("schemas/view_vehicles.v1.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        try text.replacingOccurrences(of: "\"additionalProperties\": false", with: "\"unevaluatedProperties\": false")
            .replacingOccurrences(of: "\"region\": { \"type\": \"string\",", with: "\"region\": { \"$dynamicRef\": \"#r\", \"type\": \"string\",")
            .write(to: schema, atomically: true, encoding: .utf8)
        let lint = run(["lint", "--contracts", contracts])
        #expect(lint.code == 1)
        #expect(lint.out.contains("schemas/view_vehicles.v1.json: /$defs/payload/unevaluatedProperties: JS validators: keyword \"unevaluatedProperties\" is not supported"), "\(lint.out)")
        #expect(lint.out.contains("schemas/view_vehicles.v1.json: /$defs/payload/properties/region/$dynamicRef: JS validators:"), "\(lint.out)")

        // A format the JS validators cannot check is named once the manifest asserts formats.
        let manifest = URL(fileURLWithPath: contracts).appendingPathComponent("manifest.json")
        try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "\"allowFrames\": false,", with: "\"allowFrames\": false, \"assertFormat\": true,")
            .write(to: manifest, atomically: true, encoding: .utf8)
        try text.replacingOccurrences(of: "\"region\": { \"type\": \"string\",", with: "\"region\": { \"type\": \"string\", \"format\": \"email\",")
            .write(to: schema, atomically: true, encoding: .utf8)
        let formats = run(["lint", "--contracts", contracts])
        #expect(formats.code == 1)
        #expect(formats.out.contains("/$defs/payload/properties/region/format: JS validators: format \"email\" is asserted"), "\(formats.out)")
        #expect(!formats.out.contains("sentAt"), "date-time is one the validators check")
    }

    /// generate swift's headers name the contracts and output folders really used, from the
    /// project folder (the one holding contracts/); its --check hint names them as invoked.
    @Test func generateSwiftHeadersNameTheContractsAndFolderReallyUsed() throws {
        let folder = try temporaryContracts()
        defer { folder.remove() }
        let contracts = folder.url("contracts").path
        let out = folder.url("AppMessages").path
        let generated = run(["generate", "swift", "--contracts", contracts, "--out", out])
        #expect(generated.code == 0, "\(generated.err)")
        let command = "bridgectl generate swift --contracts \(contracts) --out \(out)"
        let header = try String(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("ApplyV1.swift"), encoding: .utf8)
        #expect(header.contains("regenerate with `bridgectl generate swift --contracts contracts --out AppMessages`"), "\(header.prefix(300))")
        #expect(run(["generate", "swift", "--contracts", contracts, "--out", out, "--check"]).code == 0)

        try "// edited\n".write(to: URL(fileURLWithPath: out).appendingPathComponent("BridgeMessage.swift"), atomically: true, encoding: .utf8)
        let stale = run(["generate", "swift", "--contracts", contracts, "--out", out, "--check"])
        #expect(stale.code == 1)
        #expect(stale.out.contains("BridgeMessage.swift"), "\(stale.out)")
        #expect(stale.out.contains("regenerate with: \(command)\n"), "\(stale.out)")
    }
}
