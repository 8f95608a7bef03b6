import Foundation
import SchemaCheck
import Testing
import TestSupport

@testable import BridgeCLI

/// Every required file of the JSON-Schema-Test-Suite through `bridgectl validate --schema FILE
/// --draft D` (the entry point the binary uses), with the root `$schema` taken out of each test
/// schema that names the file's own dialect: `--draft D` must read a schema exactly as
/// `"$schema"` of that dialect would. (A `$schema` naming a custom meta-schema, as in
/// vocabulary.json, is kept: without it the test would ask something else.) Remotes are
/// registered with `--ref http://localhost:1234/...=FILE` when a schema names them.
@Suite("JSON-Schema-Test-Suite through bridgectl --draft") @MainActor
struct ConformanceCLITests {
    nonisolated static let repository = RepositoryPaths.root
    nonisolated static let suite = repository.appendingPathComponent("Tests/json-schema-test-suite")

    nonisolated static let drafts: [(folder: String, flag: String, metaSchema: String)] = [
        ("draft2020-12", "2020-12", "https://json-schema.org/draft/2020-12/schema"),
        ("draft2019-09", "2019-09", "https://json-schema.org/draft/2019-09/schema"),
        ("draft7", "7", "http://json-schema.org/draft-07/schema"),
        ("draft6", "6", "http://json-schema.org/draft-06/schema"),
        ("draft4", "4", "http://json-schema.org/draft-04/schema"),
    ]

    static func files(under directory: URL, prefix: String = "") -> [String] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: directory.path) else { return [] }
        var found: [String] = []
        for entry in entries.sorted() {
            var isDirectory: ObjCBool = false
            let url = directory.appendingPathComponent(entry)
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                found += files(under: url, prefix: prefix + entry + "/")
            } else if entry.hasSuffix(".json") {
                found.append(prefix + entry)
            }
        }
        return found
    }

    /// `--ref URI=FILE` for every remote.
    static let remoteArguments: [String] = {
        let remotes = suite.appendingPathComponent("remotes")
        return files(under: remotes).flatMap { ["--ref", "http://localhost:1234/\($0)=\(remotes.appendingPathComponent($0).path)"] }
    }()

    @Test("required files", arguments: drafts.map(\.folder))
    func requiredFilesThroughTheCommandLine(folder: String) throws {
        let draft = Self.drafts.first { $0.folder == folder }!
        let flag = draft.flag
        let directory = Self.suite.appendingPathComponent("tests/\(folder)")
        let required = Self.files(under: directory).filter { !$0.hasPrefix("optional/") }
        #expect(!required.isEmpty, "no test files under \(directory.path)")
        let scratch = try TemporaryFolder("cli-suite")
        defer { scratch.remove() }

        var passed = 0
        var failures: [String] = []
        for file in required {
            let cases = try JSONDocument(Data(contentsOf: directory.appendingPathComponent(file)), limits: .unlimited).value
            for (caseIndex, testCase) in (cases.arrayValue ?? []).enumerated() {
                var schema = testCase["schema"] ?? .bool(true)
                if case .object(var object) = schema, let declared = object["$schema"]?.stringValue,
                   [draft.metaSchema, draft.metaSchema + "#"].contains(declared) {
                    object["$schema"] = nil
                    schema = .object(object)
                }
                let schemaFile = scratch.url("schema-\(caseIndex).json")
                try Data(JSONDocument(schema).text.utf8).write(to: schemaFile)
                let tests = testCase["tests"]?.arrayValue ?? []
                var dataFiles: [String] = []
                for (testIndex, test) in tests.enumerated() {
                    let dataFile = scratch.url("data-\(caseIndex)-\(testIndex).json")
                    try Data(JSONDocument(test["data"] ?? .null).text.utf8).write(to: dataFile)
                    dataFiles.append(dataFile.path)
                }
                let needsRemotes = JSONDocument(schema).text.contains("localhost:1234")
                let arguments = ["validate", "--format", "json", "--draft", flag, "--schema", schemaFile.path]
                    + (needsRemotes ? Self.remoteArguments : []) + dataFiles
                let console = CapturingConsole(input: Data())
                let code = BridgeCLI.main(arguments, console: console)
                let verdicts = (try? JSONDocument(console.stdout, limits: .unlimited).value["results"]?.arrayValue) ?? nil
                for (testIndex, test) in tests.enumerated() {
                    let name = "\(folder)/\(file) :: \(testCase["description"]?.stringValue ?? "?") :: \(test["description"]?.stringValue ?? "?")"
                    let expected = test["valid"]?.boolValue ?? false
                    if let verdicts, testIndex < verdicts.count, verdicts[testIndex]["valid"]?.boolValue == expected {
                        passed += 1
                    } else {
                        failures.append("\(name)    (exit \(code): \(console.stderr.prefix(200)))")
                    }
                }
            }
        }
        print("\(folder) required via bridgectl validate --draft \(flag): \(passed) passed, \(failures.count) failed")
        for failure in failures {
            Issue.record("through the command line: \(failure)")
        }
    }
}
