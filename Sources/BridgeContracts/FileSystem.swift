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

/// The file-system questions the package asks beyond what FoundationEssentials' FileManager
/// answers the same way on every platform. Foundation's forms of them (`ObjCBool`, `NSNumber`
/// sizes, NSError text) would link Foundation and ICU, which dominated a one-file `validate`.
/// Shared by BridgeContracts (contract folders) and BridgeCLI (input files, generated files).
package enum FileSystem {
    /// What stat(2) says about a path.
    package struct Status {
        package let isDirectory: Bool
        package let size: Int
    }

    /// The status of what `path` names, following symbolic links (as `FileManager.fileExists`
    /// does); nil when nothing can be reached there.
    package static func status(atPath path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(isDirectory: (info.st_mode & S_IFMT) == S_IFDIR, size: Int(info.st_size))
    }

    /// One line for an error thrown by FileManager or `Data.write`: "path: reason", e.g.
    /// "js/testing: Not a directory".
    package static func describe(_ error: any Error) -> String {
        guard let error = error as? CocoaError else { return "\(error)" }
        let reason = (error.underlying as? POSIXError).map { "\(SystemCallError(number: $0.code.rawValue))" }
            ?? "file error \(error.code.rawValue)"
        return error.filePath.map { "\($0): \(reason)" } ?? reason
    }
}

/// A POSIX call that failed, by its errno; described in strerror(3) words ("Not a directory").
package struct SystemCallError: Error, CustomStringConvertible {
    package let number: Int32

    package init(number: Int32) {
        self.number = number
    }

    package var description: String { String(cString: strerror(number)) }
}
