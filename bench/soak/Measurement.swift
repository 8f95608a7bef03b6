#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock (never steps back, unaffected by clock changes).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// One read(2) of standard input.
func readChunkOfStandardInput(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(0, buffer.baseAddress, buffer.count)
}

/// CPU time of the whole process (user + system), in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// A field of /proc/self/status in KiB (VmHWM: peak resident set; VmRSS: now). nil off Linux.
func procStatusKiB(_ field: String) -> Int? {
    guard let file = fopen("/proc/self/status", "r") else { return nil }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard text.hasPrefix(field + ":") else { continue }
        return Int(text.dropFirst(field.count + 1).filter(\.isNumber))
    }
    return nil
}

/// Latencies in a fixed amount of memory, so the measuring does not grow with the run: 10 ns
/// buckets up to 100 µs, 1 µs buckets up to 10 ms, then one bucket per power of two.
struct LatencyHistogram {
    private var fine = [UInt32](repeating: 0, count: 10_000)
    private var medium = [UInt32](repeating: 0, count: 9_900)
    private var coarse = [UInt32](repeating: 0, count: 64)
    private(set) var count = 0
    private(set) var maximum: UInt64 = 0
    private(set) var total: UInt64 = 0

    mutating func add(_ nanoseconds: UInt64) {
        count += 1
        total &+= nanoseconds
        maximum = max(maximum, nanoseconds)
        if nanoseconds < 100_000 {
            fine[Int(nanoseconds / 10)] += 1
        } else if nanoseconds < 10_000_000 {
            medium[Int(nanoseconds / 1_000) - 100] += 1
        } else {
            coarse[63 - nanoseconds.leadingZeroBitCount] += 1
        }
    }

    /// The smallest bucket bound below which `fraction` of the values lie, in nanoseconds (the
    /// bucket's upper edge: 10 ns resolution up to 100 µs).
    func percentile(_ fraction: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = max(1, Int((Double(count) * fraction).rounded(.up)))
        var seen = 0
        for (index, hits) in fine.enumerated() {
            seen += Int(hits)
            if seen >= rank { return Double((index + 1) * 10) }
        }
        for (index, hits) in medium.enumerated() {
            seen += Int(hits)
            if seen >= rank { return Double((index + 101) * 1_000) }
        }
        for (index, hits) in coarse.enumerated() {
            seen += Int(hits)
            if seen >= rank { return min(Double(maximum), Double(UInt64(1) << UInt64(min(63, index + 1)))) }
        }
        return Double(maximum)
    }

    mutating func merge(_ other: LatencyHistogram) {
        for index in fine.indices { fine[index] += other.fine[index] }
        for index in medium.indices { medium[index] += other.medium[index] }
        for index in coarse.indices { coarse[index] += other.coarse[index] }
        count += other.count
        total &+= other.total
        maximum = max(maximum, other.maximum)
    }
}

/// One bit per message or envelope number: 500,000 of them take 61 KiB.
struct Bitset {
    private var words: [UInt64] = []

    func contains(_ index: Int) -> Bool {
        let word = index >> 6
        return word < words.count && words[word] & (1 << UInt64(index & 63)) != 0
    }

    /// Sets the bit; false when it was already set.
    @discardableResult
    mutating func insert(_ index: Int) -> Bool {
        let word = index >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        let mask: UInt64 = 1 << UInt64(index & 63)
        if words[word] & mask != 0 { return false }
        words[word] |= mask
        return true
    }

    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }
}
