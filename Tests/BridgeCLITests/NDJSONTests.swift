@testable import BridgeCLI
import BridgeContracts
import Foundation
import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// `bridgectl validate --ndjson`: line numbers, order across threads, bad lines, streaming reader.
@Suite @MainActor final class NDJSONTests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("ndjson") }
    deinit { testFolder.remove() }

    static let valid = #"{"v":1,"id":"3f1c2a9e-7d2c-4e1a","action":"apply","version":1,"payload":{"slug":"new-user-promo","memo":"신청합니다"}}"#
    static let escaped = #"{"v":1,"action":"view_vehicles","version":1,"payload":{"region":"\uc11c\uc6b8"}}"#
    static let badSlug = #"{"v":1,"id":"3f1c2a9e-7d2c-4e1a","action":"apply","version":1,"payload":{"slug":"New Promo"}}"#
    static let unknownAction = #"{"v":1,"action":"start_now","version":1,"payload":{}}"#
    static let duplicate = #"{"v":1,"action":"start","version":1,"payload":{},"payload":{}}"#

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    func temporaryFile(_ contents: String, name: String = "log.ndjson") throws -> String {
        let directory = testFolder.url("ndjson-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    @Test func reportsEachInvalidLineByNumberThenTheSummary() {
        let input = [Self.valid, Self.badSlug, "", "{\"v\": 1,", Self.escaped + "\r", Self.duplicate, "   ", Self.unknownAction]
            .joined(separator: "\n") + "\n"
        let result = run(["validate", "--ndjson", "-"], input: input)
        #expect(result.code == 1)
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasPrefix("line 2: /payload/slug: "))
        #expect(lines[0].hasSuffix("(pattern)"))
        #expect(lines[1].hasPrefix("line 4: not valid JSON: column "))
        #expect(lines[2].hasPrefix("line 6: not valid JSON: "))
        #expect(lines[2].contains("duplicate"))
        #expect(lines[3].hasPrefix("line 8: unknown action \"start_now\""))
        #expect(lines[4] == "2 valid, 4 invalid (2 blank lines skipped)")
    }

    @Test func allValidExitsZeroWithTheSummaryOnly() throws {
        let path = try temporaryFile(Self.valid + "\n" + Self.escaped)  // no newline at the end
        let result = run(["validate", "--ndjson", path])
        #expect(result.code == 0)
        #expect(result.out == "2 valid, 0 invalid\n")
        #expect(result.err == "")
    }

    @Test func outputStaysInLineOrderWhateverTheThreads() throws {
        // About 6.5 MB: 26 batches of 256 KiB, so several rounds (8 batches each with 2 jobs,
        // 16 with 4) pass through the pipeline; every 7th line is invalid.
        var lines: [String] = []
        var expected: [Int] = []
        for number in 1...60_000 {
            if number % 7 == 0 {
                lines.append(#"{"v":1,"action":"view_vehicles","version":1,"payload":{"page":\#(number)}}"#)
                if number > 100 { expected.append(number) }
            } else {
                lines.append(#"{"v":1,"action":"view_vehicles","version":1,"payload":{"page":\#(number % 100 + 1),"region":"부산"}}"#)
            }
        }
        let path = try temporaryFile(lines.joined(separator: "\n") + "\n")
        let one = run(["validate", "--ndjson", path, "--jobs", "1"])
        let two = run(["validate", "--ndjson", path, "--jobs", "2"])
        let four = run(["validate", "--ndjson", path, "--jobs", "4"])
        #expect(one.code == 1)
        #expect(one.out == two.out)
        #expect(one.out == four.out)
        let reported = four.out.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("line ") else { return nil }
            return Int(line.dropFirst(5).prefix { $0 != ":" })
        }
        #expect(reported == expected)
        #expect(four.out.hasSuffix("\(60_000 - expected.count) valid, \(expected.count) invalid\n"))
    }

    @Test func jsonFormatIsOneDocumentWithLineNumbers() throws {
        let input = [Self.valid, Self.badSlug, "nope", "", ""].joined(separator: "\n")  // ends "nope\n\n": one blank line
        let result = run(["validate", "--ndjson", "-", "--format", "json"], input: input)
        #expect(result.code == 1)
        let report = try JSONDocument(result.out, limits: .unlimited).value
        #expect(report["valid"] == 1)
        #expect(report["invalid"] == 2)
        #expect(report["blank"] == 1)
        let results = report["results"]?.arrayValue ?? []
        #expect(results.count == 2)
        #expect(results.first?["line"] == 2)
        #expect(results.first?["code"] == "INVALID_PARAMS")
        #expect(results.first?["errors"]?.arrayValue?.first?["instanceLocation"] == "/payload/slug")
        #expect(results.last?["line"] == 3)

        let clean = run(["validate", "--ndjson", "-", "--format", "json"], input: Self.valid + "\n")
        #expect(clean.code == 0)
        #expect(try JSONDocument(clean.out, limits: .unlimited).value["results"] == [])
    }

    @Test func schemaFileWorksWithNDJSON() throws {
        let schema = try temporaryFile(#"{"type":"object","required":["n"],"properties":{"n":{"type":"integer","maximum":3}}}"#,
                                       name: "schema.json")
        let result = run(["validate", "--ndjson", "-", "--schema", schema], input: "{\"n\":1}\n{\"n\":9}\n[]\n")
        #expect(result.code == 1)
        #expect(result.out.contains("line 2: /n: "))
        #expect(result.out.contains("(maximum)"))
        #expect(result.out.contains("line 3: (root): "))
        #expect(result.out.hasSuffix("1 valid, 2 invalid\n"))
    }

    @Test func usageAndUnreadableInputExitTwo() throws {
        #expect(run(["validate", "--ndjson", "-", "--jobs", "0"]).code == 2)
        // --jobs is from 1 to 1024: both ends taken (workers never outnumber the batches), 1025 refused.
        for jobs in ["1", "1024"] {
            let taken = run(["validate", "--ndjson", "-", "--jobs", jobs], input: Self.valid + "\n")
            #expect(taken.code == 0 && taken.out.hasSuffix("1 valid, 0 invalid\n"), "--jobs \(jobs): \(taken.out)\(taken.err)")
        }
        let over = run(["validate", "--ndjson", "-", "--jobs", "1025"])
        #expect(over.code == 2 && over.err.contains("--jobs must be a whole number from 1 to 1024, not \"1025\""), "\(over.err)")
        #expect(run(["validate", "--ndjson", "-", "--jobs", "many"]).err.contains("--jobs must be a whole number"))
        #expect(run(["validate", "x.json", "--jobs", "2"]).err.contains("--jobs goes with --ndjson"))
        #expect(run(["validate", "--ndjson", "a.ndjson", "b.ndjson"]).code == 2)
        let missing = run(["validate", "--ndjson", "/nonexistent/log.ndjson"])
        #expect(missing.code == 2)
        #expect(missing.err.contains("/nonexistent/log.ndjson: no such file"))
        let directory = FileManager.default.temporaryDirectory.path
        #expect(run(["validate", "--ndjson", directory]).err.contains("is a directory"))
        #expect(run(["validate", "--help"]).out.contains("--ndjson"))
    }

    @Test func emptyInputIsZeroValidZeroInvalid() {
        let result = run(["validate", "--ndjson", "-"], input: "")
        #expect(result.code == 0)
        #expect(result.out == "0 valid, 0 invalid\n")
    }

    /// A read error part way through: every line read before it is still checked and reported,
    /// in order, before the error surfaces (several rounds are in flight with two jobs).
    @Test func aReadErrorReportsEverythingReadBeforeIt() throws {
        struct FailingSource: NDJSONByteSource {
            var remaining: [UInt8]
            mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(NDJSONReadError) -> Int {
                guard !remaining.isEmpty else { throw NDJSONReadError(description: "the disk went away") }
                let count = min(buffer.count, remaining.count)
                buffer.copyBytes(from: remaining.prefix(count))
                remaining.removeFirst(count)
                return count
            }
        }
        // 400 lines of ~100 bytes, every 10th invalid, handed out in 1 KiB chunks: ~40 batches.
        let lines = (1...400).map { $0 % 10 == 0 ? Self.badSlug : Self.valid }
        let checker = ContractChecker(compiled: try CompiledContracts(contracts: try ContractSet.load(directory: ExampleContracts.path, includingFixtures: false)))
        for jobs in [1, 2, 4] {
            let console = CapturingConsole()
            let audit = NDJSONAudit(checker: checker, format: .text, jobs: jobs, console: console)
            var reader = NDJSONReader(
                source: FailingSource(remaining: Array((lines.joined(separator: "\n") + "\n").utf8)), lineLimit: 1 << 16,
                chunkSize: 1024)
            #expect(throws: NDJSONReadError.self) { try audit.run(reader: &reader, progress: { _, _ in }) }
            let reported = console.stdout.split(separator: "\n").compactMap { line -> Int? in
                guard line.hasPrefix("line "), line.contains("pattern") else { return nil }
                return Int(line.dropFirst(5).prefix { $0 != ":" })
            }
            #expect(reported == Array(stride(from: 10, through: 400, by: 10)), "jobs \(jobs)")
        }
    }

    // MARK: - the reader

    func readAll(_ text: String, chunkSize: Int, lineLimit: Int = 1 << 20) throws -> [String] {
        var reader = NDJSONReader(source: InMemorySource(Data(text.utf8)), lineLimit: lineLimit, chunkSize: chunkSize)
        var lines: [String] = []
        var expectedNumber = 1
        while let batch = try reader.nextBatch() {
            for line in batch.lines {
                switch line {
                case .text(let number, let range):
                    #expect(number == expectedNumber)
                    lines.append(String(decoding: batch.bytes[range], as: UTF8.self))
                case .tooLong(let number, let limit):
                    #expect(number == expectedNumber)
                    lines.append("<too long: \(limit)>")
                }
                expectedNumber += 1
            }
        }
        return lines
    }

    @Test func readerRejoinsLinesSplitAcrossChunks() throws {
        let text = "{\"a\":1}\n\n서울 부산\r\n{\"b\":[1,2,3]}\nlast"
        let expected = ["{\"a\":1}", "", "서울 부산", "{\"b\":[1,2,3]}", "last"]
        for chunkSize in [1, 2, 3, 5, 7, 64, 4096] {
            #expect(try readAll(text, chunkSize: chunkSize) == expected, "chunk size \(chunkSize)")
        }
        #expect(try readAll("", chunkSize: 4).isEmpty)
        #expect(try readAll("\n", chunkSize: 4) == [""])
    }

    @Test func readerSkipsAnOverlongLineWithoutBufferingIt() throws {
        let long = String(repeating: "x", count: 100)
        let text = "short\n\(long)\nafter\n\(long)"
        for chunkSize in [3, 8, 1000] {
            #expect(try readAll(text, chunkSize: chunkSize, lineLimit: 10)
                    == ["short", "<too long: 10>", "after", "<too long: 10>"], "chunk size \(chunkSize)")
        }
    }
}
