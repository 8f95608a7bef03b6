import Foundation

/// A folder of its own under the system's temporary folder (`bridgekit-NAME-UUID`), for one test.
/// Remove it in a `defer` right where it is made, so a failing test leaves nothing behind either:
///
///     let folder = try TemporaryFolder("diff")
///     defer { folder.remove() }
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("bridgekit-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public var path: String { url.path }

    /// A path inside the folder (nothing is created).
    public func url(_ relative: String) -> URL {
        url.appendingPathComponent(relative)
    }

    /// Writes `contents` to `name` inside the folder and returns its path.
    @discardableResult
    public func write(_ contents: Data, to name: String) throws -> String {
        let file = url(name)
        try contents.write(to: file)
        return file.path
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A temporary folder holding `files` (relative path -> UTF-8 text; folders are made as needed),
/// removed with everything in it when `body` returns or throws.
public func withTemporaryFiles(_ name: String, _ files: [String: String], _ body: (URL) throws -> Void) throws {
    let folder = try TemporaryFolder(name)
    defer { folder.remove() }
    for (path, text) in files {
        let url = folder.url(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
    try body(folder.url)
}
