import Foundation

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
    public func out(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    public func err(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
    public func readStandardInput() -> Data { FileHandle.standardInput.readDataToEndOfFile() }
    public func readLine() -> String? { Swift.readLine(strippingNewline: true) }
    public var standardErrorIsTerminal: Bool { isatty(2) != 0 }
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
