import Testing
import TestSupport
import BridgeContracts
@testable import ContractEvolution

/// `LoadedContracts.gitRevision` through a git double: the library asks, the caller answers.
@Suite struct GitRevisionTests {
    /// Answers the commands `gitRevision` runs for one repository at /repo, contracts in
    /// /repo/contracts, revision `v1`; every other command fails, as git would.
    struct FakeGit: GitReading {
        var files: [String: String]
        var revisions: Set<String> = ["v1"]
        var insideRepository = true

        func output(_ arguments: [String]) -> String? {
            guard insideRepository else { return nil }
            switch Array(arguments.prefix(4)) {
            case ["-C", "/repo/contracts", "rev-parse", "--show-toplevel"], ["rev-parse", "--show-toplevel"]:
                return "/repo\n"
            case ["-C", "/repo/contracts", "rev-parse", "--show-prefix"]:
                return "contracts/\n"
            case ["-C", "/repo", "rev-parse", "--verify"]:
                return revisions.contains(String(arguments[5].dropLast("^{commit}".count))) ? "abc\n" : nil
            case ["-C", "/repo", "ls-tree", "-r"]:
                return files.keys.sorted().map { "contracts/" + $0 }.joined(separator: "\0")
            default:
                // git show v1:contracts/<file>
                guard arguments.count == 4, arguments[2] == "show", arguments[3].hasPrefix("v1:contracts/") else { return nil }
                return files[String(arguments[3].dropFirst("v1:contracts/".count))]
            }
        }
    }

    static let example = (try? ExampleContracts.files()) ?? [:]
    static let bundled = example.filter { !$0.key.hasPrefix("fixtures/") }

    @Test func aRevisionIsReadThroughTheGivenGitWithoutFixtures() throws {
        var files = Self.bundled
        files["fixtures/apply/v1/valid-basic.json"] = Self.example.first { $0.key.hasPrefix("fixtures/") }?.value
        let loaded = try LoadedContracts.gitRevision("v1", folder: "/repo/contracts", git: FakeGit(files: files))
        #expect(loaded.files.keys.sorted() == Self.bundled.keys.filter { $0.hasSuffix(".json") }.sorted())
        #expect(loaded.contracts.fixtures.isEmpty)
        #expect(loaded.contracts.manifest.actions.map(\.name) == (try ContractSet(files: Self.bundled, origin: "b")).manifest.actions.map(\.name))
    }

    @Test(arguments: [
        ("v2", "no such revision in /repo"),
        ("-v1", "not a revision"),
        ("", "not a revision"),
    ])
    func aBadRevisionIsRefusedNamingIt(revision: String, message: String) {
        #expect {
            try LoadedContracts.gitRevision(revision, folder: "/repo/contracts", git: FakeGit(files: Self.bundled))
        } throws: { error in
            "\(error)".contains(message) && (revision.isEmpty || "\(error)".contains(revision))
        }
    }

    @Test func aFolderOutsideARepositoryOrWithoutAManifestIsRefused() {
        #expect {
            try LoadedContracts.gitRevision("v1", folder: "/repo/contracts", git: FakeGit(files: Self.bundled, insideRepository: false))
        } throws: { "\($0)".contains("is not inside a git repository") }
        #expect {
            try LoadedContracts.gitRevision("v1", folder: "/repo/contracts", git: FakeGit(files: ["routes.json": "{}"]))
        } throws: { "\($0)".contains("has no contracts (no manifest.json there at this revision)") }
    }
}
