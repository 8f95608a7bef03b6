import Foundation

/// Folders of the repository that tests read (the contracts, the JSON-Schema-Test-Suite, the
/// examples), found from this file's place in the source tree: Tests/TestSupport/.
public enum RepositoryPaths {
    /// The folder that holds Package.swift.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// contracts/: manifest, routes, schemas, fixtures.
    public static let contracts = root.appendingPathComponent("contracts")

    /// Tests/json-schema-test-suite/: the official suite, copied in with its licence.
    public static let testSuite = root.appendingPathComponent("Tests/json-schema-test-suite")

    /// A path below the root, e.g. "contracts/routes.json".
    public static func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative)
    }

    /// The UTF-8 text of a file below the root.
    public static func text(_ relative: String) throws -> String {
        try String(contentsOf: url(relative), encoding: .utf8)
    }

    /// Every .json file below `folder` (e.g. "contracts") as path relative to it -> UTF-8 text.
    public static func jsonFiles(under folder: String) throws -> [String: String] {
        let base = url(folder).standardizedFileURL
        guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: base.path])
        }
        var files: [String: String] = [:]
        for case let file as URL in walker where file.pathExtension == "json" {
            let relative = String(file.standardizedFileURL.path.dropFirst(base.path.count + 1))
            files[relative] = try String(contentsOf: file, encoding: .utf8)
        }
        return files
    }
}
