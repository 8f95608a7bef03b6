import BridgeContracts
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

/// Reads a command's input file (or `-` for standard input) with the checks every command
/// needs: not a directory, readable, not empty, not over a size limit, no byte-order mark.
/// Pipes and process substitutions (`<(...)`, /dev/fd/N) are read like files. Errors are one line.
struct InputFile {
    let name: String
    let bytes: Data

    /// What every command says about a file that starts with a UTF-8 byte-order mark (some Windows
    /// editors write one): JSON has none, and the parser's own message named an invisible character.
    static let byteOrderMarkMessage = "file starts with a UTF-8 byte-order mark (remove it)"

    static func read(_ path: String, maxBytes: Int, console: Console) -> Result<InputFile, InputError> {
        let data: Data
        if path == "-" {
            data = console.readStandardInput()
        } else {
            switch readBytes(path, maxBytes: maxBytes) {
            case .failure(let error): return .failure(error)
            case .success(let bytes): data = Data(bytes)
            }
        }
        let name = path == "-" ? "<stdin>" : path
        if data.count > maxBytes { return .failure(InputError(name, "is \(data.count) bytes; the limit is \(maxBytes) bytes")) }
        if data.isEmpty { return .failure(InputError(name, "is empty; expected one JSON document")) }
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { return .failure(InputError(name, byteOrderMarkMessage)) }
        return .success(InputFile(name: name, bytes: data))
    }

    /// The bytes of a file, a pipe or a character device, at most `maxBytes` + 1 of them (so a
    /// caller can tell "too large" from "exactly at the limit").
    static func readBytes(_ path: String, maxBytes: Int) -> Result<[UInt8], InputError> {
        guard let status = FileSystem.status(atPath: path) else {
            return .failure(InputError(path, "no such file"))
        }
        guard !status.isDirectory else { return .failure(InputError(path, "is a directory, not a file")) }
        if status.size > maxBytes {
            return .failure(InputError(path, "is \(status.size) bytes; the limit is \(maxBytes) bytes"))
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            return .failure(InputError(path, "cannot be read (\(SystemCallError(number: errno)))"))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { chunk.deallocate() }
        while bytes.count <= maxBytes {
            do {
                let count = try FileDescriptor(rawValue: descriptor).readSome(into: chunk)
                if count == 0 { break }
                bytes.append(contentsOf: chunk[..<count])
            } catch {
                return .failure(InputError(path, "cannot be read (\(error))"))
            }
        }
        if bytes.count > maxBytes { return .failure(InputError(path, "is over \(maxBytes) bytes, the limit")) }
        return .success(bytes)
    }
}

struct InputError: Error, CustomStringConvertible {
    let name: String
    let message: String
    init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }
    var line: String { "\(name): \(message)" }
    var description: String { line }
}
