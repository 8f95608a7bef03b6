import BridgeContracts
import Testing
import TestSupport

/// The custom-action test contracts (share v1: `"handler": "custom"`), as path -> text.
enum CustomActionContractFiles {
    static let files: [String: String] = (try? RepositoryPaths.jsonFiles(under: "Tests/contracts/custom-action")) ?? [:]

    static func editing(_ file: String, _ old: String, _ new: String) throws -> [String: String] {
        var copy = files
        let text = try #require(copy[file], "no \(file)")
        try #require(text.contains(old), "\(file) has no \(old)")
        copy[file] = text.replacingOccurrences(of: old, with: new)
        return copy
    }
}

@Suite("A custom action version: declared with handler and result, checked by the loader and lint")
struct CustomActionContractTests {
    private let shareEntry = #""handler": "custom","#

    private func loadError(_ old: String, _ new: String) throws -> ContractError? {
        let files = try CustomActionContractFiles.editing("manifest.json", old, new)
        do {
            _ = try ContractSet(files: files, origin: "a copy")
            return nil
        } catch {
            return error
        }
    }

    @Test func theTestContractsDeclareShareAsCustomAndLintClean() throws {
        let contracts = try ContractSet(files: CustomActionContractFiles.files, origin: "Tests/contracts/custom-action")
        let share = try #require(contracts.manifest.action(named: "share")?.contract(version: 1))
        #expect(share.handler == .custom(result: "share.result.v1.json"))
        #expect(share.route == nil && share.isCustom)
        #expect(contracts.manifest.action(named: "apply")?.contract(version: 1)?.handler == .route("applyForm"))
        #expect(contracts.exampleResult(for: share) == ["shared": true, "target": "kakaotalk"])
        #expect(ContractLinter(contracts: contracts).lint() == [])
        let compiled = try CompiledContracts(contracts: contracts)
        let result = try #require(compiled.resultSchema(for: share))
        #expect(result.isValid(["shared": false]))
        #expect(!result.isValid(["shared": "no"]))
    }

    @Test func aCustomVersionWithARouteOrAUniversalLinkFallbackDoesNotLoad() throws {
        let withRoute = try #require(try loadError(shareEntry, shareEntry + #" "route": "applyForm","#))
        #expect(withRoute.pointer == "/actions/share/versions/1/route")
        let withFallback = try #require(try loadError(#""fallback": "none""#, #""fallback": "universalLink""#))
        #expect(withFallback.message == #"a custom action has no route to fall back to: "fallback" must be none"#)
        let unknown = try #require(try loadError(shareEntry, #""handler": "swift","#))
        #expect(unknown.message == #"handler must be route or custom, not "swift""#)
        let noResult = try #require(try loadError(#""result": "share.result.v1.json","#, ""))
        #expect(noResult.pointer.hasPrefix("/actions/share/versions/1"))
    }

    @Test func lintWantsTheResultSchemaAndAMatchingExample() throws {
        let missing = try ContractSet(files: try CustomActionContractFiles.editing("manifest.json", #""result": "share.result.v1.json""#,
                                                                                   #""result": "share.result.v9.json""#), origin: "a copy")
        #expect(ContractLinter(contracts: missing).lint().map(\.description)
            .contains("manifest.json: /actions/share/versions/1/result: names schemas/share.result.v9.json, which does not exist"))

        let badExample = try ContractSet(files: try CustomActionContractFiles.editing("schemas/share.result.v1.json",
            #""examples": [{ "shared": true, "target": "kakaotalk" }]"#, #""examples": [{ "shared": "yes" }]"#), origin: "a copy")
        #expect(ContractLinter(contracts: badExample).lint().map(\.description) == [
            "schemas/share.result.v1.json: /examples/0/shared: the example result does not match its own schema: expected boolean, got string (type at /properties/shared/type)",
        ])

        let noExample = try ContractSet(files: try CustomActionContractFiles.editing("schemas/share.result.v1.json",
            #""examples": [{ "shared": true, "target": "kakaotalk" }]"#, #""examples": []"#), origin: "a copy")
        #expect(ContractLinter(contracts: noExample).lint().map(\.pointer) == ["/examples"])
    }
}
