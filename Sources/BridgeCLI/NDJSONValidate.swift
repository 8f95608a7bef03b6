import BridgeContracts
import Dispatch
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
import JSONCore
import SchemaCheck

/// `validate --ndjson FILE|-`: argument checks, opening the input, the progress line, exit codes.
/// The checking itself is `NDJSONAudit`.
struct NDJSONValidateRun {
    let console: Console

    func run(_ arguments: Arguments, checker: MessageChecker, format: String) throws -> Int32 {
        guard arguments.has("ndjson") else { throw UsageError("--jobs goes with --ndjson") }
        guard arguments.positional.count == 1, let path = arguments.positional.first else {
            throw UsageError("--ndjson reads one input (a file, or - for standard input), not \(arguments.positional.count)")
        }
        let jobs: Int
        if let given = arguments.value("jobs") {
            guard let number = Int(given), number >= 1, number <= 1024 else {
                throw UsageError("--jobs must be a whole number from 1 to 1024, not \"\(given)\"")
            }
            jobs = number
        } else {
            jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)
        }
        let audit = NDJSONAudit(
            checker: checker as? FastMessageChecking ?? SlowPathChecker(wrapped: checker),
            format: format == "json" ? .json : .text, jobs: jobs, console: console)
        // A line longer than a message may be is refused while reading; without a limit
        // (--schema), 64 MiB still bounds what one line may hold in memory.
        let limit = checker.parseLimits.maxBytes
        let lineLimit = limit > 0 ? min(limit, 64 << 20) : 64 << 20

        if path == "-" {
            // The process's standard input is streamed from its descriptor; a test console
            // hands over its bytes.
            if console is ProcessConsole {
                var reader = NDJSONReader(source: FileDescriptorSource(descriptor: .standardInput), lineLimit: lineLimit)
                return try finish(audit, reader: &reader, name: "<stdin>", progress: nil)
            }
            var reader = NDJSONReader(source: InMemorySource(console.readStandardInput()), lineLimit: lineLimit)
            return try finish(audit, reader: &reader, name: "<stdin>", progress: nil)
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : "cannot be read (\(SystemCallError(number: errno)))"
            throw InputError(path, reason)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw InputError(path, "cannot be read") }
        if (status.st_mode & S_IFMT) == S_IFDIR { throw InputError(path, "is a directory, not a file") }
        let size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0
        let progress = console.standardErrorIsTerminal && size > 0 ? ProgressLine(console: console, totalBytes: size) : nil
        var reader = NDJSONReader(source: FileDescriptorSource(descriptor: FileDescriptor(rawValue: descriptor)), lineLimit: lineLimit)
        return try finish(audit, reader: &reader, name: path, progress: progress)
    }

    private func finish<Source: NDJSONByteSource>(
        _ audit: NDJSONAudit, reader: inout NDJSONReader<Source>, name: String, progress: ProgressLine?
    ) throws(InputError) -> Int32 {
        do {
            let counts = try audit.run(reader: &reader) { bytes, lines in progress?.update(bytes: bytes, lines: lines) }
            progress?.clear()
            return counts.invalid > 0 ? ExitCode.invalid : ExitCode.success
        } catch {
            progress?.clear()
            throw InputError(name, error.description)
        }
    }

}

/// A checker without a fast boolean path: the full check decides every line.
private struct SlowPathChecker: FastMessageChecking {
    let wrapped: MessageChecker
    var parseLimits: ParseLimits { wrapped.parseLimits }
    func check(_ document: JSONDocument) -> CheckOutcome { wrapped.check(document) }
    func isValid(_ document: JSONDocument) -> Bool { wrapped.check(document).valid }
}

/// `12,345 lines, 40% of 52 MB` on stderr, rewritten in place at most four times a second (the
/// first time at once). Made only when standard error is a terminal: a pipe or a log file never
/// gets the carriage returns.
final class ProgressLine {
    let console: Console
    let totalBytes: Int
    let command: String
    private var lastUpdate: UInt64?
    private var shown = false

    init(console: Console, totalBytes: Int, command: String = "validate") {
        self.console = console
        self.totalBytes = totalBytes
        self.command = command
    }

    func update(bytes: Int, lines: Int) {
        let now = DispatchTime.now().uptimeNanoseconds
        if let lastUpdate, now - lastUpdate < 250_000_000 { return }
        lastUpdate = now
        shown = true
        let percent = min(100, bytes * 100 / max(1, totalBytes))
        let megabytes = Double(totalBytes) / 1_000_000
        console.status("\rbridgectl \(command): \(lines) lines, \(percent)% of \(Self.oneDecimal(megabytes)) MB")
    }

    /// `value` as printf's "%.1f" writes it (String(format:) is in Foundation, not FoundationEssentials).
    private static func oneDecimal(_ value: Double) -> String {
        withVaList([value]) { arguments in
            var text = [CChar](repeating: 0, count: 64)
            _ = vsnprintf(&text, text.count, "%.1f", arguments)
            return text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        }
    }

    func clear() {
        if shown { console.status("\r\u{1B}[K") }
    }
}
