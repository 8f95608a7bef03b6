#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a command reads and writes. The real one is the process's streams; tests use
/// `CapturingConsole` and read what was printed.
public protocol Console: AnyObject {
    func out(_ text: String)
    func err(_ text: String)
    /// All of standard input (for `-`).
    func readStandardInput() -> Data
    /// Reads standard input line by line until it ends (for `host --stdio`).
    func readLine() -> String?
    var standardErrorIsTerminal: Bool { get }
}

public final class ProcessConsole: Console {
    public init() {}
    public func out(_ text: String) { Self.write(text, to: .standardOutput, named: "standard output") }
    public func err(_ text: String) { Self.write(text, to: .standardError, named: "standard error") }

    public func readStandardInput() -> Data {
        do {
            return Data(try FileDescriptor.standardInput.readToEnd())
        } catch {
            // Input that cannot be read is not an empty document; FileHandle trapped here too.
            fatalError("bridgectl: cannot read standard input: \(error)")
        }
    }

    public func readLine() -> String? { Swift.readLine(strippingNewline: true) }
    public var standardErrorIsTerminal: Bool { FileDescriptor.standardError.isTerminal }

    /// A command whose output is lost must not exit 0 as if it had printed it; FileHandle
    /// trapped on a failed write too.
    private static func write(_ text: String, to descriptor: FileDescriptor, named name: String) {
        do {
            try descriptor.writeAll(text)
        } catch {
            fatalError("bridgectl: cannot write to \(name): \(error)")
        }
    }
}

public final class CapturingConsole: Console {
    public private(set) var stdout = ""
    public private(set) var stderr = ""
    private var input: Data
    private var lines: [String]

    public init(input: Data = Data()) {
        self.input = input
        self.lines = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
    }

    public func out(_ text: String) { stdout += text }
    public func err(_ text: String) { stderr += text }
    public func readStandardInput() -> Data { defer { input = Data() }; return input }
    public func readLine() -> String? { lines.isEmpty ? nil : lines.removeFirst() }
    public var standardErrorIsTerminal: Bool { false }
}
