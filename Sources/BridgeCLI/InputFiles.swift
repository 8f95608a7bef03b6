import BridgeContracts
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a command's input file (or `-` for standard input) with the checks every command
/// needs: not a directory, readable, not empty, not over a size limit. Errors are one line.
struct InputFile {
    let name: String
    let bytes: Data

    static func read(_ path: String, maxBytes: Int, console: Console) -> Result<InputFile, InputError> {
        let data: Data
        if path == "-" {
            data = console.readStandardInput()
        } else {
            guard let status = FileSystem.status(atPath: path) else {
                return .failure(InputError(path, "no such file"))
            }
            guard !status.isDirectory else { return .failure(InputError(path, "is a directory, not a file")) }
            if status.size > maxBytes {
                return .failure(InputError(path, "is \(status.size) bytes; the limit is \(maxBytes) bytes"))
            }
            guard let contents = FileManager.default.contents(atPath: path) else {
                return .failure(InputError(path, "cannot be read (permission denied?)"))
            }
            data = contents
        }
        let name = path == "-" ? "<stdin>" : path
        if data.count > maxBytes { return .failure(InputError(name, "is \(data.count) bytes; the limit is \(maxBytes) bytes")) }
        if data.isEmpty { return .failure(InputError(name, "is empty; expected one JSON document")) }
        return .success(InputFile(name: name, bytes: data))
    }
}

struct InputError: Error {
    let name: String
    let message: String
    init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }
    var line: String { "\(name): \(message)" }
}
