#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which contract set a command uses when it is not told, found the way buf finds its config:
/// `--contracts DIR` when given; else the nearest `contracts/manifest.json` from the working
/// folder upward; else the folder in `BRIDGEKIT_CONTRACTS`. Nothing is compiled in and nothing
/// is a fallback: with none of the three, it is an error that points at `bridgectl init`.
public struct ContractDiscovery: Sendable, Equatable {
    /// How the set was found, for `bridgectl version`.
    public enum Source: String, Sendable, Equatable {
        case flag = "--contracts"
        case nearestFolder = "nearest contracts/ folder"
        case environment = "BRIDGEKIT_CONTRACTS"
    }

    public static let environmentVariable = "BRIDGEKIT_CONTRACTS"
    /// What is said of the working folder when no set is found (one line; the command exits 2).
    public static let notFoundMessage = "no contracts/manifest.json here or in any folder above, and \(environmentVariable) is not set (create a set with `bridgectl init`, or pass --contracts DIR)"

    /// The folder as a command names it in hints: as given, or relative to the working folder
    /// (`contracts`, `../contracts`) when found upward, so a printed command runs from there.
    public let directory: String
    public let source: Source

    public init(directory: String, source: Source) {
        self.directory = directory
        self.source = source
    }

    /// The set to use. `workingDirectory` and `environment` are injected so tests need not
    /// change the process's folder or environment.
    public static func find(
        flag: String?, workingDirectory: String, environment: [String: String]
    ) throws(ContractError) -> ContractDiscovery {
        if let flag {
            guard !flag.isEmpty else { throw ContractError(file: "--contracts", message: "is empty (give a contracts folder)") }
            return ContractDiscovery(directory: flag, source: .flag)
        }
        if let nearest = nearestFolder(from: workingDirectory) {
            return ContractDiscovery(directory: nearest, source: .nearestFolder)
        }
        if let variable = environment[environmentVariable], !variable.isEmpty {
            return ContractDiscovery(directory: variable, source: .environment)
        }
        throw ContractError(file: workingDirectory, message: notFoundMessage)
    }

    /// The process's own working folder and environment.
    public static func find(flag: String?) throws(ContractError) -> ContractDiscovery {
        try find(flag: flag, workingDirectory: FileManager.default.currentDirectoryPath,
                 environment: ProcessInfo.processInfo.environment)
    }

    /// `contracts`, `../contracts`, ... for the first folder upward that holds
    /// contracts/manifest.json as a regular file; nil when no folder up to the root does.
    static func nearestFolder(from workingDirectory: String) -> String? {
        var folder = URL(fileURLWithPath: workingDirectory).standardizedFileURL
        var levels = 0
        while true {
            let manifest = folder.appendingPathComponent("contracts/manifest.json").path
            if FileSystem.status(atPath: manifest)?.isDirectory == false {
                return String(repeating: "../", count: levels) + "contracts"
            }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if parent.path == folder.path { return nil }
            folder = parent
            levels += 1
        }
    }

    /// What `bridgectl version` says about it.
    public var summary: String {
        switch source {
        case .flag: return "\(directory) (from --contracts)"
        case .nearestFolder: return "\(directory) (the nearest contracts/ folder with a manifest.json)"
        case .environment: return "\(directory) (from \(Self.environmentVariable))"
        }
    }

    /// The folder that holds the contracts folder (`.` for `contracts`, `..` for `../contracts`,
    /// `/srv/app` for `/srv/app/contracts`): where default outputs such as the web kit go.
    public var projectFolder: String {
        var path = directory
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `--contracts DIR`, shell-quoted, for a printed command that must use the same set.
    public var flagText: String { "--contracts " + ShellWord.quoted(directory) }
}

/// A word as a POSIX shell reads it back: as it is when it is plain, else in single quotes.
public enum ShellWord {
    public static func quoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+:=@%,".unicodeScalars.contains(scalar))
        }
        return plain ? word : "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
