import BridgeCLI
import Foundation
import Testing
import TestSupport

/// `bridgectl generate js` through the CLI entry point, on a temporary copy of the contracts.
@Suite struct GenerateCLITests {
    private static let repository = RepositoryPaths.root

    private func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    private func temporaryContracts() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridgekit-generate-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.repository.appendingPathComponent("contracts"), to: folder.appendingPathComponent("contracts"))
        return folder
    }

    @Test func checkFailsNamingTheStaleFileAfterASchemaChange() throws {
        let folder = try temporaryContracts()
        defer { try? FileManager.default.removeItem(at: folder) }
        let contracts = folder.appendingPathComponent("contracts").path
        let out = folder.appendingPathComponent("js").path

        let missing = run(["generate", "js", "--contracts", contracts, "--out", out, "--check"])
        #expect(missing.code == 1)
        #expect(missing.out.contains("\(out)/bridge.js: missing"))

        let generated = run(["generate", "js", "--contracts", contracts, "--out", out])
        #expect(generated.code == 0, "\(generated.err)")
        #expect(generated.out.contains("wrote \(out)/testing/fake-host.js"))
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
    }

    @Test func unsupportedSchemasAndUsageErrorsExitTwo() throws {
        let folder = try temporaryContracts()
        defer { try? FileManager.default.removeItem(at: folder) }
        let contracts = folder.appendingPathComponent("contracts").path
        let schema = URL(fileURLWithPath: contracts).appendingPathComponent("schemas/start.v1.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        try text.replacingOccurrences(of: "\"promoCode\": { \"type\": \"string\"", with: "\"promoCode\": { \"anyOf\": [{\"type\": \"string\"}, {\"type\": \"integer\"}]")
            .write(to: schema, atomically: true, encoding: .utf8)
        let unsupported = run(["generate", "js", "--contracts", contracts, "--out", folder.appendingPathComponent("js").path])
        #expect(unsupported.code == 2)
        #expect(unsupported.err.contains("start.v1.json#/$defs/payload/properties/promoCode/anyOf"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("js").path), "nothing is written")

        #expect(run(["generate", "ts"]).code == 2)
        #expect(run(["generate"]).code == 2)
        #expect(run(["generate", "js", "--fast"]).code == 2)
        #expect(run(["generate", "js", "--contracts", folder.appendingPathComponent("nowhere").path]).code == 2)
        let help = run(["generate", "--help"])
        #expect(help.code == 0)
        #expect(help.out.contains("--check"))
    }
}
