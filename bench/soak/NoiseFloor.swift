/// The machine's own tail, the peer of the in-process latency: a fixed amount of arithmetic in
/// registers, the same every time, timed like one message. The spread of its timings is what the
/// machine takes from computing in those minutes (other tenants, interrupts, frequency changes);
/// cache misses, allocation and contention for memory do not show in it, and do in a message's.
enum NoiseFloor {
    /// `samples` timings of a loop calibrated to take `microseconds` at its median.
    static func measure(microseconds: Double, samples: Int) -> (histogram: LatencyHistogram, iterations: Int) {
        let iterations = calibrate(targetNanoseconds: microseconds * 1000)
        var histogram = LatencyHistogram()
        var sink: UInt64 = 0
        for _ in 0..<samples {
            let start = monotonicNanoseconds()
            sink &+= spin(iterations)
            histogram.add(monotonicNanoseconds() &- start)
        }
        if sink == 42 { print("") }  // keeps the loop's result alive
        return (histogram, iterations)
    }

    /// Iterations whose median time is the target, from 301 timings of a trial length.
    private static func calibrate(targetNanoseconds: Double) -> Int {
        let trial = 20_000
        var times: [UInt64] = []
        var sink: UInt64 = 0
        for _ in 0..<301 {
            let start = monotonicNanoseconds()
            sink &+= spin(trial)
            times.append(monotonicNanoseconds() &- start)
        }
        if sink == 42 { print("") }
        let median = Double(times.sorted()[times.count / 2])
        return max(1, Int((Double(trial) * targetNanoseconds / max(1, median)).rounded()))
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
