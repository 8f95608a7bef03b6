import Foundation
import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// Runs the official JSON-Schema-Test-Suite (copied into Tests/json-schema-test-suite) for
/// drafts 2020-12, 2019-09, 07, 06 and 04: every required file, and optional/ (content
/// assertions on, and format assertions on for optional/format/). Each draft is the default
/// dialect of its run. Remotes are served from a local registry as http://localhost:1234/...
///
/// A failure fails the test unless known-failures.txt lists it by name; a listed failure
/// that now passes fails the test too, so that list can only shrink.
@Suite("JSON-Schema-Test-Suite")
struct ConformanceTests {
    static let root = RepositoryPaths.url("Tests/SchemaCheckTests")
    static let suite = RepositoryPaths.testSuite

    static let knownFailures: Set<String> = {
        let url = root.appendingPathComponent("known-failures.txt")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return Set(text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }()

    static func files(under directory: URL, recursive: Bool) -> [String] {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: directory.path) else { return [] }
        var found: [String] = []
        for entry in entries.sorted() {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(entry).path
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if recursive {
                    found += files(under: directory.appendingPathComponent(entry), recursive: true).map { entry + "/" + $0 }
                }
            } else if entry.hasSuffix(".json") {
                found.append(entry)
            }
        }
        return found
    }

    static func load(_ url: URL) throws -> JSONValue {
        let data = try Data(contentsOf: url)
        return try JSONDocument(data, limits: .unlimited).value
    }

    static let dialects: [String: SchemaOptions.Dialect] = [
        "draft2020-12": .draft2020_12, "draft2019-09": .draft2019_09, "draft7": .draft7, "draft6": .draft6,
        "draft4": .draft4,
    ]

    /// The registry with the meta-schemas and every remote under http://localhost:1234/.
    static func makeRegistry(dialect: SchemaOptions.Dialect) throws -> SchemaRegistry {
        let registry = SchemaRegistry(dialect: dialect)
        let remotes = suite.appendingPathComponent("remotes")
        for file in files(under: remotes, recursive: true) {
            let document = try JSONDocument(Data(contentsOf: remotes.appendingPathComponent(file)), limits: .unlimited)
            try registry.add(document, uri: "http://localhost:1234/" + file)
        }
        return registry
    }

    struct Tally {
        var passed = 0
        var failed = 0
        var unexpected: [String] = []
        var fixed: [String] = []
        var seen: Set<String> = []
    }

    static func run(draft: String, files: [String], registry: SchemaRegistry, tally: inout Tally) throws {
        let dialect = dialects[draft] ?? .draft2020_12
        for file in files {
            let cases = try load(suite.appendingPathComponent("tests/\(draft)/\(file)"))
            let options = SchemaOptions(dialect: dialect, assertFormat: file.hasPrefix("optional/format/"),
                                        assertContent: file.hasPrefix("optional/"))
            var passed = 0
            var failed = 0
            for testCase in cases.arrayValue ?? [] {
                let caseName = testCase["description"]?.stringValue ?? "?"
                var schema: CompiledSchema?
                var compileError = ""
                do {
                    schema = try CompiledSchema(document: testCase["schema"] ?? .bool(true), registry: registry,
                                                options: options)
                } catch {
                    compileError = error.description
                }
                for test in testCase["tests"]?.arrayValue ?? [] {
                    let name = "\(draft)/\(file) :: \(caseName) :: \(test["description"]?.stringValue ?? "?")"
                    let expected = test["valid"]?.boolValue ?? false
                    var ok = false
                    var detail = compileError
                    if let schema {
                        let document = JSONDocument(test["data"] ?? .null)
                        let fast = schema.check(document)
                        let full = schema.validate(document)
                        let want: ValidationStatus = expected ? .valid : .invalid
                        ok = fast == want && full.status == want && (expected ? full.isEmpty : !full.isEmpty)
                        detail = "fast \(fast), full \(full.status), \(full.count) units"
                    }
                    tally.seen.insert(name)
                    let known = knownFailures.contains(name)
                    if ok {
                        passed += 1
                        if known { tally.fixed.append(name) }
                    } else {
                        failed += 1
                        if !known { tally.unexpected.append("\(name)    (\(detail))") }
                    }
                }
            }
            print("  \(draft)/\(file): \(passed) passed, \(failed) failed")
            tally.passed += passed
            tally.failed += failed
        }
    }

    @Test("draft suites", arguments: ["draft2020-12", "draft2019-09", "draft7", "draft6", "draft4"])
    func draftSuite(draft: String) throws {
        let registry = try Self.makeRegistry(dialect: Self.dialects[draft] ?? .draft2020_12)
        let all = Self.files(under: Self.suite.appendingPathComponent("tests/\(draft)"), recursive: true)
        let required = all.filter { !$0.hasPrefix("optional/") }
        let optional = all.filter { $0.hasPrefix("optional/") }
        #expect(!required.isEmpty, "no test files found under \(Self.suite.path)")

        var requiredTally = Tally()
        try Self.run(draft: draft, files: required, registry: registry, tally: &requiredTally)
        var optionalTally = Tally()
        try Self.run(draft: draft, files: optional, registry: registry, tally: &optionalTally)

        print("\(draft) required: \(requiredTally.passed) passed, \(requiredTally.failed) failed")
        print("\(draft) optional: \(optionalTally.passed) passed, \(optionalTally.failed) failed")
        let total = requiredTally.passed + requiredTally.failed + optionalTally.passed + optionalTally.failed
        print("\(draft) total: \(requiredTally.passed + optionalTally.passed) of \(total) passed")

        for failure in requiredTally.unexpected + optionalTally.unexpected {
            Issue.record("unexpected failure: \(failure)")
        }
        for fixed in requiredTally.fixed + optionalTally.fixed {
            Issue.record("now passes, remove it from known-failures.txt: \(fixed)")
        }
        for listed in Self.knownFailures where listed.hasPrefix(draft + "/") && !listed.hasPrefix(draft + "/optional/") {
            Issue.record("known-failures.txt lists a required test, which must pass: \(listed)")
        }
        let seen = requiredTally.seen.union(optionalTally.seen)
        for stale in Self.knownFailures where stale.hasPrefix(draft + "/") && !seen.contains(stale) {
            Issue.record("known-failures.txt names a test that does not exist: \(stale)")
        }
    }
}
