#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import BridgeHostTesting

// Where `host --stdio` reads its lines (HostSessionInput): the process's standard input is polled
// with a timeout, so a slow step completes on time while no line comes; a test's console answers
// at once.

/// A console's lines (tests): they are all there, so no timeout is ever needed.
struct ConsoleHostInput: HostSessionInput {
    let console: Console
    mutating func next(timeoutMs: Int?) -> HostSessionInputEvent {
        console.readLine().map(HostSessionInputEvent.line) ?? .end
    }
}

/// Standard input read with poll(2) and read(2), not stdio: a line stdio had already buffered
/// would be invisible to poll, and the host would sleep on it.
///
/// Holds at most `maxLineBytes` + 128 KiB, whatever the input: a line longer than `maxLineBytes`
/// is handed on cut to `maxLineBytes + 1` bytes (so the session reports it as too long) and the
/// rest of it is skipped as it arrives, never buffered. Input is read only when no whole line is
/// buffered, so a host that stops reading (its stdout blocks) stops its writer too.
struct StandardHostInput: HostSessionInput {
    let descriptor: Int32
    let maxLineBytes: Int
    private var buffer: [UInt8] = []
    /// Where the unread bytes of `buffer` begin (lines are not removed one by one: that would move
    /// the rest of the buffer for every line).
    private var start = 0
    /// Inside a line that was too long: its bytes are dropped up to its newline.
    private var skipping = false
    private var ended = false

    init(descriptor: Int32 = 0, maxLineBytes: Int = HostSession.maxLineBytes) {
        self.descriptor = descriptor
        self.maxLineBytes = maxLineBytes
    }

    /// The most bytes the buffer ever held (for the test of the bound): at most `maxLineBytes`
    /// unread, under 64 KiB already handed on and not yet dropped, and one 64 KiB read.
    private(set) var largestBufferBytes = 0

    mutating func next(timeoutMs: Int?) -> HostSessionInputEvent {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = buffer[start..<newline]
                start = newline + 1
                if skipping {
                    skipping = false
                    continue
                }
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                return .line(String(decoding: line, as: UTF8.self))
            }
            if skipping {
                start = buffer.count
            } else if buffer.count - start > maxLineBytes {
                let cut = buffer[start..<(start + maxLineBytes + 1)]
                start = buffer.count
                skipping = true
                return .line(String(decoding: cut, as: UTF8.self))
            }
            if start > 0 && (start == buffer.count || start >= 1 << 16) {
                buffer.removeFirst(start)
                start = 0
            }
            if ended {
                guard start < buffer.count, !skipping else { return .end }
                defer { buffer.removeAll(); start = 0 }
                return .line(String(decoding: buffer[start...], as: UTF8.self))
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, Int32(clamping: timeoutMs ?? -1))
            if ready < 0 {
                if errno == EINTR { continue }
                ended = true
                continue
            }
            if ready == 0 { return .timeout }
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                ended = true
            } else if count == 0 {
                ended = true
            } else {
                buffer.append(contentsOf: chunk[..<count])
                largestBufferBytes = max(largestBufferBytes, buffer.count)
            }
        }
    }
}

/// Sleeps the calling thread (the host has nothing to do until its next scheduled work).
func sleepMs(_ milliseconds: Int) {
    guard milliseconds > 0 else { return }
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}
