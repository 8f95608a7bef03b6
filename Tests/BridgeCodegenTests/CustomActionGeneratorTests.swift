import BridgeContracts
import Testing
import TestSupport

@testable import BridgeCodegen

/// The JS kit of Tests/contracts/custom-action: share v1 is answered by app code with a result
/// (`"handler": "custom"`), next to apply v1, a route. The kit in use is tested by node
/// (js/test/custom-action.test.mjs, js/test/types.test.mjs); these tests hold the generated text.
@Suite struct CustomActionGeneratorTests {
    private func kit() throws -> [String: String] {
        let contracts = try ContractSet.load(directory: RepositoryPaths.url("Tests/contracts/custom-action").path)
        return Dictionary(uniqueKeysWithValues: try JavaScriptGenerator.files(for: contracts).map { ($0.path, $0.contents) })
    }

    @Test func aCustomVersionGetsATypedFunctionResolvingWithItsResultType() throws {
        let types = try #require(try kit()["bridge.d.ts"])
        #expect(types.contains("export type ShareV1Result = {"))
        #expect(types.contains("  shared: boolean;"))
        #expect(types.contains("  target?: string;"))
        #expect(types.contains("  share(payload: ShareV1Payload, options?: CallOptions): Promise<ShareV1Result>;"))
        #expect(types.contains("  shareV1(payload: ShareV1Payload, options?: CallOptions): Promise<ShareV1Result>;"))
        #expect(types.contains("  apply(payload: ApplyV1Payload, options?: CallOptions): Promise<BridgeResult>;"))
        // share requires an id: no notification overload.
        #expect(!types.contains("share(payload: ShareV1Payload | undefined, options: NotifyOptions)"))
        #expect(types.contains("): Promise<BridgeResult | ShareV1Result>;"), "send resolves with any version's result")
    }

    @Test func theTableNamesTheHandlerAndResultSchemaAndNoRoute() throws {
        let script = try #require(try kit()["bridge.js"])
        let share = try #require(script.range(of: "\"share\": {")).lowerBound
        let entry = script[share...]
        #expect(entry.contains("\"handler\": \"custom\""))
        #expect(entry.contains("\"result\": \"share.result.v1.json\""))
        #expect(!entry.contains("\"route\""), "a custom version has no route in the table")
        #expect(!script.contains("kakaotalk"), "the example result stays out of the page's shim")
    }

    @Test func theFakeHostGetsTheFirstExampleResult() throws {
        let host = try #require(try kit()["testing/fake-host.js"])
        #expect(host.contains("const EXAMPLE_RESULTS = {"))
        #expect(host.contains("\"target\": \"kakaotalk\""))
        #expect(host.contains("const HOST_DEFAULTS = { duplicateWindowMs: 2000, exampleResults: EXAMPLE_RESULTS };"))
        #expect(host.contains("bindFakeHost(CONTRACT, validators, RELEASES, HOST_DEFAULTS);"))
    }

    @Test func theBundledKitHasNoExampleResults() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set())
        let host = try #require(files.first { $0.path == "testing/fake-host.js" }).contents
        #expect(!host.contains("EXAMPLE_RESULTS"))
        #expect(host.contains("const HOST_DEFAULTS = { duplicateWindowMs: 2000 };"))
        #expect(host.contains("bindFakeHost(CONTRACT, validators, RELEASES, HOST_DEFAULTS);"))
    }

    @Test func aMissingResultSchemaIsNamedWithItsPointer() throws {
        var files = try RepositoryPaths.jsonFiles(under: "Tests/contracts/custom-action")
        files["schemas/share.result.v1.json"] = nil
        let contracts = try ContractSet(files: files, origin: "test copy")
        #expect(throws: CodegenError(file: "manifest.json", pointer: "/actions/share/versions/1/result", message: "schemas/share.result.v1.json is missing")) {
            _ = try JavaScriptGenerator.files(for: contracts)
        }
    }
}
