import BridgeContracts
import Foundation
import Testing

@testable import BridgeCodegen

/// The repository's contracts/ as relative path -> text, so each test can change a copy.
enum RepositoryContracts {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var directory: String { root.appendingPathComponent("contracts").path }

    static func files() throws -> [String: String] {
        var files: [String: String] = [:]
        let base = URL(fileURLWithPath: directory).standardizedFileURL
        let walker = try #require(FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil))
        for case let url as URL in walker where url.pathExtension == "json" {
            let relative = String(url.standardizedFileURL.path.dropFirst(base.path.count + 1))
            files[relative] = try String(contentsOf: url, encoding: .utf8)
        }
        return files
    }

    static func set(_ change: (inout [String: String]) -> Void = { _ in }) throws -> ContractSet {
        var files = try files()
        change(&files)
        return try ContractSet(files: files, origin: "test copy")
    }

    /// A fresh folder with a copy of the contracts, removed by the caller.
    static func temporaryCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridgekit-codegen-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: directory), to: folder.appendingPathComponent("contracts"))
        return folder
    }
}

@Suite struct JavaScriptGeneratorTests {
    @Test func generatingTwiceGivesIdenticalBytes() throws {
        let first = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        let second = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        #expect(first.map(\.path) == ["bridge.js", "bridge.d.ts", "testing/fake-host.js", "testing/fake-host.d.ts"])
        for (one, two) in zip(first, second) {
            #expect(Data(one.contents.utf8) == Data(two.contents.utf8), "\(one.path) differs between two runs")
        }
    }

    @Test func outputIsTheSameWhateverTheContractsFolderIsCalled() throws {
        let copy = try RepositoryContracts.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let fromRepository = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        let fromCopy = try JavaScriptGenerator.files(for: try ContractSet.load(directory: copy.appendingPathComponent("contracts").path))
        #expect(fromRepository == fromCopy)
    }

    @Test func theCommittedKitIsCurrent() throws {
        let files = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        let stale = GeneratedFiles.stale(files, in: RepositoryContracts.root.appendingPathComponent("js").path)
        #expect(stale.isEmpty, "js/ is stale; run \(JavaScriptGenerator.regenerateCommand): \(stale)")
    }

    @Test func aChangedSchemaWithoutRegeneratingMakesTheCheckNameTheFile() throws {
        let folder = try RepositoryContracts.temporaryCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let contracts = folder.appendingPathComponent("contracts")
        let out = folder.appendingPathComponent("js").path
        let written = try GeneratedFiles.write(try JavaScriptGenerator.files(for: try ContractSet.load(directory: contracts.path)), to: out)
        #expect(written.count == 4)
        #expect(GeneratedFiles.stale(try JavaScriptGenerator.files(for: try ContractSet.load(directory: contracts.path)), in: out).isEmpty)

        // memo may now be 300 characters: only the types change.
        let schema = contracts.appendingPathComponent("schemas/apply.v1.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        #expect(text.contains("\"maxLength\": 200"))
        try text.replacingOccurrences(of: "\"maxLength\": 200", with: "\"maxLength\": 300").write(to: schema, atomically: true, encoding: .utf8)

        let stale = GeneratedFiles.stale(try JavaScriptGenerator.files(for: try ContractSet.load(directory: contracts.path)), in: out)
        #expect(stale.map(\.path) == [(out as NSString).appendingPathComponent("bridge.d.ts")])
        #expect(stale.first?.reason == .differs)
        #expect(stale.first?.description.contains("bridge.d.ts: stale") == true)
    }

    @Test func aChangedTimeoutChangesTheDataTable() throws {
        let changed = try RepositoryContracts.set { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(of: "\"timeoutMs\": 5000", with: "\"timeoutMs\": 7000")
        }
        let script = try #require(try JavaScriptGenerator.files(for: changed).first { $0.path == "bridge.js" })
        #expect(script.contents.contains("\"timeoutMs\": 7000"))
        #expect(!script.contents.contains("\"timeoutMs\": 5000"))
    }

    @Test func theScriptCarriesTheContractTableAndTheNativeNames() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set())
        let script = try #require(files.first { $0.path == "bridge.js" }).contents
        #expect(script.hasPrefix("// bridge.js: GENERATED by `bridgectl generate js`"))
        #expect(script.contains("Regenerate, from the repository root: bridgectl generate js --contracts contracts --out js"))
        #expect(script.contains("window.webkit.messageHandlers.sendyBridge.postMessage(envelope)"))
        #expect(script.contains("window.sendyBridgeReceive(replyJSONString)"))
        #expect(script.contains("window.sendyBridgeCapabilities"))
        #expect(script.contains("\"pattern\": \"/event/:slug/apply\""))
        #expect(script.contains("[\"plan\", \"/payload/plan\", \"string\"],\n            [\"memo\", \"/payload/memo\", \"string\"]"))
        // ES2017: none of the later syntax the runtime must avoid.
        for newer in ["?.", "??", "...", "#private"] {
            #expect(!BridgeRuntimeTemplate.text.contains(newer), "runtime uses \(newer)")
        }
    }

    @Test func oneTypedFunctionPerActionAndVersion() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set())
        let types = try #require(files.first { $0.path == "bridge.d.ts" }).contents
        for signature in [
            "  apply(payload: ApplyV2Payload, options?: CallOptions): Promise<BridgeResult>;",
            "  applyV1(payload: ApplyV1Payload, options?: CallOptions): Promise<BridgeResult>;",
            "  applyV2(payload: ApplyV2Payload, options?: CallOptions): Promise<BridgeResult>;",
            "  viewVehicles(payload?: ViewVehiclesV1Payload, options?: CallOptions): Promise<BridgeResult>;",
            "  viewVehiclesV1(payload: ViewVehiclesV1Payload | undefined, options: NotifyOptions): Promise<BridgeResult | undefined>;",
            "  startV1(payload?: StartV1Payload, options?: CallOptions): Promise<BridgeResult>;",
        ] {
            #expect(types.contains(signature), "missing: \(signature)")
        }
        // apply requires an id, so it has no notification overload.
        #expect(!types.contains("apply(payload: ApplyV2Payload | undefined, options: NotifyOptions)"))
        #expect(types.contains("  plan?: \"basic\" | \"premium\" | \"business\";"))
        #expect(types.contains("  slug: string;"))
    }

    @Test func aNewVersionGetsItsOwnFunctionAndBecomesTheDefault() throws {
        let changed = try RepositoryContracts.set { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(
                of: "\"fallback\": \"universalLink\"\n        }\n      }\n    },\n    \"view_vehicles\"",
                with: "\"fallback\": \"universalLink\"\n        },\n        \"3\": { \"schema\": \"apply.v3.json\", \"route\": \"applyForm\", \"parameters\": { \"slug\": \"/payload/slug\" }, \"fallback\": \"none\" }\n      }\n    },\n    \"view_vehicles\"")
            files["schemas/apply.v3.json"] = files["schemas/apply.v1.json"]!
                .replacingOccurrences(of: "apply.v1.json", with: "apply.v3.json")
                .replacingOccurrences(of: "\"version\": { \"const\": 1 }", with: "\"version\": { \"const\": 3 }")
        }
        let files = try JavaScriptGenerator.files(for: changed)
        let types = try #require(files.first { $0.path == "bridge.d.ts" }).contents
        #expect(types.contains("  apply(payload: ApplyV3Payload, options?: CallOptions): Promise<BridgeResult>;"))
        #expect(types.contains("  applyV1(payload: ApplyV1Payload"))
        #expect(types.contains("  applyV3(payload: ApplyV3Payload"))
        #expect(types.contains("apply: { 1: ApplyV1Payload; 2: ApplyV2Payload; 3: ApplyV3Payload };"))
        let script = try #require(files.first { $0.path == "bridge.js" }).contents
        #expect(script.contains("\"latest\": 3"))
        #expect(script.contains("\"fallback\": \"none\""))
    }

    @Test func contractProblemsAreNamed() throws {
        let unmapped = try RepositoryContracts.set { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(of: "\"parameters\": { \"slug\": \"/payload/slug\" },", with: "")
        }
        #expect(throws: CodegenError(file: "manifest.json", pointer: "/actions/apply/versions/1/parameters",
                                     message: "route applyForm (/event/:slug/apply) needs parameter \"slug\", which this version does not map")) {
            try JavaScriptGenerator.files(for: unmapped)
        }
        let reserved = try RepositoryContracts.set { files in
            files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(of: "\"start\": {", with: "\"dispose\": {")
        }
        let error = try #require(throws: CodegenError.self) { try JavaScriptGenerator.files(for: reserved) }
        #expect(error.pointer == "/actions/dispose")
        #expect(error.message.contains("\"dispose\""))
    }
}
