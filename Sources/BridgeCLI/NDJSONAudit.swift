import Dispatch
import Synchronization
import JSONCore
import SchemaCheck

/// The boolean question bulk validation asks first, per line: no output units, no summary
/// text, no conversion of the message. Only a line that fails it gets the full `check`.
protocol FastMessageChecking: MessageChecker {
    func isValid(_ document: JSONDocument) -> Bool
    /// The full check of a line that failed `isValid` (the same outcome as `check`).
    func checkFailed(_ document: JSONDocument) -> CheckOutcome
}

extension FastMessageChecking {
    func checkFailed(_ document: JSONDocument) -> CheckOutcome { check(document) }
}

extension ContractChecker: FastMessageChecking {
    func isValid(_ document: JSONDocument) -> Bool { compiled.isValid(document) }

    /// `check`, without its fast path (already asked) and reading only `action` and `version`
    /// instead of converting the whole message: a tenth of the corpus takes this path.
    func checkFailed(_ document: JSONDocument) -> CheckOutcome {
        let verdict = compiled.checkFailed(document)
        return CheckOutcome(
            valid: verdict.isValid,
            summary: verdict.summary,
            action: document.member("action")?.stringValue,
            version: document.member("version")?.integerValue.flatMap { Int(exactly: $0) },
            code: verdict.errorCode,
            units: verdict.units
        )
    }
}

extension SchemaFileChecker: FastMessageChecking {
    func isValid(_ document: JSONDocument) -> Bool { schema.isValid(document) }
}

/// `validate --ndjson`: one message per line, checked on `jobs` threads in bounded rounds of
/// batches, reported in line order. Blank lines (only spaces, tabs or a CR) are skipped and
/// counted; a line that is not JSON is an invalid line, not a fatal error.
struct NDJSONAudit {
    enum OutputFormat: Sendable { case text, json }

    let checker: FastMessageChecking
    let format: OutputFormat
    let jobs: Int
    let console: Console
    /// Batches read ahead per round: enough to keep every thread busy, few enough to bound memory.
    var batchesPerRound: Int { max(2, jobs * 4) }

    struct Counts {
        var valid = 0
        var invalid = 0
        var blank = 0
    }

    /// What one batch produced: counts and the already formatted reports of its invalid lines.
    struct BatchReport: Sendable {
        var valid = 0
        var invalid = 0
        var blank = 0
        var output = ""
    }

    /// Reads every batch, checks them and prints the reports in order. `progress` is called
    /// after each round with the bytes read so far. Throws only when the input cannot be read
    /// (after printing what was already checked).
    ///
    /// With more than one job the rounds are pipelined: while the worker threads check one
    /// round, this thread reads and splits the next, so no core waits for the reading.
    func run<Source: NDJSONByteSource>(
        reader: inout NDJSONReader<Source>, progress: (Int, Int) -> Void
    ) throws(NDJSONReadError) -> Counts {
        // The bulk path parses each line into an arena: bridgectl owns its process, so it may
        // install jansson's process-wide allocator hooks (an app embedding the host never does).
        MessageArena.installAllocatorHooks()
        var counts = Counts()
        var first = true
        if format == .json { console.out("{\"results\": [") }
        func report(_ reports: [BatchReport]) {
            for report in reports {
                counts.valid += report.valid
                counts.invalid += report.invalid
                counts.blank += report.blank
                if report.output.isEmpty { continue }
                if format == .json {
                    // Results are comma-joined across batches: each batch's text starts with ",\n".
                    console.out(first ? String(report.output.dropFirst()) : report.output)
                } else {
                    console.out(report.output)
                }
                first = false
            }
        }
        var inFlight: RoundInFlight?
        while true {
            var batches: [NDJSONBatch] = []
            batches.reserveCapacity(batchesPerRound)
            do {
                while batches.count < batchesPerRound, let batch = try reader.nextBatch() { batches.append(batch) }
            } catch {
                // Lines already read are still checked and reported before the error surfaces.
                if let inFlight { report(inFlight.reports()) }
                report(check(batches))
                throw error
            }
            let next = batches.isEmpty ? nil : startChecking(batches)
            if let inFlight {
                report(inFlight.reports())
                progress(reader.bytesRead, counts.valid + counts.invalid)
            }
            guard let next else { break }
            inFlight = next
        }
        switch format {
        case .json:
            console.out((first ? "" : "\n") + "],\n\"valid\": \(counts.valid),\n\"invalid\": \(counts.invalid),\n\"blank\": \(counts.blank)}\n")
        case .text:
            let blank = counts.blank > 0 ? " (\(counts.blank) blank line\(counts.blank == 1 ? "" : "s") skipped)" : ""
            console.out("\(counts.valid) valid, \(counts.invalid) invalid\(blank)\n")
        }
        return counts
    }

    /// Checks the batches on this thread (one job), or starts them on `jobs` worker threads.
    private func startChecking(_ batches: [NDJSONBatch]) -> RoundInFlight {
        let checker = NDJSONBatchChecker(checker: checker, format: format)
        if jobs <= 1 { return RoundInFlight(done: batches.map(checker.check)) }
        return RoundInFlight(batches: batches, checker: checker, workers: min(jobs, batches.count))
    }

    /// Checks the batches and returns the reports in batch order.
    func check(_ batches: [NDJSONBatch]) -> [BatchReport] {
        batches.isEmpty ? [] : startChecking(batches).reports()
    }
}

/// One round of batches being checked in the background while the next one is read. Its
/// `jobs` workers (`DispatchQueue.concurrentPerform`) each take the next unchecked batch until
/// none is left, so a thread the machine slows down (another process, a stolen virtual CPU)
/// delays the round by at most one batch, not by its whole share.
private final class RoundInFlight: Sendable {
    /// One report per batch, in batch order; each is written once, under the lock (a batch is
    /// thousands of lines, so the lock is taken rarely).
    private let slots: Mutex<[NDJSONAudit.BatchReport]>
    private let group = DispatchGroup()
    private let nextBatch = Atomic<Int>(0)

    init(batches: [NDJSONBatch], checker: NDJSONBatchChecker, workers: Int) {
        slots = Mutex(Array(repeating: NDJSONAudit.BatchReport(), count: batches.count))
        DispatchQueue.global().async(group: group) { [self] in
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while true {
                    let index = nextBatch.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < batches.count else { break }
                    let report = checker.check(batches[index])
                    slots.withLock { $0[index] = report }
                }
            }
        }
    }

    /// A round already checked on the calling thread.
    init(done reports: [NDJSONAudit.BatchReport]) {
        slots = Mutex(reports)
    }

    /// Waits for the round, then returns its reports in batch order.
    func reports() -> [NDJSONAudit.BatchReport] {
        group.wait()
        return slots.withLock { $0 }
    }
}

/// Checks the lines of one batch and formats the reports of the invalid ones; runs on a worker thread.
struct NDJSONBatchChecker: Sendable {
    typealias BatchReport = NDJSONAudit.BatchReport
    let checker: FastMessageChecking
    let format: NDJSONAudit.OutputFormat

    func check(_ batch: NDJSONBatch) -> BatchReport {
        var report = BatchReport()
        let limits = checker.parseLimits
        let arena = MessageArena()
        batch.bytes.withUnsafeBufferPointer { bytes in
            for line in batch.lines {
                switch line {
                case .tooLong(let number, let limit):
                    report.invalid += 1
                    append(problem: "the line is longer than \(limit) bytes (skipped)", line: number, to: &report)
                case .text(let number, let range):
                    let text = UnsafeBufferPointer(rebasing: bytes[range])
                    if Self.isBlank(text) {
                        report.blank += 1
                        continue
                    }
                    // Each message lives in the batch's arena only while it is checked.
                    arena.withDocument(text, limits: limits) { parsed in
                        switch parsed {
                        case .failure(let error):
                            report.invalid += 1
                            let at = error.column > 0 ? "column \(error.column): " : ""
                            append(problem: "not valid JSON: \(at)\(error.message)", line: number, to: &report)
                        case .success(let document):
                            check(document, line: number, into: &report)
                        }
                    }
                }
            }
        }
        return report
    }

    private func check(_ document: JSONDocument, line number: Int, into report: inout BatchReport) {
        if checker.isValid(document) {
            report.valid += 1
            return
        }
        let outcome = checker.checkFailed(document)
        if outcome.valid {
            report.valid += 1  // the full path found no error after all
        } else {
            report.invalid += 1
            append(outcome, line: number, to: &report)
        }
    }

    static func isBlank(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in text where byte != 0x20 && byte != 0x09 && byte != 0x0D { return false }
        return true
    }

    // MARK: - reports

    private func append(_ outcome: CheckOutcome, line: Int, to report: inout BatchReport) {
        switch format {
        case .text:
            for text in outcome.textLines(name: "line \(line)") { report.output += text + "\n" }
        case .json:
            var object = JSONObject()
            object["line"] = .integer(Int64(line))
            object["valid"] = .bool(false)
            if let action = outcome.action { object["action"] = .string(action) }
            if let version = outcome.version { object["version"] = .integer(Int64(version)) }
            if let code = outcome.code { object["code"] = .string(code) }
            object["message"] = .string(outcome.summary)
            object["errors"] = .array(outcome.units.map(\.json))
            report.output += ",\n" + JSONValue.object(object).serialized()
        }
    }

    private func append(problem: String, line: Int, to report: inout BatchReport) {
        switch format {
        case .text:
            report.output += "line \(line): \(problem)\n"
        case .json:
            let object: JSONValue = [
                "line": .integer(Int64(line)), "valid": false, "code": "INVALID_MESSAGE",
                "message": .string(problem), "errors": [],
            ]
            report.output += ",\n" + object.serialized()
        }
    }
}
