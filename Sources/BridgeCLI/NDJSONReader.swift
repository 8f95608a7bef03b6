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

/// Where NDJSON bytes come from: a file descriptor (a file, or the process's standard input),
/// or bytes already in memory (standard input of a `CapturingConsole` in tests).
protocol NDJSONByteSource {
    /// Reads up to `buffer.count` bytes; 0 means the end of the input.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(NDJSONReadError) -> Int
}

struct NDJSONReadError: Error, CustomStringConvertible {
    let description: String
}

struct FileDescriptorSource: NDJSONByteSource {
    let descriptor: FileDescriptor

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(NDJSONReadError) -> Int {
        do {
            return try descriptor.readSome(into: buffer)
        } catch {
            throw NDJSONReadError(description: "read failed: \(error)")
        }
    }
}

struct InMemorySource: NDJSONByteSource {
    let data: Data
    var offset = 0

    init(_ data: Data) { self.data = data }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(NDJSONReadError) -> Int {
        let count = min(buffer.count, data.count - offset)
        guard count > 0 else { return 0 }
        let start = data.startIndex + offset
        data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + count))
        offset += count
        return count
    }
}

/// One line of the input, by its 1-based number in the input.
enum NDJSONLine: Sendable {
    /// The line's bytes are `batch.bytes[range]` (line ending and a trailing CR removed).
    case text(number: Int, range: Range<Int>)
    /// Longer than the reader buffers; its bytes were skipped to keep memory bounded.
    case tooLong(number: Int, limit: Int)
}

/// A run of whole lines that one worker checks. It owns its bytes, so batches can be checked
/// on different threads while the reader goes on.
struct NDJSONBatch: Sendable {
    var bytes: [UInt8] = []
    var lines: [NDJSONLine] = []
}

/// Splits a byte stream into batches of whole lines, reading fixed-size chunks. Memory is
/// bounded by the chunk size plus one line of at most `lineLimit` bytes, whatever the number
/// of lines: a longer line is reported as `.tooLong` (and skipped up to its newline unread).
struct NDJSONReader<Source: NDJSONByteSource> {
    private var source: Source
    private let chunkSize: Int
    private let lineLimit: Int
    /// The start of a line whose newline has not been read yet.
    private var pending: [UInt8] = []
    /// Inside a too-long line: discard bytes up to its newline.
    private var skipping = false
    private var nextLineNumber = 1
    private var finished = false
    private var chunk: [UInt8]
    /// Bytes consumed so far (for the progress line).
    private(set) var bytesRead = 0

    init(source: Source, lineLimit: Int, chunkSize: Int = 256 * 1024) {
        self.source = source
        self.lineLimit = max(1, lineLimit)
        self.chunkSize = max(1, chunkSize)
        self.chunk = [UInt8](repeating: 0, count: self.chunkSize)
    }

    /// The next batch of lines, or nil at the end of the input. A batch holds at least one line
    /// unless the input is over. Input that starts with a UTF-8 byte-order mark is refused as a
    /// whole (the first line would otherwise be "invalid" for an invisible character).
    mutating func nextBatch() throws(NDJSONReadError) -> NDJSONBatch? {
        let batch = try nextBatchOfLines()
        if !checkedByteOrderMark, let batch {
            checkedByteOrderMark = true
            if case .text(1, let range)? = batch.lines.first, batch.bytes[range].starts(with: [0xEF, 0xBB, 0xBF]) {
                throw NDJSONReadError(description: InputFile.byteOrderMarkMessage)
            }
        }
        return batch
    }

    private var checkedByteOrderMark = false

    private mutating func nextBatchOfLines() throws(NDJSONReadError) -> NDJSONBatch? {
        var batch = NDJSONBatch()
        while batch.lines.isEmpty {
            if finished { return nil }
            let count = try fill()
            if count == 0 {
                finished = true
                if !pending.isEmpty && !skipping {
                    batch.bytes = pending
                    appendLine(to: &batch, start: 0, end: pending.count)
                }
                pending = []
                continue
            }
            split(chunkCount: count, into: &batch)
        }
        return batch
    }

    private mutating func fill() throws(NDJSONReadError) -> Int {
        var source = self.source
        defer { self.source = source }
        let result = chunk.withUnsafeMutableBytes { buffer in
            Result { () throws(NDJSONReadError) in try source.read(into: buffer) }
        }
        let count = try result.get()
        bytesRead += count
        return count
    }

    /// Moves the whole lines of `pending + chunk[0..<chunkCount]` into the batch; keeps the tail.
    private mutating func split(chunkCount: Int, into batch: inout NDJSONBatch) {
        var start = 0
        if skipping {
            guard let newline = firstNewline(from: 0, to: chunkCount) else { return }
            skipping = false
            start = newline + 1
        }
        guard let lastNewline = lastNewline(from: start, to: chunkCount) else {
            pending.append(contentsOf: chunk[start..<chunkCount])
            refuseIfTooLong(into: &batch)
            return
        }
        batch.bytes.reserveCapacity(pending.count + lastNewline + 1 - start)
        batch.bytes.append(contentsOf: pending)
        batch.bytes.append(contentsOf: chunk[start...lastNewline])
        pending.removeAll(keepingCapacity: true)
        pending.append(contentsOf: chunk[(lastNewline + 1)..<chunkCount])
        batch.bytes.withUnsafeBufferPointer { bytes in
            var lineStart = 0
            while lineStart < bytes.count {
                let rest = bytes.count - lineStart
                let found = memchr(bytes.baseAddress! + lineStart, 0x0A, rest)
                let end = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes.baseAddress!) } ?? bytes.count
                appendLine(to: &batch, start: lineStart, end: end)
                lineStart = end + 1
            }
        }
        refuseIfTooLong(into: &batch)
    }

    /// A line that already holds more than `lineLimit` bytes without a newline is refused now,
    /// not buffered until it ends.
    private mutating func refuseIfTooLong(into batch: inout NDJSONBatch) {
        guard pending.count > lineLimit else { return }
        batch.lines.append(.tooLong(number: nextLineNumber, limit: lineLimit))
        nextLineNumber += 1
        pending = []
        skipping = true
    }

    private mutating func appendLine(to batch: inout NDJSONBatch, start: Int, end: Int) {
        var end = end
        if end > start && batch.bytes[end - 1] == 0x0D { end -= 1 }  // CRLF logs
        // The same answer whether the line happened to fit in one chunk or not.
        batch.lines.append(end - start > lineLimit
            ? .tooLong(number: nextLineNumber, limit: lineLimit)
            : .text(number: nextLineNumber, range: start..<end))
        nextLineNumber += 1
    }

    private func firstNewline(from start: Int, to end: Int) -> Int? {
        chunk.withUnsafeBufferPointer { bytes in
            guard end > start, let found = memchr(bytes.baseAddress! + start, 0x0A, end - start) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(bytes.baseAddress!)
        }
    }

    private func lastNewline(from start: Int, to end: Int) -> Int? {
        chunk.withUnsafeBufferPointer { bytes in
            // memrchr is a GNU extension Swift does not import; the last line is short anyway.
            var index = end - 1
            while index >= start {
                if bytes[index] == 0x0A { return index }
                index -= 1
            }
            return nil
        }
    }
}
