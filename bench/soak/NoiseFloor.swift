/// The machine's own tail, the peers of the in-process latency: a fixed amount of work, the same
/// every time, timed like one message.
///
/// - In registers (`workingSetKiB` 0): a chain of multiply-xorshift steps. Its spread is what the
///   machine takes from computing in those minutes (other tenants, interrupts, frequency changes);
///   cache misses and contention for memory do not show in it.
/// - Over a working set: a chain of dependent reads in random order through a buffer of that
///   size. At 1 MiB (this machine's L2 per core) some reads go to the L3 that other tenants
///   share, as a message's do, so its spread is what the machine takes from a memory-touching
///   task of the same length.
enum NoiseFloor {
    /// `samples` timings of a loop calibrated to take `microseconds` at its median.
    static func measure(microseconds: Double, samples: Int, workingSetKiB: Int = 0) -> (histogram: LatencyHistogram, iterations: Int) {
        var chain = Chain(kibibytes: workingSetKiB)
        let target = microseconds * 1000
        var iterations = calibrate(targetNanoseconds: target, &chain)
        var histogram = LatencyHistogram()
        // The calibration's few hundred timings can fall in a busy stretch of the machine and set
        // the loop to half the median asked for (a shorter loop is hit by fewer of the machine's
        // hiccups, so its tail would look quieter): a run whose own median misses by more than
        // a tenth sets the length again from that median, at most twice.
        for attempt in 1...3 {
            histogram = time(iterations, samples: samples, &chain)
            let median = histogram.percentile(0.5)
            if abs(median - target) <= 0.1 * target || attempt == 3 { break }
            iterations = max(1, Int((Double(iterations) * target / max(1, median)).rounded()))
        }
        return (histogram, iterations)
    }

    private static func time(_ iterations: Int, samples: Int, _ chain: inout Chain) -> LatencyHistogram {
        var histogram = LatencyHistogram()
        var sink: UInt64 = 0
        for _ in 0..<samples {
            let start = monotonicNanoseconds()
            sink &+= chain.run(iterations)
            histogram.add(monotonicNanoseconds() &- start)
        }
        if sink == 42 { print("") }  // keeps the loop's result alive
        return histogram
    }

    /// Iterations whose median time is the target: scaled from 301 timings of a trial length, then
    /// again from 301 timings of each estimate until one lands within 3% (a short run's caches are
    /// not a long one's), at most five times.
    private static func calibrate(targetNanoseconds: Double, _ chain: inout Chain) -> Int {
        var iterations = 20_000
        for _ in 0..<5 {
            var times: [UInt64] = []
            var sink: UInt64 = 0
            for _ in 0..<301 {
                let start = monotonicNanoseconds()
                sink &+= chain.run(iterations)
                times.append(monotonicNanoseconds() &- start)
            }
            if sink == 42 { print("") }
            let median = max(1, Double(times.sorted()[times.count / 2]))
            if iterations != 20_000, abs(median - targetNanoseconds) <= 0.03 * targetNanoseconds { break }
            iterations = max(1, Int((Double(iterations) * targetNanoseconds / median).rounded()))
        }
        return iterations
    }

    /// The work: steps in registers, or reads through `next` (one cycle through every slot, in
    /// a fixed pseudo-random order, so each read waits for the one before and no prefetcher can
    /// guess it).
    private struct Chain {
        private var next: [UInt32]
        private var position: UInt32 = 0

        init(kibibytes: Int) {
            let count = kibibytes * 1024 / MemoryLayout<UInt32>.stride
            guard count > 1 else {
                next = []
                return
            }
            var order = Array(UInt32(0)..<UInt32(count))
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            for index in stride(from: count - 1, to: 0, by: -1) {  // Fisher-Yates, fixed seed
                state = (state ^ (state &>> 29)) &* 0xBF58_476D_1CE4_E5B9
                order.swapAt(index, Int(state % UInt64(index + 1)))
            }
            next = [UInt32](repeating: 0, count: count)
            for index in 0..<count { next[Int(order[index])] = order[(index + 1) % count] }
        }

        mutating func run(_ iterations: Int) -> UInt64 {
            next.isEmpty ? NoiseFloor.spin(iterations) : chase(iterations)
        }

        /// Not optimised away: see `spin`.
        @inline(never) @_optimize(none)
        private mutating func chase(_ iterations: Int) -> UInt64 {
            var at = position
            var step = 0
            next.withUnsafeBufferPointer { slots in
                while step < iterations {
                    at = slots[Int(at)]
                    step &+= 1
                }
            }
            position = at
            return UInt64(at)
        }
    }

    /// A dependent chain of multiply-xorshift steps. Not optimised: the optimiser would see a pure
    /// function of a constant and time it once, outside the clock reads.
    @inline(never) @_optimize(none)
    private static func spin(_ iterations: Int) -> UInt64 {
        var value: UInt64 = 0x9E37_79B9_7F4A_7C15
        var step = 0
        while step < iterations {
            value = (value ^ (value &>> 29)) &* 0xBF58_476D_1CE4_E5B9
            step &+= 1
        }
        return value
    }
}
