import BridgeContracts
import Foundation
import Testing
import TestSupport

@testable import BridgeCodegen

/// The repository's contracts/ as relative path -> text, so each test can change a copy.
enum RepositoryContracts {
    static let root = RepositoryPaths.root
    static var directory: String { root.appendingPathComponent("contracts").path }

    static func files() throws -> [String: String] {
        try RepositoryPaths.jsonFiles(under: "contracts")
    }

    static func set(_ change: (inout [String: String]) -> Void = { _ in }) throws -> ContractSet {
        var files = try files()
        change(&files)
        return try ContractSet(files: files, origin: "test copy")
    }

    /// A fresh folder with a copy of the contracts; the caller removes it in a `defer`.
    static func temporaryCopy() throws -> TemporaryFolder {
        let folder = try TemporaryFolder("codegen")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: directory), to: folder.url("contracts"))
        return folder
    }
}

@Suite struct JavaScriptGeneratorTests {
    @Test func generatingTwiceGivesIdenticalBytes() throws {
        let first = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        let second = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        #expect(first.map(\.path) == [
            "bridge.js", "bridge.d.ts", "testing/fake-host.js", "testing/fake-host.d.ts", "testing/fixtures.test.mjs",
            "testing/releases.js", "testing/releases.d.ts", "validators.js", "validators.d.ts",
            "package.json", "src/bridge-runtime.d.ts", "src/bridge-runtime.js", "src/errors.js", "src/events.d.ts", "src/events.js",
            "src/fake-host.d.ts", "src/fake-host.js",
            "src/fallback.d.ts", "src/fallback.js", "src/fixture-runner.mjs", "src/handshake.js", "src/link-builder.d.ts", "src/link-builder.js",
            "src/link-rules.d.ts", "src/link-rules.js", "src/links.d.ts", "src/links.js", "src/pending.js", "src/raw-request-id.js",
            "src/schema-runtime.d.ts", "src/schema-runtime.js", "src/surrogates.js", "src/transports.js", "src/validation.d.ts", "src/validation.js",
        ])
        for (one, two) in zip(first, second) {
            #expect(Data(one.contents.utf8) == Data(two.contents.utf8), "\(one.path) differs between two runs")
        }
    }

    @Test func outputIsTheSameWhateverTheContractsFolderIsCalled() throws {
        let copy = try RepositoryContracts.temporaryCopy()
        defer { copy.remove() }
        let fromRepository = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        let fromCopy = try JavaScriptGenerator.files(for: try ContractSet.load(directory: copy.url("contracts").path))
        #expect(fromRepository == fromCopy)
    }

    @Test func theCommittedKitIsCurrent() throws {
        let files = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory))
        let stale = GeneratedFiles.stale(files, in: RepositoryContracts.root.appendingPathComponent("js").path)
        #expect(stale.isEmpty, "js/ is stale; run \(JavaScriptGenerator.regenerateCommand): \(stale)")
    }

    /// The package version's patch is the digest of the kit's other files: one changed byte in
    /// any of them (a contract's types, the hand-written runtime) gives another version.
    @Test func kitsWhoseContentsDifferNeverShareAPackageVersion() throws {
        let model = try ShimModel(contracts: try ContractSet.load(directory: RepositoryContracts.directory))
        let files = try JavaScriptGenerator.files(for: try ContractSet.load(directory: RepositoryContracts.directory)).filter { $0.path != "package.json" }
        let version = PackageManifestEmitter(model: model, files: files, regenerate: "r").version
        #expect(version.wholeMatch(of: /1\.5\.[0-9]{1,9}/) != nil, "\(version)")
        #expect(PackageManifestEmitter(model: model, files: files.reversed(), regenerate: "r").version == version, "the order of the files does not matter")
        for index in files.indices {
            var changed = files
            changed[index] = GeneratedFile(path: files[index].path, contents: files[index].contents + " ", origin: files[index].origin)
            #expect(PackageManifestEmitter(model: model, files: changed, regenerate: "r").version != version, "\(files[index].path)")
        }
        let renamed = files.map { GeneratedFile(path: $0.path == "bridge.js" ? "bridge2.js" : $0.path, contents: $0.contents) }
        #expect(PackageManifestEmitter(model: model, files: renamed, regenerate: "r").version != version, "a renamed file")
    }

    @Test func aChangedSchemaWithoutRegeneratingMakesTheCheckNameTheFile() throws {
        let folder = try RepositoryContracts.temporaryCopy()
        defer { folder.remove() }
        let contracts = folder.url("contracts")
        let out = folder.url("js").path
        let written = try GeneratedFiles.write(try JavaScriptGenerator.files(for: try ContractSet.load(directory: contracts.path)), to: out)
        #expect(written.count == 35)
        #expect(GeneratedFiles.stale(try JavaScriptGenerator.files(for: try ContractSet.load(directory: contracts.path)), in: out).isEmpty)

        // memo may now be 300 characters: only the types change, and the package's version with them.
        let schema = contracts.appendingPathComponent("schemas/apply.v1.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        #expect(text.contains("\"maxLength\": 200"))
        try text.replacingOccurrences(of: "\"maxLength\": 200", with: "\"maxLength\": 300").write(to: schema, atomically: true, encoding: .utf8)

        let stale = GeneratedFiles.stale(try JavaScriptGenerator.files(for: try ContractSet.load(directory: contracts.path)), in: out)
        #expect(stale.map(\.path) == ["bridge.d.ts", "validators.js", "package.json"].map { (out as NSString).appendingPathComponent($0) })
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

    @Test func everyHeaderAndThePackageNoteNameTheCommandGiven() throws {
        let command = "bridgectl generate js --contracts ../web/contracts --out vendor/kit"
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set(), regenerate: command)
        for file in files where file.origin != .runtime {
            #expect(file.contents.contains("Regenerate: \(command)"), "\(file.path)")
            #expect(!file.contents.contains(JavaScriptGenerator.regenerateCommand), "\(file.path)")
        }
        let runner = try #require(files.first { $0.path == "testing/fixtures.test.mjs" }).contents
        #expect(runner.contains("registerFixtureTests({ CONTRACT, buildUniversalLink, createBridge, installFakeHost, encodeComponent, validators }, test, process.env);"))
    }

    @Test func theScriptCarriesTheContractTableAndTheNativeNames() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set())
        let script = try #require(files.first { $0.path == "bridge.js" }).contents
        #expect(script.hasPrefix("// bridge.js: GENERATED by `bridgectl generate js`"))
        #expect(script.contains("Regenerate: bridgectl generate js --contracts contracts --out js\n"))
        #expect(script.contains("CI check (exit 1 when stale): bridgectl generate js --contracts contracts --out js --check\n"))
        #expect(script.contains("window.webkit.messageHandlers.sendyBridge.postMessage(envelope)"))
        #expect(script.contains("window.sendyBridgeReceive(replyJSONString)"))
        #expect(script.contains("window.sendyBridgeCapabilities"))
        #expect(script.contains("\"pattern\": \"/event/:slug/apply\""))
        #expect(script.contains("[\"plan\", \"/payload/plan\", \"string\"],\n            [\"memo\", \"/payload/memo\", \"string\"]"))
        #expect(script.contains("import { bindContract, deepFreeze } from \"./src/bridge-runtime.js\";"))
        #expect(script.contains("export const { createBridge, buildUniversalLink } = bindContract(CONTRACT, function () { return import(\"./validators.js\"); });"))
        #expect(!script.contains("from \"./validators.js\""), "bridge.js never imports the validators statically")
        // ES2017: none of the later syntax the runtime must avoid.
        for file in JavaScriptGenerator.runtimeFiles where file.path.hasSuffix(".js") {
            for newer in ["?.", "??", "...", "#private"] {
                #expect(!file.contents.contains(newer), "\(file.path) uses \(newer)")
            }
        }
    }

    @Test func theKitCarriesTheHandWrittenRuntimeAsItIsInTheRepository() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set())
        let runtime = files.filter { $0.origin == .runtime }
        #expect(runtime.map(\.path).contains("src/bridge-runtime.js"))
        for file in runtime {
            let onDisk = try String(contentsOf: RepositoryContracts.root.appendingPathComponent("js").appendingPathComponent(file.path), encoding: .utf8)
            #expect(onDisk == file.contents, "\(file.path) differs from js/\(file.path): rebuild")
        }
        // Nothing of the runtime is generated: no contract name appears in it.
        for file in runtime {
            #expect(!file.contents.contains("sendyBridge"), "\(file.path) names the bundled bridge")
        }
    }

    @Test func theValidatorsArePlainCodeAValidatorPerActionVersionAndNoEval() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set())
        let script = try #require(files.first { $0.path == "validators.js" }).contents
        #expect(script.hasPrefix("// validators.js: GENERATED by `bridgectl generate js`"))
        for exported in ["export function validate(message)", "export function envelope(message)", "export function applyV1(message)",
                         "export function viewVehiclesV1(message)", "export function startV1(message)"] {
            #expect(script.contains(exported), "missing \(exported)")
        }
        #expect(script.contains("const PATTERN"), "patterns compiled once, at load")
        #expect(script.contains("new RegExp(\"^[a-z0-9-]{1,64}$\", \"u\")"))
        let runtime = try #require(files.first { $0.path == "src/schema-runtime.js" }).contents
        for text in [script, runtime] {
            let code = text.split(separator: "\n").filter { line in
                let trimmed = line.drop { $0 == " " }
                return !trimmed.hasPrefix("//") && !trimmed.hasPrefix("*") && !trimmed.hasPrefix("/*")
            }.joined(separator: "\n")
            for banned in ["eval(", "new Function", "Function(", "import("] {
                #expect(!code.contains(banned), "uses \(banned)")
            }
        }
        let types = try #require(files.first { $0.path == "validators.d.ts" }).contents
        #expect(types.contains("export declare function applyV1(message: unknown): ValidationResult;"))
    }

    /// A list of types is named in plain words: "a or b" for two, "a, b or c" for three.
    @Test func aListOfTypesIsNamedWithOrBeforeTheLast() throws {
        let changed = try RepositoryContracts.set { files in
            files["schemas/start.v1.json"] = files["schemas/start.v1.json"]!
                .replacingOccurrences(of: #""promoCode": { "type": "string","#, with: #""promoCode": { "type": ["string", "null"],"#)
                .replacingOccurrences(of: #""referrer": { "type": "string","#, with: #""referrer": { "type": ["integer", "string", "null"],"#)
        }
        let script = try #require(try JavaScriptGenerator.files(for: changed).first { $0.path == "validators.js" }).contents
        #expect(script.contains("expected null or string, got "))
        #expect(script.contains("expected null, string or integer, got "))
        #expect(script.contains("expected object, got "), "one type alone")
    }

    /// contains with minContains and maxContains: the count is checked against both bounds.
    @Test func containsChecksItsCountAgainstBothBounds() throws {
        let changed = try RepositoryContracts.set { files in
            files["schemas/start.v1.json"] = files["schemas/start.v1.json"]!
                .replacingOccurrences(of: #""promoCode": { "type": "string","#,
                                      with: #""codes": {"type": "array", "contains": {"const": "x"}, "minContains": 2, "maxContains": 3}, "promoCode": { "type": "string","#)
        }
        let script = try #require(try JavaScriptGenerator.files(for: changed).first { $0.path == "validators.js" }).contents
        #expect(script.contains("  if (matches < 2) {\n"))
        #expect(script.contains("  } else if (matches > 3) {\n"))
        #expect(script.contains("fewer than minContains 2"))
        #expect(script.contains("more than maxContains 3"))
    }

    /// dependentRequired (and draft-07 dependencies with a list) compiles to a presence check per
    /// name; dependentSchemas, and dependencies with a schema, to the schema's own check.
    @Test func dependentNamesAndSchemasCompile() throws {
        let changed = try RepositoryContracts.set { files in
            files["schemas/start.v1.json"] = files["schemas/start.v1.json"]!.replacingOccurrences(
                of: "\"additionalProperties\": false",
                with: #""additionalProperties": false, "dependentRequired": {"promoCode": ["referrer"]}, "dependentSchemas": {"referrer": {"required": ["promoCode"]}}"#)
        }
        #expect(JavaScriptGenerator.validatorProblems(for: changed) == [])
        let script = try #require(try JavaScriptGenerator.files(for: changed).first { $0.path == "validators.js" }).contents
        #expect(script.contains(#"property \"referrer\" is required when \"promoCode\" is present"#), "dependentRequired")
        #expect(!script.contains(#"property \"promoCode\" is required when \"referrer\" is present"#), "dependentSchemas is a schema, not names")
    }

    /// Values from the schemas are written so the validators may sit inside a script element:
    /// `</` and U+2028 in an enum value are escaped.
    @Test func schemaValuesInTheValidatorsAreSafeInsideAScript() throws {
        let changed = try RepositoryContracts.set { files in
            files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!.replacingOccurrences(
                of: #""enum": ["basic", "premium", "business"]"#, with: #""enum": ["basic", "premium", "business", "a</script>b\u2028"]"#)
        }
        let script = try #require(try JavaScriptGenerator.files(for: changed).first { $0.path == "validators.js" }).contents
        #expect(script.contains(#""a<\/script>b\u2028""#))
        #expect(!script.contains("a</script>") && !script.contains("\u{2028}"))
    }

    @Test func aContractWithAKeywordTheValidatorsCannotCompileIsNotGenerated() throws {
        let changed = try RepositoryContracts.set { files in
            files["schemas/start.v1.json"] = files["schemas/start.v1.json"]!.replacingOccurrences(
                of: "\"additionalProperties\": false", with: "\"additionalProperties\": false, \"$dynamicRef\": \"#x\"")
        }
        #expect(JavaScriptGenerator.validatorProblems(for: changed) == [
            CodegenError(file: "start.v1.json", pointer: "/$defs/payload/$dynamicRef", message: "keyword \"$dynamicRef\" is not supported by the JS validator generator"),
        ])
    }

    @Test func aStaleBinaryDoesNotOverwriteAnEditedRuntime() throws {
        let folder = try RepositoryContracts.temporaryCopy()
        defer { folder.remove() }
        let contracts = try ContractSet.load(directory: folder.url("contracts").path)
        let out = folder.url("js").path
        _ = try GeneratedFiles.write(try JavaScriptGenerator.files(for: contracts), to: out)
        let runtime = folder.url("js/src/bridge-runtime.js")
        let edited = try String(contentsOf: runtime, encoding: .utf8) + "// an edit bridgectl was not rebuilt with\n"
        try edited.write(to: runtime, atomically: true, encoding: .utf8)

        let stale = GeneratedFiles.stale(try JavaScriptGenerator.files(for: contracts), in: out)
        #expect(stale.map(\.description) == ["\(runtime.path): differs from the runtime built into this bridgectl"])
        let error = try #require(throws: GeneratedFiles.RuntimeDiffers.self) {
            try GeneratedFiles.write(try JavaScriptGenerator.files(for: contracts), to: out)
        }
        #expect(error.paths == [runtime.path])
        #expect(error.description == "\(runtime.path) differs from the runtime built into this bridgectl: rebuild bridgectl after editing js/src, or pass --update-runtime to replace it")
        #expect(GeneratedFiles.RuntimeDiffers(paths: ["a.js", "b.js"]).description
                == "a.js, b.js differ from the runtime built into this bridgectl: rebuild bridgectl after editing js/src, or pass --update-runtime to replace them")
        #expect(try String(contentsOf: runtime, encoding: .utf8) == edited, "the edit is kept")
        #expect(try GeneratedFiles.write(try JavaScriptGenerator.files(for: contracts), to: out, replacingRuntime: true) == [runtime.path])
        #expect(GeneratedFiles.stale(try JavaScriptGenerator.files(for: contracts), in: out).isEmpty)
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
