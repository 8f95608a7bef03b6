import BridgeContracts
import Foundation
import Testing
import TestSupport

@testable import BridgeCLI

/// What every command keeps: --help on standard output ending with a newline, a usage error on
/// standard error with exit 2, --version, byte-order marks refused by every command that reads a
/// JSON file, and default origins taken from the contracts in use.
@MainActor @Suite final class CLIConventionsTests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("conventions") }
    deinit { testFolder.remove() }

    func run(_ arguments: [String], input: Data = Data()) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: input)
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    nonisolated static let commandNames = BridgeCLI.commands.map(\.name)

    @Test(arguments: commandNames)
    func helpGoesToStandardOutputEndsWithANewlineAndExitsZero(command: String) {
        for flag in ["--help", "-h"] {
            let result = run([command, flag])
            #expect(result.code == 0, "\(command) \(flag)")
            #expect(result.err.isEmpty, "\(command) \(flag): \(result.err)")
            #expect(result.out.hasPrefix("usage: bridgectl \(command)"), "\(command) \(flag)")
            #expect(result.out.hasSuffix("\n") && !result.out.hasSuffix("\n\n"), "\(command) \(flag) ends \(result.out.suffix(20).debugDescription)")
        }
        let viaHelp = run(["help", command])
        #expect(viaHelp.code == 0 && viaHelp.out == run([command, "--help"]).out)
    }

    @Test("control characters from the command line reach standard error escaped, never as terminal commands")
    func controlCharactersInMessagesAreShownEscaped() {
        let unknownCommand = run(["\u{1B}[31mred"])
        #expect(unknownCommand.code == 2)
        #expect(unknownCommand.err.hasPrefix("bridgectl: unknown command \"\\u{1B}[31mred\""), "\(unknownCommand.err.debugDescription)")
        let option = run(["validate", "--x\u{1B}]0;title\u{07}"])
        #expect(option.code == 2)
        #expect(option.err.contains("--x\\u{1B}]0;title\\u{7}"), "\(option.err.debugDescription)")
        let file = run(["validate", "/no/such/dir/a\u{9B}2Jb\rc.json"])
        #expect(file.code != 0)
        #expect(file.err.contains("a\\u{9B}2Jb\\u{D}c.json"), "\(file.err.debugDescription)")
        for result in [unknownCommand, option, file] {
            #expect(!result.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        }
        #expect(TerminalText.visible("plain 센디\ttab\n") == "plain 센디\ttab\n")
    }

    @Test(arguments: commandNames)
    func aUsageErrorIsOneLineOnStandardErrorAndExitsTwo(command: String) {
        let result = run([command, "--no-such-option"])
        #expect(result.code == 2, "\(command): \(result.code)")
        #expect(result.out.isEmpty, "\(command) printed on standard output: \(result.out)")
        #expect(result.err.hasPrefix("bridgectl \(command)"), "\(command): \(result.err)")
        #expect(result.err.hasSuffix("\n") && result.err.dropLast().contains("\n") == false, "\(command): \(result.err.debugDescription)")
    }

    @Test func theOverviewOnRequestOnStandardOutputAndAsAUsageErrorOnStandardError() {
        let asked = run(["--help"])
        #expect(asked.code == 0 && asked.out.contains("version") && asked.err.isEmpty)
        let none = run([])
        #expect(none.code == 2 && none.out.isEmpty && none.err == asked.out)
        let unknown = run(["nope"])
        #expect(unknown.code == 2 && unknown.out.isEmpty && unknown.err.hasPrefix("bridgectl: unknown command \"nope\""))
        #expect(run(["help", "nope"]).code == 2)
    }

    @Test func versionNamesTheToolAndTheContractsDigest() throws {
        let result = run(["--version"])
        #expect(result.code == 0)
        #expect(run(["version"]).out == result.out)
        let lines = result.out.split(separator: "\n")
        #expect(lines.first == "bridgectl \(BridgeCLI.version)")
        let contracts = try ContractSet.load(directory: ExampleContracts.path)
        // swift test runs from the repository root: the set in use is the nearest contracts/.
        #expect(lines.dropFirst().first == "found: contracts (the nearest contracts/ folder with a manifest.json)")
        #expect(lines.last == "contracts: \(contracts.origin), \(contracts.files.count) files, sha256 \(contracts.digest)")
        let folder = run(["version", "--contracts", "Tests/contracts/custom-action"])
        #expect(folder.out.contains("found: Tests/contracts/custom-action (from --contracts)\n"))
        #expect(!folder.out.hasSuffix("sha256 \(contracts.digest)\n"))
    }

    /// The digest is what `sha256sum` gives for the listing the help text describes.
    @Test func theDigestMatchesSha256sumOfTheListing() throws {
        let contracts = try ContractSet.load(directory: RepositoryPaths.contracts.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "find . -name '*.json' | sed 's|^./||' | LC_ALL=C sort | xargs sha256sum | sha256sum"]
        process.currentDirectoryURL = RepositoryPaths.contracts
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(output == contracts.digest + "  -\n")
    }

    @Test func sha256OfTheStandardTestVectors() {
        #expect(SHA256.hex(Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func temporaryFolder(_ name: String) throws -> URL {
        let folder = testFolder.url("bridgekit-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Every command that reads a JSON file names a byte-order mark instead of an invisible token.
    @Test func aByteOrderMarkIsNamedByEveryCommandThatReadsJSON() throws {
        let folder = try temporaryFolder("bom")
        let file = folder.appendingPathComponent("with-bom.json")
        let body = try RepositoryPaths.text("Examples/messages/apply.json")
        try (Data([0xEF, 0xBB, 0xBF]) + Data(body.utf8)).write(to: file)
        let contracts = folder.appendingPathComponent("contracts")
        try FileManager.default.copyItem(at: RepositoryPaths.contracts, to: contracts)
        let schema = contracts.appendingPathComponent("schemas/start.v1.json")
        try (Data([0xEF, 0xBB, 0xBF]) + (try Data(contentsOf: schema))).write(to: schema)

        let expected = "file starts with a UTF-8 byte-order mark (remove it)"
        for arguments in [
            ["validate", file.path], ["validate", "--ndjson", file.path], ["validate", "--schema", file.path, RepositoryPaths.url("Examples/messages/apply.json").path],
            ["validate", "--schema", RepositoryPaths.url("contracts/schemas/campaign.v1.json").path, "--ref", file.path, file.path],
            ["simulate", file.path], ["route", "--push", file.path],
            ["lint", "--contracts", contracts.path], ["check", "--contracts", contracts.path],
            ["link", "routes", "--contracts", contracts.path], ["version", "--contracts", contracts.path],
            ["generate", "js", "--check", "--contracts", contracts.path],
        ] {
            let result = run(arguments)
            #expect(result.code == 2, "\(arguments): \(result.code)")
            #expect(result.err.contains(expected), "\(arguments): \(result.err)")
            #expect(!result.err.contains("invalid token"), "\(arguments)")
        }
        let host = run(["host", "--stdio"], input: Data([0xEF, 0xBB, 0xBF]) + Data(#"{"type":"ready"}"#.utf8) + Data("\n".utf8))
        #expect(host.out.contains("line starts with a UTF-8 byte-order mark (remove it)"))
    }

    /// A contract set for another site: every default origin is its first allowed origin.
    @Test func defaultOriginsAreTheFirstAllowedOriginOfTheContractsInUse() throws {
        let folder = try temporaryFolder("origin")
        let contracts = folder.appendingPathComponent("contracts")
        try FileManager.default.copyItem(at: RepositoryPaths.contracts, to: contracts)
        let manifest = contracts.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let allowed = #""allowedOrigins": ["https://sendy.co.kr", "https://www.sendy.co.kr", "https://event.sendy.co.kr"]"#
        try #require(text.contains(allowed))
        try text.replacingOccurrences(of: allowed, with: #""allowedOrigins": ["https://promo.example.com"]"#)
            .write(to: manifest, atomically: true, encoding: .utf8)

        let check = run(["check", "--contracts", contracts.path])
        #expect(check.code == 0, "\(check.out.split(separator: "\n").filter { $0.hasPrefix("FAIL") })")
        let simulate = run(["simulate", RepositoryPaths.url("Examples/messages/apply.json").path, "--contracts", contracts.path])
        #expect(simulate.code == 0 && simulate.out.hasPrefix("reply: ok"), "\(simulate.out)")
        let message = #"{"v":1,"id":"req-00000001","action":"apply","version":1,"payload":{"slug":"new-user-promo"}}"#
        let host = run(["host", "--stdio", "--contracts", contracts.path], input: Data((#"{"type":"message","body":"# + message + "}\n").utf8))
        #expect(host.out.contains(#""ok":true"#), "\(host.out)")
    }

    @Test func validateReadsASchemaFromAPipe() throws {
        let folder = try temporaryFolder("fifo")
        let fifo = folder.appendingPathComponent("schema.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data(#"{"type": "object", "required": ["v"]}"#.utf8))
            try? handle?.close()
        }
        writer.start()
        let result = run(["validate", "--schema", fifo, RepositoryPaths.url("Examples/messages/apply.json").path])
        #expect(result.code == 0, "\(result.err)")
        #expect(result.out.hasSuffix("apply.json: valid\n"))
    }

    @Test func generateCheckSuggestsRegeneratingIntoTheFolderItChecked() throws {
        let folder = try temporaryFolder("generated").appendingPathComponent("web kit")
        let result = run(["generate", "js", "--check", "--out", folder.path])
        #expect(result.code == 1)
        #expect(result.out.hasSuffix("regenerate with: bridgectl generate js --contracts contracts --out '\(folder.path)'\n"), "\(result.out)")
    }
}
