import DeeplinkRouting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a command reads and writes. The real one is the process's streams; tests use
/// `CapturingConsole` and read what was printed.
public protocol Console: AnyObject {
    func out(_ text: String)
    /// A message for the person at the terminal. Control characters in it (a file name, an
    /// option typed or pasted) are shown escaped, never sent to the terminal as commands.
    func err(_ text: String)
    /// A status line that steers the terminal itself (`\r`, erase to the end of the line), on
    /// standard error and written as it is.
    func status(_ text: String)
    /// All of standard input (for `-`).
    func readStandardInput() -> Data
    /// Reads standard input line by line until it ends (for `host --stdio`).
    func readLine() -> String?
    var standardErrorIsTerminal: Bool { get }
}

public final class ProcessConsole: Console {
    public init() {}
    public func out(_ text: String) { Self.write(text, to: .standardOutput, named: "standard output") }
    public func err(_ text: String) { Self.write(TerminalText.visible(text), to: .standardError, named: "standard error") }
    public func status(_ text: String) { Self.write(text, to: .standardError, named: "standard error") }

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
    public func err(_ text: String) { stderr += TerminalText.visible(text) }
    public func status(_ text: String) { stderr += text }
    public func readStandardInput() -> Data { defer { input = Data() }; return input }
    public func readLine() -> String? { lines.isEmpty ? nil : lines.removeFirst() }
    /// Set by a test that plays a terminal (progress lines are written only to one).
    public var standardErrorIsTerminal = false
}

/// Text as the terminal should show it: control characters other than newline and tab (C0, DEL,
/// C1) are written as `\u{1B}`, so a message that quotes what came from outside cannot move the
/// cursor, recolour the terminal or set its title.
public enum TerminalText {
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var shown = ""
        shown.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        LinkText.isControl(scalar) && scalar != "\n" && scalar != "\t"
    }
}
