#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One read of `host --stdio`'s input.
enum HostInputEvent {
    case line(String)
    /// Nothing came within the timeout: time to run what fell due.
    case timeout
    case end
}

/// Where `host --stdio` reads its lines. The process's standard input is polled with a timeout, so
/// a slow step completes on time while no line comes; a test's console answers at once.
protocol HostInput {
    /// The next line, or `.timeout` after `milliseconds` (nil: wait as long as it takes).
    mutating func next(timeoutMilliseconds: Int?) -> HostInputEvent
}

/// A console's lines (tests): they are all there, so no timeout is ever needed.
struct ConsoleHostInput: HostInput {
    let console: Console
    mutating func next(timeoutMilliseconds: Int?) -> HostInputEvent {
        console.readLine().map(HostInputEvent.line) ?? .end
    }
}

/// Standard input read with poll(2) and read(2), not stdio: a line stdio had already buffered
/// would be invisible to poll, and the host would sleep on it.
struct StandardHostInput: HostInput {
    private var buffer: [UInt8] = []
    private var ended = false

    mutating func next(timeoutMilliseconds: Int?) -> HostInputEvent {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                return .line(String(decoding: line, as: UTF8.self))
            }
            if ended {
                guard !buffer.isEmpty else { return .end }
                defer { buffer.removeAll() }
                return .line(String(decoding: buffer, as: UTF8.self))
            }
            var descriptor = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: timeoutMilliseconds ?? -1))
            if ready < 0 {
                if errno == EINTR { continue }
                ended = true
                continue
            }
            if ready == 0 { return .timeout }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                ended = true
            } else if count == 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
            }
        }
    }
}

/// Sleeps the calling thread (the host has nothing to do until its next scheduled work).
func sleepMilliseconds(_ milliseconds: Int) {
    guard milliseconds > 0 else { return }
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
