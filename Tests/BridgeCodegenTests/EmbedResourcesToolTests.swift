import Foundation
import Testing
import TestSupport

/// The build tool behind the EmbedResources plugin and the committed meta-schemas, run as built:
/// its usage refusals, the files it writes and in which order, how text is escaped, and the
/// files it refuses to embed.
@Suite struct EmbedResourcesToolTests {
    /// The tool built beside this test runner (.build/debug/ or a --scratch-path's debug/).
    static var tool: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("EmbedResourcesTool")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return RepositoryPaths.url(".build/debug/EmbedResourcesTool")
    }

    struct Run {
        let code: Int32
        let err: String
    }

    func run(_ arguments: [String]) throws -> Run {
        #expect(FileManager.default.isExecutableFile(atPath: Self.tool.path), "build EmbedResourcesTool first (swift build)")
        let process = Process()
        process.executableURL = Self.tool
        process.arguments = arguments
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "the tool must exit, not crash: \(arguments)")
        return Run(code: process.terminationStatus, err: String(decoding: err, as: UTF8.self))
    }

    private func write(_ files: [String: Data], in folder: URL) throws {
        for (path, data) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
    }

    @Test(arguments: [[], ["--regenerate"], ["--regenerate", "make x"], ["--regenerate", "make x", "in"], ["in", "out.swift"],
                      ["--regenerate", "make x", "in", "out.swift"]])
    func tooFewArgumentsAreAUsageError(arguments: [String]) throws {
        let result = try run(arguments)
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("usage: EmbedResourcesTool [--regenerate COMMAND] FOLDER OUTPUT SYMBOL [FILE...]"))
    }

    @Test func everyFileIsWrittenSortedByPathWithItsTextEscaped() throws {
        try withTemporaryFolder("embed-tool") { folder in
            let input = folder.appendingPathComponent("schemas")
            try write([
                "b.json": Data("{\"a\": \"\\\\ \\\"\"}\n".utf8),
                "a/z.txt": Data("tab\there\r\nbell\u{7}del\u{7F}é😀".utf8),
                "a/empty.txt": Data(),
            ], in: input)
            let output = folder.appendingPathComponent("Out.swift")
            #expect(try run([input.path, output.path, "Embedded"]).code == 0)
            let source = try String(contentsOf: output, encoding: .utf8)
            #expect(source == #"""
                // Generated at build time by the EmbedResources plugin from schemas/. Do not edit.

                public enum Embedded {
                    /// Relative path -> file contents.
                    public static let files: [String: String] = [
                        "a/empty.txt": "",
                        "a/z.txt": "tab\there\r\nbell\u{7}del\u{7f}é😀",
                        "b.json": "{\"a\": \"\\\\ \\\"\"}\n",
                    ]
                }

                """#)
        }
    }

    @Test func regenerateNamesItsCommandAndOnlyTheNamedFilesAreWritten() throws {
        try withTemporaryFolder("embed-tool") { folder in
            let input = folder.appendingPathComponent("meta")
            try write(["one.json": Data("1".utf8), "two.json": Data("2".utf8), "three.json": Data("3".utf8)], in: input)
            let output = folder.appendingPathComponent("Out.swift")
            #expect(try run(["--regenerate", "make embed-metaschemas", input.path, output.path, "Meta", "two.json", "one.json"]).code == 0)
            let source = try String(contentsOf: output, encoding: .utf8)
            #expect(source.hasPrefix("// Generated from meta/ by EmbedResourcesTool. Do not edit: change meta/, then\n// regenerate with `make embed-metaschemas` (`make generate-check` fails while this file is stale).\n\npublic enum Meta {\n"))
            #expect(source.contains("\"one.json\": \"1\",\n        \"two.json\": \"2\",\n    ]"))
            #expect(!source.contains("three.json"))
        }
    }

    @Test func aNamedFileThatDoesNotExistIsRefusedAndNothingIsWritten() throws {
        try withTemporaryFolder("embed-tool") { folder in
            let input = folder.appendingPathComponent("meta")
            try write(["one.json": Data("1".utf8)], in: input)
            let output = folder.appendingPathComponent("Out.swift")
            let result = try run([input.path, output.path, "Meta", "one.json", "gone.json"])
            #expect(result.code == 1)
            #expect(result.err.contains("meta/gone.json does not exist"))
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }

    @Test func aFileThatIsNotUTF8IsRefusedAndNothingIsWritten() throws {
        try withTemporaryFolder("embed-tool") { folder in
            let input = folder.appendingPathComponent("meta")
            try write(["ok.json": Data("1".utf8), "latin1.txt": Data([0x63, 0x61, 0x66, 0xE9])], in: input)
            let output = folder.appendingPathComponent("Out.swift")
            let result = try run([input.path, output.path, "Meta"])
            #expect(result.code == 1)
            #expect(result.err == "EmbedResourcesTool: latin1.txt is not UTF-8 text\n")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
    }
}
