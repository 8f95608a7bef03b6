import Foundation

/// The repository's example contract set (contracts/), which nothing compiles in: tests load it
/// explicitly, e.g. `ContractSet.load(directory: ExampleContracts.path)`.
public enum ExampleContracts {
    /// The absolute path of contracts/.
    public static let path = RepositoryPaths.contracts.path

    /// Every .json file of contracts/, by path relative to it (what `ContractSet(files:origin:)` takes).
    public static func files() throws -> [String: String] {
        try RepositoryPaths.jsonFiles(under: "contracts")
    }
}

/// A temporary folder for one test, removed with everything in it when `body` returns or throws.
public func withTemporaryFolder<T>(_ name: String, _ body: (URL) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridgekit-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder)
}
