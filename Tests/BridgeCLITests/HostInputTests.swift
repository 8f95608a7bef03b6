import Foundation
import Testing
@testable import BridgeCLI

/// `host --stdio` reads its input through `StandardHostInput`: what it holds is bounded by one
/// read past the line it hands on, whatever the length of a line.
@Suite("host --stdio input: bounded by the line limit, not by the input")
struct HostInputTests {
    @Test("a line past the limit is cut to limit + 1 bytes (reported as too long) and its rest skipped unbuffered; the next line is whole")
    func overlongLineIsSkipped() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let huge = 3 * 1024 * 1024
        let writer = Thread {
            func send(_ bytes: [UInt8]) {
                var offset = 0
                while offset < bytes.count {
                    let written = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                    if written <= 0 { return }
                    offset += written
                }
            }
            send(Array("first\n".utf8))
            for _ in 0..<(huge / 65_536) { send([UInt8](repeating: UInt8(ascii: "x"), count: 65_536)) }
            send(Array("\nlast\r\n".utf8))
            close(writeEnd)
        }
        writer.start()
        defer { close(readEnd) }
        var input = StandardHostInput(descriptor: readEnd, maxLineBytes: 1024)
        var lines: [String] = []
        reading: while true {
            switch input.next(timeoutMs: 10_000) {
            case .line(let line): lines.append(line)
            case .timeout: Issue.record("the writer stalled"); break reading
            case .end: break reading
            }
        }
        #expect(lines.count == 3)
        #expect(lines.first == "first" && lines.last == "last")
        #expect(lines.dropFirst().first?.utf8.count == 1025)
        // Never the 3 MiB line: at most the limit, under 64 KiB handed on, and one 64 KiB read.
        #expect(input.largestBufferBytes <= 2 * 65_536 + 1025)
        #expect(input.largestBufferBytes >= 1025)
    }
}
