// SoakBench: a long seeded session through the bridge, for `make soak` (bench/soak.py).
//
//   SoakBench session --messages N [--seed S]   the session as `bridgectl host --stdio` input lines
//   SoakBench check --messages N [--seed S]     reads host --stdio output on stdin, checks nothing
//                                               was lost (exit 1 if something was)
//   SoakBench run --messages N [--seed S] [--latencies FILE] [--host async|callback]
//                                               the same session through BridgeHost and
//                                               DeeplinkNavigator in this process: latencies,
//                                               peak memory, nothing lost (exit 1 if something was);
//                                               FILE gets "number kind nanoseconds" for each valid
//                                               message with a reply; --host callback drives a
//                                               CallbackNavigationHost instead of the async
//                                               NavigationHost (the default)
//   SoakBench noise --microseconds U [--samples N] [--working-set KIB]
//                                               the machine's own tail: a fixed busy loop of
//                                               median U us, timed N times (the latency's peer);
//                                               with KIB, dependent random reads over that much
//                                               memory instead of arithmetic in registers
//
// A benchmark, not a test: its timings belong on a quiet machine. Build with -c release.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSONCore

func fail(_ message: String) -> Never {
    // Messages quote what was typed: a control character in it is shown escaped, not sent to the terminal.
    let shown = message.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7f ? $0.escaped(asASCII: true) : String($0) }.joined()
    let text = "SoakBench: \(shown)\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
    exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, ["session", "check", "run", "noise"].contains(command) else {
    fail("usage: SoakBench session|check|run --messages N [--seed S] [--latencies FILE (run)] [--host async|callback (run)], or SoakBench noise --microseconds U [--samples N] [--working-set KIB]")
}
arguments.removeFirst()
var messageCount = 20_000
var seed: UInt64 = 1
var noiseMicroseconds = 10.0
var noiseSamples = 100_000
var noiseWorkingSetKiB = 0
var latenciesPath: String?
var hostKind = InProcessSoak.HostKind.async
while !arguments.isEmpty {
    let option = arguments.removeFirst()
    guard let value = arguments.first else { fail("\(option) needs a value") }
    arguments.removeFirst()
    switch option {
    case "--messages":
        guard let number = Int(value), number > 0 else { fail("--messages must be a positive integer, not \(value)") }
        messageCount = number
    case "--seed":
        guard let number = UInt64(value) else { fail("--seed must be a non-negative integer, not \(value)") }
        seed = number
    case "--microseconds":
        guard let number = Double(value), number > 0, number <= 10_000 else { fail("--microseconds must be a number in (0, 10000], not \(value)") }
        noiseMicroseconds = number
    case "--latencies":
        guard command == "run" else { fail("--latencies is an option of SoakBench run") }
        latenciesPath = value
    case "--host":
        guard command == "run" else { fail("--host is an option of SoakBench run") }
        guard let kind = InProcessSoak.HostKind(rawValue: value) else { fail("--host must be async or callback, not \(value)") }
        hostKind = kind
    case "--working-set":
        guard command == "noise" else { fail("--working-set is an option of SoakBench noise") }
        guard let number = Int(value), number >= 0, number <= 1 << 20 else { fail("--working-set must be KiB in [0, 1048576], not \(value)") }
        noiseWorkingSetKiB = number
    case "--samples":
        guard let number = Int(value), number > 0 else { fail("--samples must be a positive integer, not \(value)") }
        noiseSamples = number
    default:
        fail("unknown option \(option)")
    }
}

/// Standard output in 64 KiB writes (a line at a time would be a system call per event).
struct OutputBuffer {
    private var bytes: [UInt8] = []

    mutating func line(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                fail("cannot write to standard output (errno \(errno))")
            }
            offset += written
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

func microseconds(_ nanoseconds: Double) -> String {
    let tenths = (nanoseconds / 100).rounded()
    return String(tenths / 10)
}

func jsonNumber(_ value: Double) -> JSONValue { .number((value * 1000).rounded() / 1000) }

switch command {
case "session":
    var output = OutputBuffer()
    for event in SoakSession(messages: messageCount, seed: seed) { output.line(event.stdioLine) }
    output.flush()

case "noise":
    let (histogram, iterations) = NoiseFloor.measure(microseconds: noiseMicroseconds, samples: noiseSamples,
                                                     workingSetKiB: noiseWorkingSetKiB)
    let p50 = histogram.percentile(0.5), p99 = histogram.percentile(0.99)
    let over = noiseWorkingSetKiB > 0 ? " of reads over \(noiseWorkingSetKiB) KiB" : ""
    print("noise floor: a fixed loop of \(iterations) steps\(over), \(histogram.count) timings: p50 \(microseconds(p50)) us, p99 \(microseconds(p99)) us, max \(microseconds(Double(histogram.maximum))) us")
    print("summary " + JSONValue.object(JSONObject([
        ("samples", .integer(Int64(histogram.count))), ("iterations", .integer(Int64(iterations))),
        ("p50", jsonNumber(p50 / 1000)), ("p99", jsonNumber(p99 / 1000)), ("max", jsonNumber(Double(histogram.maximum) / 1000)),
    ])).serialized())

case "check":
    var check = StdioCheck(session: SoakSession(messages: messageCount, seed: seed))
    StdioCheck.readStandardInput { check.read(line: $0) }
    check.finish()
    func counts(_ table: [String: Int]) -> String {
        table.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
    print("""
    host --stdio output: \(check.outputLines) lines for \(check.messages) messages (\(check.requests) requests, \(check.notificationsExpected) notifications), \(check.envelopes) envelopes
      replies: \(check.replies) (\(counts(check.replyCodes)))
      envelope outcomes: \(counts(check.outcomes))
      records: \(counts(check.recordTypes))
    """)
    if check.problemCount == 0 {
        print("nothing lost: every request answered exactly once with its id, every notification recorded, every envelope consumed exactly once")
    } else {
        print("LOST OR WRONG: \(check.problemCount) problems")
        for problem in check.problems { print("  - \(problem)") }
    }
    print("summary " + JSONValue.object(JSONObject([
        ("messages", .integer(Int64(check.messages))), ("requests", .integer(Int64(check.requests))),
        ("replies", .integer(Int64(check.replies))), ("envelopes", .integer(Int64(check.envelopes))),
        ("outputLines", .integer(Int64(check.outputLines))), ("problems", .integer(Int64(check.problemCount))),
    ])).serialized())
    exit(check.problemCount == 0 ? 0 : 1)

default:
    let soak: InProcessSoak
    do {
        soak = try InProcessSoak(host: hostKind)
    } catch {
        fail("cannot set up the host: \(error)")
    }
    // A regular FILE is written beside itself and renamed into place at the end, so a failed
    // write leaves no half-written FILE; anything else that exists (a device, a pipe, /dev/stdout)
    // is written as it is, never replaced. A path that cannot be opened fails before the run.
    var latenciesFile: (handle: UnsafeMutablePointer<FILE>, temporary: String?)?
    if let latenciesPath {
        var status = stat()
        let replaceable = stat(latenciesPath, &status) != 0 || (status.st_mode & S_IFMT) == S_IFREG
        let temporary = replaceable ? "\(latenciesPath).\(getpid()).tmp" : nil
        guard let handle = fopen(temporary ?? latenciesPath, "w") else {
            fail("cannot write \(latenciesPath): \(String(cString: strerror(errno)))")
        }
        latenciesFile = (handle, temporary)
        soak.recordEachMessage(messageCount)
    }
    let cpuStart = processCPUSeconds()
    let wallStart = monotonicNanoseconds()
    do {
        try await soak.run(SoakSession(messages: messageCount, seed: seed))
    } catch {
        fail("the session stopped: \(error)")
    }
    let wall = Double(monotonicNanoseconds() - wallStart) / 1e9
    let cpu = processCPUSeconds() - cpuStart
    let tracker = soak.tracker
    func row(_ name: String, _ histogram: LatencyHistogram) -> String {
        let padded = name + String(repeating: " ", count: max(1, 56 - name.count))
        return "  \(padded)n=\(histogram.count)  p50 \(microseconds(histogram.percentile(0.5)))  p99 \(microseconds(histogram.percentile(0.99)))  max \(microseconds(Double(histogram.maximum)))"
    }
    var lines = [
        "in-process (\(hostKind.rawValue) host): \(soak.messages) messages on \(soak.pagesOpened) pages, seed \(seed): \(String((wall * 10).rounded() / 10)) s wall, \(String((cpu * 10).rounded() / 10)) s CPU (\(microseconds(cpu * 1e9 / Double(max(1, soak.messages)))) us CPU per message)",
        "latency from receive to its reply callback, us (monotonic clock):",
        row("valid, all with a reply (target: p99 <= 20 us)", soak.validAll),
    ]
    for category in InProcessSoak.Category.allCases { lines.append(row(category.rawValue, soak.latency[category]!)) }
    lines.append(row("synchronous part of receive, valid", soak.synchronousValid))
    let counts = { (table: [String: Int]) in table.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ") }
    lines.append("replies: \(counts(soak.replyCodes))")
    lines.append("envelope outcomes: \(counts(tracker.outcomes)); failures: \(counts(tracker.failures))")
    lines.append("app: \(soak.app.screensShown) screens shown, \(soak.app.loginPresentations) logins presented, \(soak.app.analyticsEvents) analytics events, \(soak.app.campaignConflicts) campaign conflicts, \(soak.app.notifications) notifications")
    lines.append("largest seen after a message: navigator queue \(soak.largestQueue), envelope log \(soak.largestLog), replies awaiting navigation \(soak.largestAwaiting)")
    let peak = procStatusKiB("VmHWM") ?? 0
    lines.append("peak RSS (VmHWM) \(String((Double(peak) / 102.4).rounded() / 10)) MiB")
    if tracker.problemCount == 0 {
        lines.append("nothing lost: every message answered exactly once with its id, every envelope consumed exactly once")
    } else {
        lines.append("LOST OR WRONG: \(tracker.problemCount) problems")
        lines.append(contentsOf: tracker.problems.map { "  - \($0)" })
    }
    func histogramJSON(_ histogram: LatencyHistogram) -> JSONValue {
        .object(JSONObject([("n", .integer(Int64(histogram.count))), ("p50", jsonNumber(histogram.percentile(0.5) / 1000)),
                            ("p99", jsonNumber(histogram.percentile(0.99) / 1000)), ("max", jsonNumber(Double(histogram.maximum) / 1000))]))
    }
    var categories = JSONObject()
    for category in InProcessSoak.Category.allCases { categories[category.rawValue] = histogramJSON(soak.latency[category]!) }
    lines.append("summary " + JSONValue.object(JSONObject([
        ("host", .string(hostKind.rawValue)), ("messages", .integer(Int64(soak.messages))), ("wallSeconds", jsonNumber(wall)), ("cpuSeconds", jsonNumber(cpu)),
        ("peakKiB", .integer(Int64(peak))), ("valid", histogramJSON(soak.validAll)), ("synchronous", histogramJSON(soak.synchronousValid)),
        ("categories", .object(categories)), ("largestQueue", .integer(Int64(soak.largestQueue))),
        ("largestLog", .integer(Int64(soak.largestLog))), ("problems", .integer(Int64(tracker.problemCount))),
    ])).serialized())
    print(lines.joined(separator: "\n"))
    if let latenciesPath, let (file, temporary) = latenciesFile, let perMessage = soak.perMessage {
        fflush(nil)  // the report first, when FILE is standard output too
        for (number, kind) in perMessage.kind.enumerated() {
            guard let kind else { continue }
            fputs("\(number) \(kind.rawValue) \(perMessage.latency[number])\n", file)
        }
        let flushed = fflush(file) == 0 && ferror(file) == 0
        let reason = flushed ? nil : String(cString: strerror(errno))
        let closed = fclose(file) == 0
        if !flushed || !closed || (temporary.map { rename($0, latenciesPath) } ?? 0) != 0 {
            let why = reason ?? String(cString: strerror(errno))
            if let temporary { unlink(temporary) }
            fail("cannot write \(latenciesPath): \(why)")
        }
    }
    exit(tracker.problemCount == 0 ? 0 : 1)
}
