#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BridgeContracts

/// Read-only git access, given by the caller: bridgectl runs the git program, tests a double.
/// The library itself starts no process.
public protocol GitReading: Sendable {
    /// The standard output of `git` with these arguments when it exits 0; nil when it fails or
    /// cannot start.
    func output(_ arguments: [String]) -> String?
}

/// Where a contract set for a diff comes from: a folder, or a folder as it was at a git revision.
/// Each keeps the raw files too, for
/// contracts/accepted-changes.json.
public struct LoadedContracts: Sendable {
    public let contracts: ContractSet
    public let files: [String: String]

    /// The accepted changes of this set (none when it has no accepted-changes.json).
    public func acceptedChanges() throws(ContractError) -> AcceptedChanges {
        guard let text = files[AcceptedChanges.fileName] else { return .none }
        return try AcceptedChanges(text: text)
    }

    public init(files: [String: String], origin: String, includingFixtures: Bool = true) throws(ContractError) {
        self.files = files
        contracts = try ContractSet(files: files, origin: origin, includingFixtures: includingFixtures)
    }

    /// Every .json file under `directory`, by path relative to it.
    public static func folder(_ directory: String) throws(ContractError) -> LoadedContracts {
        let root = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard FileSystem.status(atPath: root)?.isDirectory == true else {
            throw ContractError(file: directory, message: "cannot be read: no such folder")
        }
        let subpaths: [String]
        do {
            subpaths = try FileManager.default.subpathsOfDirectory(atPath: root)
        } catch {
            throw ContractError(file: directory, message: "cannot be listed: \(FileSystem.describe(error))")
        }
        var files: [String: String] = [:]
        for relative in subpaths.sorted() where relative.hasSuffix(".json") {
            guard let data = FileManager.default.contents(atPath: root + "/" + relative),
                  let text = String(data: data, encoding: .utf8) else {
                throw ContractError(file: directory + "/" + relative, message: "cannot be read as UTF-8 text")
            }
            files[relative] = text
        }
        return try LoadedContracts(files: files, origin: directory)
    }

    /// The contracts folder `directory` as it was at `revision` of the git repository that holds
    /// it, read with `git rev-parse`, `git ls-tree` and `git show` (nothing is checked out).
    /// Fixtures are not read: a revision's contract is its manifest, routes and schemas.
    public static func gitRevision(_ revision: String, folder directory: String, git: some GitReading) throws(ContractError) -> LoadedContracts {
        guard !revision.isEmpty, !revision.hasPrefix("-") else {
            throw ContractError(file: revision, message: "not a revision")
        }
        let folder = URL(fileURLWithPath: directory).standardizedFileURL.path
        guard let top = git.output(["-C", folder, "rev-parse", "--show-toplevel"])?.trimmedLine, !top.isEmpty else {
            throw ContractError(file: directory, message: "is not inside a git repository")
        }
        let prefix = git.output(["-C", folder, "rev-parse", "--show-prefix"])?.trimmedLine ?? ""
        guard git.output(["-C", top, "rev-parse", "--verify", "--quiet", revision + "^{commit}"]) != nil else {
            throw ContractError(file: revision, message: "no such revision in \(top)")
        }
        guard let listing = git.output(["-C", top, "ls-tree", "-r", "-z", "--name-only", revision, "--", prefix.isEmpty ? "." : prefix]) else {
            throw ContractError(file: revision, message: "cannot list \(prefix.isEmpty ? "the repository" : prefix) at this revision")
        }
        var files: [String: String] = [:]
        for path in listing.split(separator: "\0").map(String.init) where path.hasSuffix(".json") {
            let relative = String(path.dropFirst(prefix.count))
            if relative.hasPrefix("fixtures/") { continue }
            guard let text = git.output(["-C", top, "show", "\(revision):\(path)"]) else {
                throw ContractError(file: "\(revision):\(path)", message: "cannot be read")
            }
            files[relative] = text
        }
        let shown = prefix.isEmpty ? "(repository root)" : String(prefix.dropLast())
        guard files["manifest.json"] != nil else {
            throw ContractError(file: "\(revision):\(shown)", message: "has no contracts (no manifest.json there at this revision)")
        }
        return try LoadedContracts(files: files, origin: "\(revision):\(shown)")
    }
}

extension String {
    fileprivate var trimmedLine: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}
