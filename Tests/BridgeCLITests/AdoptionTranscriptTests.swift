import Foundation
import Testing
import TestSupport

/// A new app team's first session, run with the real bridgectl in an empty folder outside the
/// repository, with no --contracts anywhere and BRIDGEKIT_CONTRACTS unset: before `init` every
/// command is told to run it; after it, lint, check, generate js, validate and host --stdio all
/// find the new set by themselves.
@Suite struct AdoptionTranscriptTests {
    /// The bridgectl built beside this test runner (.build/debug/ or a --scratch-path's debug/).
    static var bridgectl: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("bridgectl")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return RepositoryPaths.url(".build/debug/bridgectl")
    }

    struct Run {
        let code: Int32
        let out: String
        let err: String
    }

    func run(_ arguments: [String], in folder: URL, input: String = "", contractsVariable: String? = nil) throws -> Run {
        let process = Process()
        process.executableURL = Self.bridgectl
        process.arguments = arguments
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        environment["BRIDGEKIT_CONTRACTS"] = contractsVariable
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(code: process.terminationStatus, out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self))
    }

    func listing(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    @Test func initThenEveryCommandFindsTheNewSetWithoutFlags() throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.bridgectl.path), "build bridgectl first: \(Self.bridgectl.path)")
        try withTemporaryFolder("adoption") { (folder: URL) throws in
            #expect(!folder.path.hasPrefix(RepositoryPaths.root.path + "/"), "the transcript runs outside the repository")

            // Before init: no set, and every command says how to make one.
            let none = try run(["version"], in: folder)
            #expect(none.code == 0 && none.out.contains("contracts: none found"), "\(none)")
            let lintBefore = try run(["lint"], in: folder)
            #expect(lintBefore.code == 2)
            #expect(lintBefore.err.split(separator: "\n").count == 1 && lintBefore.err.contains("bridgectl init"), "\(lintBefore.err)")
            #expect(lintBefore.out.isEmpty)

            let initArguments = ["init", "--bridge", "shopBridge", "--web-base-url", "https://shop.example.com", "--scheme", "shopapp",
                                 "--team-id", "ABCDE12345", "--bundle-id", "com.example.shop"]
            let created = try run(initArguments, in: folder)
            #expect(created.code == 0, "\(created)")
            #expect(created.out.contains("wrote contracts/manifest.json\n"))
            #expect(created.out.contains("wrote contracts/well-known/apple-app-site-association.json\n"))
            let written = listing(folder)

            // It never overwrites: a second init exits 2 and changes nothing.
            let again = try run(initArguments, in: folder)
            #expect(again.code == 2 && again.err.contains("already exists"), "\(again)")
            #expect(listing(folder) == written)

            let version = try run(["version"], in: folder)
            #expect(version.out.contains("found: contracts (the nearest contracts/ folder with a manifest.json)\n"), "\(version.out)")
            #expect(try run(["lint"], in: folder).code == 0)
            let check = try run(["check"], in: folder)
            #expect(check.code == 0, "\(check)")

            let generated = try run(["generate", "js"], in: folder)
            #expect(generated.code == 0, "\(generated)")
            let bridge = try String(contentsOf: folder.appendingPathComponent("js/bridge.js"), encoding: .utf8)
            #expect(bridge.contains("shopBridge"))
            #expect(!bridge.lowercased().contains("sendy"))

            let valid = #"{"v":1,"id":"0123456789abcdef","action":"open_event","version":1,"payload":{"slug":"spring-sale"}}"#
            let invalid = #"{"v":1,"id":"0123456789abcdef","action":"open_event","version":1,"payload":{"slug":"Spring Sale"}}"#
            try valid.write(to: folder.appendingPathComponent("valid.json"), atomically: true, encoding: .utf8)
            try invalid.write(to: folder.appendingPathComponent("invalid.json"), atomically: true, encoding: .utf8)
            #expect(try run(["validate", "valid.json"], in: folder).code == 0)
            let refused = try run(["validate", "invalid.json"], in: folder)
            #expect(refused.code == 1 && refused.out.contains("/payload/slug"), "\(refused)")

            let host = try run(["host", "--stdio"], in: folder, input: #"{"type":"message","body":\#(valid)}"# + "\n")
            #expect(host.code == 0, "\(host)")
            #expect(host.out.contains(#""type":"reply""#) && host.out.contains("https://shop.example.com/event/spring-sale"), "\(host.out)")

            // No build in the field yet: nothing to protect. Once one is recorded, its snapshot must be there.
            let fresh = try run(["release", "check"], in: folder)
            #expect(fresh.code == 0 && fresh.out.contains("no app build recorded yet"), "\(fresh)")
            #expect(try run(["release", "record", "ios", "1.0.0"], in: folder).code == 0)
            #expect(try run(["release", "check"], in: folder).out.contains("1 supported build;"))
            #expect(try run(["diff", "contracts-released", "contracts"], in: folder).code == 0)
            try FileManager.default.removeItem(at: folder.appendingPathComponent("contracts-released"))
            let lost = try run(["release", "check"], in: folder)
            #expect(lost.code == 2 && lost.err.contains("contracts-released"), "\(lost)")

            // From a folder below, the same set is found upward.
            let web = folder.appendingPathComponent("web")
            try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
            let below = try run(["version"], in: web)
            #expect(below.out.contains("found: ../contracts "), "\(below.out)")
        }
    }

    @Test func initIntoAFolderThenTheEnvironmentVariableFindsTheSetFromAnywhere() throws {
        try withTemporaryFolder("adoption-env") { (folder: URL) throws in
            let app = folder.appendingPathComponent("app")
            try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
            let created = try run(["init", "app", "--bridge", "b", "--web-base-url", "https://a.example", "--scheme", "a"], in: folder)
            #expect(created.code == 0, "\(created)")
            #expect(created.out.hasSuffix("next: cd app && bridgectl lint && bridgectl check (docs/adopting.md)\n"), "\(created.out)")
            #expect(created.out.contains("wrote app/contracts/manifest.json\n"))
            // No staging folder is left beside it.
            #expect(listing(app).filter { $0.hasPrefix(".") }.isEmpty, "\(listing(app))")

            let elsewhere = folder.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let contracts = app.appendingPathComponent("contracts").path
            let version = try run(["version"], in: elsewhere, contractsVariable: contracts)
            #expect(version.out.contains("found: \(contracts) (from BRIDGEKIT_CONTRACTS)\n"), "\(version.out)")
            #expect(try run(["lint"], in: elsewhere, contractsVariable: contracts).code == 0)
            // A hint printed from there names the set, so it runs as printed.
            let stale = try run(["generate", "js", "--check", "--out", "kit"], in: elsewhere, contractsVariable: contracts)
            #expect(stale.code == 1 && stale.out.hasSuffix("regenerate with: bridgectl generate js --contracts \(contracts) --out kit\n"), "\(stale.out)")
        }
    }

    /// Generated headers name the paths from the project folder, so a kit and Swift types
    /// generated from a subfolder are current for a --check from the project folder, and back.
    @Test func generatedFilesAreCurrentWhicheverFolderGeneratesOrChecksThem() throws {
        try withTemporaryFolder("adoption-headers") { (folder: URL) throws in
            let created = try run(["init", "--bridge", "b", "--web-base-url", "https://a.example", "--scheme", "a"], in: folder)
            #expect(created.code == 0, "\(created)")
            let web = folder.appendingPathComponent("web")
            try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)

            #expect(try run(["generate", "js", "--out", "../js"], in: web).code == 0)
            #expect(try run(["generate", "swift", "--out", "../AppTypes"], in: web).code == 0)
            let kit = try run(["generate", "js", "--out", "js", "--check"], in: folder)
            #expect(kit.code == 0, "\(kit.out)")
            let types = try run(["generate", "swift", "--contracts", folder.appendingPathComponent("contracts").path, "--out", "AppTypes", "--check"], in: folder)
            #expect(types.code == 0, "\(types.out)")
            let bridge = try String(contentsOf: folder.appendingPathComponent("js/bridge.js"), encoding: .utf8)
            #expect(bridge.contains("// Regenerate: bridgectl generate js --contracts contracts --out js\n"), "\(bridge.prefix(400))")

            #expect(try run(["generate", "js", "--out", "web/kit"], in: folder).code == 0)
            let below = try run(["generate", "js", "--out", "kit", "--check"], in: web)
            #expect(below.code == 0, "\(below.out)")
        }
    }

    @Test func initRefusesAContractsFileOrLinkAndWritesNothing() throws {
        try withTemporaryFolder("adoption-exists") { (folder: URL) throws in
            try "not a folder".write(to: folder.appendingPathComponent("contracts"), atomically: true, encoding: .utf8)
            let arguments = ["init", "--bridge", "b", "--web-base-url", "https://a.example", "--scheme", "a"]
            let file = try run(arguments, in: folder)
            #expect(file.code == 2 && file.err.contains("already exists"), "\(file)")
            try FileManager.default.removeItem(at: folder.appendingPathComponent("contracts"))
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("contracts").path, withDestinationPath: "/nonexistent")
            let link = try run(arguments, in: folder)
            #expect(link.code == 2 && link.err.contains("already exists"), "\(link)")
            #expect(listing(folder) == ["contracts"])
        }
    }

    @Test func initRefusesBadInputAndWritesNothing() throws {
        try withTemporaryFolder("adoption-refused") { (folder: URL) throws in
            let cases: [[String]] = [
                ["init", "--web-base-url", "https://a.example", "--scheme", "a"],
                ["init", "--bridge", "my-bridge", "--web-base-url", "https://a.example", "--scheme", "a"],
                ["init", "--bridge", "b", "--web-base-url", "http://a.example", "--scheme", "a"],
                ["init", "--bridge", "b", "--web-base-url", "https://a.example", "--scheme", "my_app"],
                ["init", "--bridge", "b", "--web-base-url", "https://a.example", "--scheme", "a", "--team-id", "short", "--bundle-id", "com.a.b"],
                ["init", "nowhere", "--bridge", "b", "--web-base-url", "https://a.example", "--scheme", "a"],
            ]
            for arguments in cases {
                let result = try run(arguments, in: folder)
                #expect(result.code == 2, "\(arguments)")
                #expect(result.err.hasPrefix("bridgectl init: ") && result.err.split(separator: "\n").count == 1, "\(result.err)")
                #expect(listing(folder).isEmpty, "\(arguments) wrote \(listing(folder))")
            }
        }
    }
}
