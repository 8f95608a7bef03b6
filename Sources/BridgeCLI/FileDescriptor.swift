import BridgeContracts
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor, read and written with POSIX calls. It stands in for FileHandle,
/// which FoundationEssentials does not have: linking Foundation (and with it ICU) cost more
/// start-up than the rest of a one-file `bridgectl validate`.
struct FileDescriptor {
    let rawValue: Int32

    static let standardInput = FileDescriptor(rawValue: 0)
    static let standardOutput = FileDescriptor(rawValue: 1)
    static let standardError = FileDescriptor(rawValue: 2)

    var isTerminal: Bool { isatty(rawValue) != 0 }

    /// Reads up to `buffer.count` bytes; 0 means the end of the input.
    func readSome(into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Int {
        while true {
            let count = read(rawValue, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw SystemCallError(number: errno) }
        }
    }

    /// Everything up to the end of the input.
    func readToEnd() throws(SystemCallError) -> [UInt8] {
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { chunk.deallocate() }
        while true {
            let count = try readSome(into: chunk)
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Writes all of `text`: one write(2) may take only part of it.
    func writeAll(_ text: String) throws(SystemCallError) {
        var text = text
        let failure: Int32? = text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
                if count >= 0 {
                    offset += count
                } else if errno != EINTR {
                    return errno
                }
            }
            return nil
        }
        if let failure { throw SystemCallError(number: failure) }
    }
}
