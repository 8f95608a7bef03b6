import Foundation
import Testing
import TestSupport
import BridgeContracts
import SchemaCheck

@testable import BridgeCLI

/// `bridgectl diff` and the compatibility gate of `make test` (`bridgectl diff
/// contracts-released contracts`), through the entry point the binary uses, on scratch copies
/// of the repository's contracts.
@Suite @MainActor final class DiffCLITests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("diff") }
    deinit { testFolder.remove() }

    static let repository = RepositoryPaths.root
    static let released = repository.appendingPathComponent("contracts-released").path
    static let contracts = repository.appendingPathComponent("contracts").path

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    func scratch() throws -> URL {
        let folder = testFolder.url("bridgekit-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A copy of contracts/ with some files' text replaced (each replacement must apply).
    func contractsCopy(_ edits: [String: [(String, String)]] = [:]) throws -> String {
        let folder = try scratch().appendingPathComponent("contracts")
        try FileManager.default.copyItem(atPath: Self.contracts, toPath: folder.path)
        for (file, replacements) in edits {
            let url = folder.appendingPathComponent(file)
            var text = try String(contentsOf: url, encoding: .utf8)
            for (old, new) in replacements {
                #expect(text.contains(old), "\(file) has \(old)")
                text = text.replacingOccurrences(of: old, with: new)
            }
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return folder.path
    }

    static let narrowPlan = ["schemas/apply.v1.json": [(#""plan": { "enum": ["basic", "premium", "business"]"#, #""plan": { "enum": ["basic", "premium"]"#)]]

    // MARK: The gate

    /// What the gate says of open_directions, in the contracts but in no recorded build yet.
    static let unreleasedDirections = """
        open_directions: new action, version(s) 1: info [action-added]
        event login_state_changed: new event, version(s) 1: app builds in the field never send it: info [event-added]
        route directions /routes/9: route directions (/directions) added; new path: devices may not open it in the app for up to 48 h after the AASA is deployed (iOS caches apple-app-site-association); app builds in the field open its links on the web: info [route-added]

        """

    @Test func theRepositoryPassesTheGate() {
        let result = run(["diff", Self.released, Self.contracts])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        // Every version a supported build takes is in the snapshot (release record put it there);
        // open_directions and the login_state_changed event ship with no build yet, so they are
        // new to the gate: info, not a finding.
        #expect(result.out == Self.unreleasedDirections + "diff: 0 breaking, 0 possibly breaking, 0 compatible, 3 info\n")
    }

    @Test func anIncompatibleEditOfApplyV1FailsTheGateNamingTheFinding() throws {
        let edited = try contractsCopy(Self.narrowPlan)
        let result = run(["diff", Self.released, edited])
        #expect(result.code == 1)
        #expect(result.out.contains(#"apply v1 /properties/payload/properties/plan: enum narrowed ("business" removed): breaks pages in the field [enum-narrowed]; e.g. {"#))
        #expect(result.out.contains("apply v1: a released version changed incompatibly (1 incompatible finding): add apply v3 instead: breaks pages in the field [version-not-bumped]"))
        #expect(result.out.hasSuffix("diff: 2 breaking, 0 possibly breaking, 0 compatible, 3 info\n"))

        let json = run(["diff", "--format", "json", Self.released, edited])
        #expect(json.code == 1)
        let report = try JSONDocument(json.out, limits: .unlimited).value
        #expect(report["breaking"] == 2)
        let finding = try #require(report["findings"]?.arrayValue?.first { $0["kind"] == "enum-narrowed" })
        #expect(finding["severity"] == "breaking")
        #expect(finding["action"] == "apply")
        #expect(finding["version"] == 1)
        #expect(finding["schemaPointer"] == "/properties/payload/properties/plan")
        #expect(finding["counterexample"]?["acceptedBy"] == "old")
        #expect(finding["counterexample"]?["message"]?.value(at: "/payload/plan") == "business")
    }

    @Test func compatibleEditsPassTheGate() throws {
        let edits: [(String, [String: [(String, String)]], String)] = [
            ("a description", ["schemas/apply.v1.json": [("The event's slug, as in /event/:slug.", "The event's slug (see routes.json).")]],
             "apply v1 /properties/payload/properties/slug: description changed: info [annotation-changed]"),
            ("a $ref refactor",
             ["schemas/apply.v1.json": [
                (#""memo": { "type": "string", "maxLength": 200, "description": "Free text from the person (Korean allowed)." }"#,
                 ##""memo": { "$ref": "#/$defs/memo" }"##),
                (#""$defs": {"#, #""$defs": { "memo": { "type": "string", "maxLength": 200, "description": "Free text from the person (Korean allowed)." },"#),
             ]],
             "diff: 0 breaking, 0 possibly breaking, 0 compatible, 3 info"),
            ("a property added to an open object",
             ["schemas/envelope.v1.json": [(#""payload": { "type": "object", "description": "Action-specific; see the action's schema." }"#,
                                            #""payload": { "type": "object", "description": "Action-specific; see the action's schema.", "properties": { "trace": { "description": "Any value a page adds for its own debugging." } } }"#)]],
             "envelope.v1.json /properties/payload/properties/trace: property \"trace\" declared in an open object (accepts the same values as before): compatible [property-added-to-open-object]"),
        ]
        for (what, edit, expected) in edits {
            let result = run(["diff", Self.released, try contractsCopy(edit)])
            #expect(result.code == 0, "\(what): \(result.out)")
            #expect(result.out.contains(expected), "\(what): \(result.out)")
            #expect(!result.out.contains("breaks "), "\(what): \(result.out)")
        }
    }

    @Test func aTypedPropertyAddedToAnOpenObjectIsNotCompatible() throws {
        let edited = try contractsCopy(["schemas/envelope.v1.json": [
            (#""payload": { "type": "object", "description": "Action-specific; see the action's schema." }"#,
             #""payload": { "type": "object", "properties": { "trace": { "type": "string" } } }"#)]])
        let result = run(["diff", Self.contracts, edited])
        // Every action's payload is closed, so the envelope's open payload decides nothing.
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains("no action version's message changes here"))
    }

    // MARK: Events: the app writes, pages read

    static let eventSchema = "schemas/login_state_changed.v1.json"

    @Test func aLoosenedEventFailsTheDiffNamingThePagesThatReadIt() throws {
        let edited = try contractsCopy([Self.eventSchema: [(#""enum": ["login", "logout", "session_expired"]"#,
                                                             #""enum": ["login", "logout", "session_expired", "account_switched"]"#)]])
        let result = run(["diff", Self.contracts, edited])
        #expect(result.code == 1, "\(result.out)")
        #expect(result.out.contains(#"event login_state_changed v1 /properties/payload/properties/reason: enum widened ("account_switched" added): breaks pages that read v1: they get messages they reject (checked app to page: the app writes, pages read) [enum-widened]; e.g. {"v":1,"event":"login_state_changed","version":1,"payload":{"loggedIn":true,"reason":"account_switched"}} (pages built against the old schema drop it as invalid"#),
                "\(result.out)")
        #expect(result.out.contains("event login_state_changed v1: a released version changed incompatibly (1 incompatible finding): add login_state_changed v2 instead"))
        let json = try JSONDocument(run(["diff", "--format", "json", Self.contracts, edited]).out, limits: .unlimited).value
        let finding = try #require(json["findings"]?.arrayValue?.first { $0["kind"] == "enum-widened" })
        #expect(finding["event"] == "login_state_changed" && finding["version"] == 1 && finding["action"] == .null)
        #expect(finding["breaks"] == "pages that read v1")
        #expect(finding["counterexample"]?["acceptedBy"] == "new")
    }

    @Test func aTightenedEventPassesTheDiff() throws {
        let edited = try contractsCopy([Self.eventSchema: [(#""required": ["loggedIn"]"#, #""required": ["loggedIn", "reason"]"#)]])
        let result = run(["diff", Self.contracts, edited])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains(#"event login_state_changed v1 /properties/payload/properties/reason: "reason" is now required: compatible (checked app to page: new builds send only messages the old schema accepts, so pages that read v1 reject none) [required-added]"#),
                "\(result.out)")
        #expect(!result.out.contains("breaks "))
    }

    // MARK: Counterexamples as fixtures

    @Test func writtenCounterexamplesAreFixturesTheNewContractsPass() throws {
        let edited = try contractsCopy(Self.narrowPlan.merging(["schemas/envelope.v1.json": [(#""maxLength": 40"#, #""maxLength": 30"#)]]) { $0 + $1 })
        let out = try scratch().appendingPathComponent("counterexamples").path
        let result = run(["diff", "--write-counterexamples", out, Self.contracts, edited])
        #expect(result.code == 1)
        let written = try FileManager.default.subpathsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") }.sorted()
        #expect(written == ["apply/v1/invalid-diff-enum-narrowed-payload-plan.json", "apply/v1/invalid-diff-max-length-tightened-sentAt.json"])
        // Dropped into the new contracts' fixtures, they pass `bridgectl check` as they are.
        for path in written {
            try FileManager.default.copyItem(atPath: out + "/" + path, toPath: edited + "/fixtures/" + path)
        }
        let check = run(["check", "--contracts", edited, "fixtures/apply/v1/invalid-diff"])
        #expect(check.code == 0, "\(check.out)")
        #expect(check.out.hasSuffix("fixtures: 2 passed, 0 failed\n"))
    }

    // MARK: Accepted changes

    func accepting(expires: String) throws -> String {
        try contractsCopy(Self.narrowPlan.merging(["accepted-changes.json": [(#""accepted": []"#, """
            "accepted": [
              {"kind": "enum-narrowed", "action": "apply", "version": 1, "schemaPointer": "/properties/payload/properties/plan",
               "reason": "no page ever sent business", "expires": "\(expires)"}
            ]
            """)]]) { $0 + $1 })
    }

    @Test func anAcceptedFindingIsPrintedAndDoesNotFail() throws {
        let result = run(["diff", "--today", "2026-06-01", Self.contracts, try accepting(expires: "2026-06-30")])
        #expect(result.code == 0, "\(result.out)")
        #expect(result.out.contains("[enum-narrowed]; e.g. "))
        #expect(result.out.contains("[accepted until 2026-06-30: no page ever sent business]"))
        // With its only incompatible finding accepted, apply v1 needs no new version.
        #expect(!result.out.contains("[version-not-bumped]"))
        #expect(result.out.hasSuffix("(1 accepted)\n"))
    }

    @Test func anExpiredAcceptanceFailsAndSaysSo() throws {
        let result = run(["diff", "--today", "2026-07-01", Self.contracts, try accepting(expires: "2026-06-30")])
        #expect(result.code == 1)
        #expect(result.out.contains("accepted-changes.json /accepted/0: the acceptance of enum-narrowed of apply v1 /properties/payload/properties/plan expired on 2026-06-30"))
        #expect(!result.out.contains("[accepted until"))
    }

    // MARK: Bad input: one line, exit 2, nothing written

    @Test func badInputIsOneLineAndExitTwo() throws {
        let out = try scratch().appendingPathComponent("never").path
        let broken = try contractsCopy(["schemas/apply.v1.json": [(#""pattern": "^[a-z0-9-]{1,64}$""#, #""pattern": "([a-z""#)]])
        let badAccepted = try contractsCopy(["accepted-changes.json": [(#""accepted": []"#, #""accepted": [{"kind": "no-such-kind"}]"#)]])
        let cases: [([String], String)] = [
            (["diff", "/no/such/folder", Self.contracts], "bridgectl diff: /no/such/folder: cannot be read: no such folder\n"),
            (["diff", Self.contracts, broken], "bridgectl diff: schemas/apply.v1.json: does not compile: "),
            (["diff", Self.contracts, badAccepted], "bridgectl diff: accepted-changes.json: /accepted/0/kind: unknown finding kind \"no-such-kind\""),
            (["diff", Self.contracts], "bridgectl diff: expected OLD and NEW contracts folders (or --base REV [NEW]); see bridgectl diff --help\n"),
            (["diff", "--today", "June", Self.contracts, Self.contracts], "bridgectl diff: --today June is not a date YYYY-MM-DD\n"),
        ]
        for (arguments, message) in cases {
            let result = run(arguments + ["--write-counterexamples", out])
            #expect(result.code == 2, "\(arguments)")
            #expect(result.err.hasPrefix(message), "\(arguments): \(result.err)")
            #expect(result.err.split(separator: "\n").count == 1, "\(arguments): \(result.err)")
            #expect(result.out.isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    // MARK: --base REV

    @discardableResult
    func git(_ arguments: [String], in folder: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-c", "user.name=bridgekit test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "git \(arguments)")
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func baseComparesWithTheContractsAtAGitRevision() throws {
        let repository = try scratch()
        try git(["init", "-q"], in: repository)
        try "a repository without contracts yet\n".write(to: repository.appendingPathComponent("README"), atomically: true, encoding: .utf8)
        try git(["add", "README"], in: repository)
        try git(["commit", "-q", "-m", "start"], in: repository)
        let first = try git(["rev-parse", "HEAD"], in: repository)
        let folder = repository.appendingPathComponent("contracts")
        try FileManager.default.copyItem(atPath: Self.contracts, toPath: folder.path)
        try git(["add", "contracts"], in: repository)
        try git(["commit", "-q", "-m", "contracts"], in: repository)

        let unchanged = run(["diff", "--base", "HEAD", folder.path])
        #expect(unchanged.code == 0, "\(unchanged.out)\(unchanged.err)")
        #expect(unchanged.out == "diff: 0 breaking, 0 possibly breaking, 0 compatible, 0 info\n")

        let schema = folder.appendingPathComponent("schemas/apply.v1.json")
        let text = try String(contentsOf: schema, encoding: .utf8)
        try text.replacingOccurrences(of: #"["basic", "premium", "business"]"#, with: #"["basic", "premium"]"#)
            .write(to: schema, atomically: true, encoding: .utf8)
        let edited = run(["diff", "--base", "HEAD", folder.path])
        #expect(edited.code == 1)
        #expect(edited.out.contains("[enum-narrowed]"))
        // Read only: the working tree keeps its edit, HEAD its contracts.
        #expect(try git(["status", "--porcelain"], in: repository) == "M contracts/schemas/apply.v1.json")

        let missing = run(["diff", "--base", "no-such-branch", folder.path])
        #expect(missing.code == 2)
        #expect(missing.err == "bridgectl diff: no-such-branch: no such revision in \(repository.resolvingSymlinksInPath().path)\n"
            || missing.err.hasPrefix("bridgectl diff: no-such-branch: no such revision in "))
        let empty = run(["diff", "--base", first, folder.path])
        #expect(empty.code == 2)
        #expect(empty.err == "bridgectl diff: \(first):contracts: has no contracts (no manifest.json there at this revision)\n")
    }
}
