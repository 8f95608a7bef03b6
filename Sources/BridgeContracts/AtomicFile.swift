#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file that could not be written, with the path and the system's reason.
public struct FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public var description: String { "\(path): cannot be written: \(reason)" }
}

extension FileSystem {
    /// Replaces the file at `path` with `contents` so that a reader sees the old file or the new
    /// one, never a part: the text goes to a temporary file in the same folder (same file system,
    /// so rename(2) is atomic), is flushed, and is renamed over the target. On any failure the
    /// temporary file is removed and the target is untouched.
    package static func replaceAtomically(atPath path: String, contents: String) throws(FileWriteError) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (folder.isEmpty ? "" : folder + "/") + ".\(name).tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FileWriteError(path: path, reason: "\(SystemCallError(number: errno)) (creating \(temporary))")
        }
        var failure: FileWriteError?
        let bytes = Array(contents.utf8)
        var written = 0
        while written < bytes.count && failure == nil {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno != EINTR { failure = FileWriteError(path: path, reason: "\(SystemCallError(number: errno))") }
            } else {
                written += count
            }
        }
        if failure == nil && fsync(descriptor) != 0 { failure = FileWriteError(path: path, reason: "\(SystemCallError(number: errno))") }
        if close(descriptor) != 0 && failure == nil { failure = FileWriteError(path: path, reason: "\(SystemCallError(number: errno))") }
        if failure == nil && rename(temporary, path) != 0 { failure = FileWriteError(path: path, reason: "\(SystemCallError(number: errno))") }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// The UTF-8 text of a file, nil when it cannot be read.
    package static func text(atPath path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
