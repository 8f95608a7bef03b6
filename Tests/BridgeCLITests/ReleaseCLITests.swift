import Foundation
import Testing
import TestSupport
import BridgeContracts
import JSONCore
import SchemaCheck

@testable import BridgeCLI

/// `bridgectl release` and `bridgectl can-i-deploy` through the entry point the binary uses, on
/// scratch copies of contracts/ and contracts-released/ (side by side, as in the repository).
@Suite @MainActor final class ReleaseCLITests {
    /// This test's temporary folder: Swift Testing makes one suite instance per test and drops it
    /// after, so the folder goes with it (a failing test included).
    let testFolder: TemporaryFolder
    init() throws { testFolder = try TemporaryFolder("release") }
    deinit { testFolder.remove() }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    /// A scratch folder with copies of contracts/ and contracts-released/; returns both paths.
    func copies() throws -> (contracts: String, released: String) {
        let folder = testFolder.url("bridgekit-release-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["contracts", "contracts-released"] {
            try FileManager.default.copyItem(atPath: Self.repository.appendingPathComponent(name).path,
                                             toPath: folder.appendingPathComponent(name).path)
        }
        return (folder.appendingPathComponent("contracts").path, folder.appendingPathComponent("contracts-released").path)
    }

    func text(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    func edit(_ path: String, _ old: String, _ new: String) throws {
        let before = try text(path)
        #expect(before.contains(old), "\(path) has \(old)")
        try before.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The files of a folder, by relative path, for "nothing changed" checks.
    func snapshot(_ folder: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) where path.hasSuffix(".json") || path.hasSuffix(".md") {
            files[path] = try text(folder + "/" + path)
        }
        return files
    }

    // MARK: record

    @Test func theRepositoryTellsOneStory() {
        let result = run(["release", "check", "--contracts", Self.repository.appendingPathComponent("contracts").path])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasSuffix("protects exactly what they take (apply v1, v2; view_vehicles v1; start v1)\n"))
    }

    @Test func recordWritesTheBuildAndRefreshesTheSnapshot() throws {
        let (contracts, released) = try copies()
        // A new apply v3 ships with the next build: the snapshot must protect it from then on.
        try FileManager.default.copyItem(atPath: contracts + "/schemas/apply.v2.json", toPath: contracts + "/schemas/apply.v3.json")
        try edit(contracts + "/schemas/apply.v3.json", "apply.v2.json", "apply.v3.json")
        try edit(contracts + "/manifest.json", "\"2\": {\n          \"schema\": \"apply.v2.json\",",
                 "\"3\": {\"schema\": \"apply.v3.json\", \"route\": \"applyForm\", \"parameters\": {\"slug\": \"/payload/slug\"}, "
                 + "\"timeoutMs\": 5000, \"fallback\": \"universalLink\"},\n        \"2\": {\n          \"schema\": \"apply.v2.json\",")
        #expect(run(["release", "check", "--contracts", contracts]).code == 0, "an unreleased version needs no build yet")

        let result = run(["release", "record", "ios", "5.14.0", "--share", "2.5", "--contracts", contracts])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasPrefix("recorded ios 5.14.0: supported, 2.5% of sessions; apply v1, v2, v3; view_vehicles v1; start v1; open_directions v1\n"
                                     + "sends its pages: navigation_completed v1; login_state_changed v1\n"))
        let catalog = try ReleaseCatalog.parse(try text(contracts + "/releases.json"))
        #expect(catalog.release(try AppBuild(reference: "ios@5.14.0"))?.versions(of: "apply") == [1, 2, 3])
        // What the current contracts send, built-in events first; the builds before it send none.
        #expect(catalog.release(try AppBuild(reference: "ios@5.14.0"))?.events
            == [ActionVersions(action: "navigation_completed", versions: [1]), ActionVersions(action: "login_state_changed", versions: [1])])
        #expect(catalog.release(try AppBuild(reference: "ios@5.13.0"))?.events == [])
        #expect(try text(contracts + "/releases.json").contains(#""open_directions": [1]}, "events": {"navigation_completed": [1], "login_state_changed": [1]}}"#))
        #expect(try text(released + "/schemas/apply.v3.json") == (try text(contracts + "/schemas/apply.v3.json")))
        let held = try ContractSet.load(directory: released, includingFixtures: false).manifest
        #expect(held.action(named: "apply")?.versions.map(\.version) == [1, 2, 3])
        #expect(FileManager.default.fileExists(atPath: released + "/README.md"), "the snapshot's README stays")
        #expect(run(["release", "check", "--contracts", contracts]).code == 0)
        #expect(run(["diff", released, contracts]).code == 0)
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: contracts)).contains { $0.contains(".tmp-") }, "no temporary file left")
    }

    @Test(arguments: [
        (["ios", "5.13.0"], "bridgectl release: ios 5.13.0 is already recorded (supported; apply v1, v2; view_vehicles v1; start v1); a build's capabilities do not change once it shipped\n"),
        (["web", "5.13.0"], "bridgectl release: unknown platform \"web\" (platforms: ios, android)\n"),
        (["ios", "5.14"], "bridgectl release: malformed version \"5.14\": expected MAJOR.MINOR.PATCH, e.g. 5.13.0\n"),
        (["ios", "5.14.0+7"], "bridgectl release: malformed version \"5.14.0+7\": build metadata (+...) has no order; use MAJOR.MINOR.PATCH[-PRERELEASE]\n"),
        (["ios", "5.14.0", "--share", "-1"], "bridgectl release: --share -1: give the build's share of sessions in percent, a number from 0 to 100\n"),
        (["ios"], "bridgectl release: record takes PLATFORM VERSION, e.g. record ios 5.13.0\n"),
    ])
    func badRecordsAreOneLineAndWriteNothing(words: [String], message: String) throws {
        let (contracts, released) = try copies()
        let before = (try snapshot(contracts), try snapshot(released))
        let result = run(["release", "record"] + words + ["--contracts", contracts])
        #expect(result.code == 2)
        #expect(result.err == message)
        #expect(result.out == "")
        #expect(try snapshot(contracts) == before.0)
        #expect(try snapshot(released) == before.1)
    }

    @Test func aContractSetThatBreaksTheReleasedOnesIsNotRecorded() throws {
        let (contracts, released) = try copies()
        try edit(contracts + "/schemas/apply.v1.json", #""enum": ["basic", "premium", "business"]"#, #""enum": ["basic", "premium"]"#)
        let before = (try snapshot(contracts), try snapshot(released))
        let result = run(["release", "record", "ios", "5.14.0", "--contracts", contracts])
        #expect(result.code == 1)
        #expect(result.err.contains("[enum-narrowed]"))
        #expect(result.err.hasSuffix("bridgectl release: ios 5.14.0 not recorded: \(contracts)/ breaks the released contracts in \(released)/ (findings above); a build must not ship them\n"))
        #expect(try snapshot(contracts) == before.0, "releases.json unchanged")
        #expect(try snapshot(released) == before.1, "the snapshot still protects the released apply v1")
    }

    /// apply v1's plan moved from ?plan= to ?tier=: every message still validates, but opens
    /// another URL in new builds. That passed the gate once; now it is refused.
    @Test func aMovedQueryMappingIsNotRecorded() throws {
        let (contracts, released) = try copies()
        defer { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: contracts).deletingLastPathComponent().path) }
        try edit(contracts + "/manifest.json", #""query": { "plan": "/payload/plan", "memo": "/payload/memo" },"#,
                 #""query": { "tier": "/payload/plan", "memo": "/payload/memo" },"#)
        try edit(contracts + "/routes.json", #""query": { "plan": "string","#, #""query": { "plan": "string", "tier": "string","#)
        let before = (try snapshot(contracts), try snapshot(released))
        let result = run(["release", "record", "ios", "5.14.0", "--contracts", contracts])
        #expect(result.code == 1, "\(result.err)")
        #expect(result.err.contains("[mapping-renamed]") && result.err.contains("tier="), "\(result.err)")
        #expect(result.err.hasSuffix("not recorded: \(contracts)/ breaks the released contracts in \(released)/ (findings above); a build must not ship them\n"))
        #expect(try snapshot(contracts) == before.0, "releases.json unchanged")
        #expect(try snapshot(released) == before.1)
    }

    @Test func aSnapshotThatCannotBeWrittenLeavesReleasesJSONAsItWas() throws {
        let (contracts, released) = try copies()
        // A compatible change, so the snapshot's manifest must be rewritten; a stale temporary file
        // of this process (as a crashed run would leave) makes creating the new one fail.
        try edit(contracts + "/manifest.json", "\"title\": \"신청\"", "\"title\": \"신청하기\"")
        try "stale".write(toFile: released + "/.manifest.json.tmp-\(getpid())", atomically: false, encoding: .utf8)
        let before = try text(contracts + "/releases.json")
        let result = run(["release", "record", "ios", "5.14.0", "--contracts", contracts])
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("bridgectl release: \(released)/manifest.json: cannot be written: File exists"), "\(result.err)")
        #expect(try text(contracts + "/releases.json") == before)
    }

    @Test func replacingAFileIsAllOrNothing() throws {
        let (contracts, _) = try copies()
        let target = contracts + "/releases.json"
        let before = try text(target)
        try FileSystem.replaceAtomically(atPath: target, contents: "new text\n")
        #expect(try text(target) == "new text\n")
        // The target is a non-empty folder: rename(2) fails, the temporary file goes, nothing changes.
        #expect(throws: FileWriteError.self) { try FileSystem.replaceAtomically(atPath: contracts + "/schemas", contents: before) }
        #expect(throws: FileWriteError.self) { try FileSystem.replaceAtomically(atPath: contracts + "/no-such-folder/x.json", contents: before) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: contracts).filter { $0.contains(".tmp-") } == [])
        #expect(FileSystem.status(atPath: contracts + "/schemas")?.isDirectory == true)
    }

    // MARK: end-support, list, check

    @Test func endingSupportOfTheLastBuildsWithAVersionStopsProtectingIt() throws {
        let (contracts, released) = try copies()
        var result = run(["release", "end-support", "ios", "5.12.0", "--contracts", contracts])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("ios 5.12.0: support ended\n\(released)/: unchanged"))
        for build in [["ios", "5.13.0"], ["android", "5.12.3"]] {
            #expect(run(["release", "end-support"] + build + ["--contracts", contracts]).code == 0)
        }
        result = run(["release", "end-support", "android", "5.13.1", "--contracts", contracts])
        #expect(result.out.contains("\(released)/: no longer protects apply v1, apply v2 (no supported build takes them)\n"), "\(result.out)")
        #expect(try ContractSet.load(directory: released, includingFixtures: false).manifest.action(named: "apply") == nil)
        #expect(run(["release", "check", "--contracts", contracts]).code == 0)
        result = run(["release", "end-support", "android", "5.13.1", "--contracts", contracts])
        #expect(result.code == 2)
        #expect(result.err == "bridgectl release: android 5.13.1: support has already ended\n")
    }

    @Test func checkFindsASnapshotRecordedWithoutARelease() throws {
        let (contracts, released) = try copies()
        // What the old `make record-release` did: copy contracts with a new version, record no build.
        try edit(released + "/manifest.json", "\"1\": {\n          \"schema\": \"start.v1.json\",",
                 "\"2\": {\"schema\": \"start.v1.json\", \"route\": \"onboardingStart\"},\n        \"1\": {\n          \"schema\": \"start.v1.json\",")
        let result = run(["release", "check", "--contracts", contracts])
        #expect(result.code == 1)
        #expect(result.out == "\(released)/ holds start v2, which no supported build in releases.json takes: record the build that ships it (bridgectl release record), or end-support drops it\nrelease check: 1 problem: \(contracts)/releases.json and \(released)/ disagree\n")
    }

    @Test func listShowsEveryBuild() throws {
        let result = run(["release", "list", "--contracts", Self.repository.appendingPathComponent("contracts").path])
        #expect(result.code == 0)
        #expect(result.out.hasPrefix("build           status         share  actions\nios 5.9.0       support-ended  0.3%   view_vehicles v1; start v1\n"))
        #expect(result.out.hasSuffix("6 builds: 5 supported, 1 support-ended\n"))
        let json = run(["release", "list", "--format", "json", "--contracts", Self.repository.appendingPathComponent("contracts").path])
        let parsed = try JSONDocument(json.out, limits: .unlimited).value
        #expect(parsed.value(at: "/releases/0/status") == "support-ended")
        #expect(parsed.value(at: "/releases/2/actions/apply") == [1, 2])
    }

    @Test func aMissingContractsFolderIsNamed() {
        let result = run(["release", "list", "--contracts", "/nonexistent/contracts"])
        #expect(result.code == 2)
        #expect(result.err == "bridgectl release: /nonexistent/contracts: not a contracts folder (no such directory); pass --contracts DIR\n")
    }

    // MARK: can-i-deploy

    func deploy(_ usage: String, _ options: [String] = []) -> (code: Int32, out: String, err: String) {
        run(["can-i-deploy", "-", "--contracts", Self.repository.appendingPathComponent("contracts").path] + options, input: usage)
    }

    @Test func aPageSendingOnlyApplyV2IsBlockedByTheBuildsWithV1() {
        let result = deploy(#"{"page": "event/new-user-promo", "calls": [{"action": "apply", "versions": [2]}, {"action": "start", "versions": [1]}]}"#)
        #expect(result.code == 1)
        #expect(result.out == """
            can-i-deploy event/new-user-promo: 2 calls against 5 supported builds
            build           share  apply v2  start v1
            ios 5.13.0      42%    ok        ok
            ios 5.12.0      9.5%   BROKEN    ok
            android 5.13.1  37%    ok        ok
            android 5.12.3  6%     BROKEN    ok
            android 5.9.4   1.2%   fallback  ok
            BROKEN: apply v2 on ios 5.12.0: the build takes apply v1 only and answers UNSUPPORTED_VERSION to v2
            BROKEN: apply v2 on android 5.12.3: the build takes apply v1 only and answers UNSUPPORTED_VERSION to v2
            can-i-deploy: no: 2 builds broken (15.5% of sessions); offer versions they take (bridge.offer) or keep the page back

            """)
    }

    @Test func offeringV1TooDeploysAndStrictStillSeesTheFallback() throws {
        let usage = #"{"page": "event/new-user-promo", "calls": [{"action": "apply", "versions": [2, 1]}]}"#
        let result = deploy(usage)
        #expect(result.code == 0)
        #expect(result.out.contains("ios 5.12.0      9.5%   ok (older version 1)\n"))
        #expect(result.out.hasSuffix("can-i-deploy: yes (1 build falls back to the Universal Link: 1.2% of sessions)\n"))
        let strict = deploy(usage, ["--strict"])
        #expect(strict.code == 1)
        #expect(strict.out.hasSuffix("can-i-deploy: no (--strict): 1 build only falls back to the Universal Link (1.2% of sessions)\n"))
        let json = deploy(usage, ["--format", "json"])
        let report = try JSONDocument(json.out, limits: .unlimited).value
        #expect(report["deployable"] == true)
        #expect(report.value(at: "/builds/1/results/0") == ["action": "apply", "outcome": "older-version", "sends": 1])
        #expect(report.value(at: "/fallbackOnly/share") == .number(1.2))
    }

    /// contracts/releases.json predates events: every supported build is named in a warning, and
    /// the page may still ship (exit 0, --strict too); a build recorded since sends it.
    @Test func aSubscriptionNoBuildServesIsAWarningPerBuild() throws {
        let usage = #"{"page": "p", "calls": [{"action": "start", "versions": [1]}], "events": [{"event": "login_state_changed", "versions": [1]}]}"#
        let result = deploy(usage, ["--strict"])
        #expect(result.code == 0, "\(result.out)\(result.err)")
        let warnings = result.out.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
        #expect(warnings.count == 5)
        #expect(warnings.first == "warning: ios 5.13.0 never sends login_state_changed v1 (it sends no version of it): the page's handlers never run there")
        #expect(result.out.hasSuffix("can-i-deploy: yes\n"))
        let json = try JSONDocument(deploy(usage, ["--format", "json"]).out, limits: .unlimited).value
        #expect(json["eventWarnings"]?.arrayValue?.count == 5)
        #expect(json.value(at: "/eventWarnings/0/event") == "login_state_changed" && json.value(at: "/eventWarnings/0/sends") == [])

        let (contracts, _) = try copies()
        #expect(run(["release", "record", "ios", "5.14.0", "--contracts", contracts]).code == 0)
        let recorded = run(["can-i-deploy", "-", "--contracts", contracts], input: usage)
        #expect(!recorded.out.contains("warning: ios 5.14.0"), "\(recorded.out)")
        #expect(recorded.out.split(separator: "\n").filter { $0.hasPrefix("warning: ") }.count == 5)
    }

    @Test(arguments: [
        (#"{"page": "p", "calls": [{"action": "aply", "versions": [1]}]}"#, "bridgectl can-i-deploy: <stdin>: /calls/0/action: unknown action \"aply\" (actions: apply, view_vehicles, start, open_directions)\n"),
        ("not json", "bridgectl can-i-deploy: <stdin>: not valid JSON: line 1 column 3: invalid token near 'not'\n"),
        ("", "bridgectl can-i-deploy: <stdin>: is empty; expected one JSON document\n"),
    ])
    func badUsageIsExit2(usage: String, message: String) {
        let result = deploy(usage)
        #expect(result.code == 2)
        #expect(result.err == message)
    }
}
