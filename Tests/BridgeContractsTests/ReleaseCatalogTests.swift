import BridgeContracts
import Testing
import TestSupport

@Suite("Semantic versions of app builds")
struct SemanticVersionTests {
    @Test(arguments: ["5.13.0", "0.0.1", "10.20.30", "1.0.0-beta.2", "1.0.0-rc-1", "1.0.0-0.3.7", "0.0.0", "99999999.0.0",
                      "999999999.0.0", "1.999999999.0", "1.0.0-999999999"])
    func validVersionsReadAndPrintBack(text: String) throws {
        #expect(try SemanticVersion(parsing: text).description == text)
    }

    /// A numeric identifier has at most 9 digits (8, 9 taken; 10 refused) and no leading zero.
    @Test(arguments: ["5.13", "5", "05.1.0", "5.01.0", "5.1.0.1", "5.1.0+42", "5.1.0-", "5.1.0-01", "5.1.0-a..b", "v5.1.0", "", "5.1.x", "5.1.0-ü",
                      "1000000000.0.0", "1.0.1000000000", "1.0.0-1000000000", "5..0", ".1.0", "5.1.", "5.1.0-a.", "-1.0.0"])
    func malformedVersionsAreRefused(text: String) {
        #expect(throws: SemanticVersionError.self) { try SemanticVersion(parsing: text) }
    }

    @Test func precedenceFollowsSemver() throws {
        let ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
                       "1.0.0-rc.1", "1.0.0", "1.2.0", "1.10.0", "2.0.0"]
        let versions = try ordered.map { try SemanticVersion(parsing: $0) }
        for (earlier, later) in zip(versions, versions.dropFirst()) {
            #expect(earlier < later, "\(earlier) < \(later)")
            #expect(!(later < earlier))
        }
    }

    @Test func buildReferencesNameThePlatformAndVersion() throws {
        #expect(try AppBuild(reference: "ios@5.13.0").description == "ios 5.13.0")
        #expect(throws: ReleaseError("unknown platform \"web\" (platforms: ios, android)")) { try AppBuild(reference: "web@5.13.0") }
        #expect(throws: ReleaseError("\"ios-5.13.0\" is not PLATFORM@VERSION (e.g. ios@5.13.0)")) { try AppBuild(reference: "ios-5.13.0") }
        #expect(throws: ReleaseError("malformed version \"5.13\": expected MAJOR.MINOR.PATCH, e.g. 5.13.0")) { try AppBuild(reference: "ios@5.13") }
    }

    /// An empty side of the "@" is named as the part that is missing, not as a missing "@".
    @Test func aReferenceWithAnEmptySideNamesThatSide() {
        #expect(throws: ReleaseError("malformed version \"\": expected MAJOR.MINOR.PATCH, e.g. 5.13.0")) { try AppBuild(reference: "ios@") }
        #expect(throws: ReleaseError("unknown platform \"\" (platforms: ios, android)")) { try AppBuild(reference: "@5.13.0") }
        #expect(throws: ReleaseError("malformed version \"@5.13.0\": \"@5\" is not a number without leading zeros")) { try AppBuild(reference: "ios@@5.13.0") }
    }
}

@Suite("releases.json: reading, writing, recording, ending support")
struct ReleaseCatalogTests {
    static let text = RepositoryContractFiles.files["releases.json"] ?? ""

    @Test func theRepositoryFileReadsAndIsWrittenBackByteForByte() throws {
        let catalog = try ReleaseCatalog.parse(Self.text)
        #expect(catalog.releases.count >= 5)
        #expect(catalog.text == Self.text, "releases.json is in the form release record writes")
        #expect(catalog.releases.contains { $0.status == .supportEnded })
        #expect(catalog.supported.contains { $0.versions(of: "apply") == [1] && $0.share != nil }, "a build with apply v1 only")
        #expect(catalog.supported.contains { $0.versions(of: "apply") == [1, 2] }, "a build with apply v1 and v2")
    }

    @Test func protectedVersionsAreWhatSupportedBuildsTake() throws {
        let catalog = ReleaseCatalog(releases: [
            release("ios@1.0.0", .supported, ["apply": [1]]),
            release("ios@2.0.0", .supported, ["apply": [1, 2], "start": [1]]),
            release("android@0.9.0", .supportEnded, ["apply": [0], "legacy": [1]]),
        ])
        #expect(catalog.protectedVersions == ["apply": [1, 2], "start": [1]])
    }

    @Test func recordingTheSameBuildTwiceIsRefused() throws {
        let catalog = ReleaseCatalog(releases: [release("ios@1.0.0", .supported, ["apply": [1]])])
        #expect(throws: ReleaseError.self) { try catalog.recording(release("ios@1.0.0", .supported, ["apply": [1, 2]])) }
        let added = try catalog.recording(release("android@1.0.0", .supported, ["apply": [1]]))
        #expect(added.releases.count == 2)
    }

    @Test func endingSupportMarksTheBuildOnceAndNamesUnknownBuilds() throws {
        let catalog = ReleaseCatalog(releases: [release("ios@1.0.0", .supported, ["apply": [1]])])
        let ended = try catalog.endingSupport(of: try AppBuild(reference: "ios@1.0.0"))
        #expect(ended.releases[0].status == .supportEnded)
        #expect(throws: ReleaseError("ios 1.0.0: support has already ended")) { try ended.endingSupport(of: try AppBuild(reference: "ios@1.0.0")) }
        #expect(throws: ReleaseError("ios 2.0.0 is not recorded (releases: ios@1.0.0)")) { try catalog.endingSupport(of: try AppBuild(reference: "ios@2.0.0")) }
    }

    @Test(arguments: [
        (#""platform": "ios""#, #""platform": "web""#, "/releases/0/platform", "unknown platform \"web\" (platforms: ios, android)"),
        (#""version": "5.9.0""#, #""version": "5.9""#, "/releases/0/version", "malformed version \"5.9\": expected MAJOR.MINOR.PATCH, e.g. 5.13.0"),
        (#""status": "support-ended""#, #""status": "retired""#, "/releases/0/status", "unknown status \"retired\" (supported or support-ended)"),
        (#""share": 0.3"#, #""share": 130"#, "/releases/0/share", "a share is a percentage of sessions, from 0 to 100, not 130.0"),
        (#""share": 0.3"#, #""shares": 0.3"#, "/releases/0/shares", "unknown member (expected actions, events, platform, share, status, version)"),
        (#""start": [1]}}"#, #""start": [0]}}"#, "/releases/0/actions/start/0", "an action version is a positive integer"),
    ])
    func shapeErrorsNameTheFieldAndPointer(old: String, new: String, pointer: String, message: String) throws {
        let edited = try RepositoryContractFiles.editing([("releases.json", old, new)])["releases.json"]!
        #expect(throws: ContractError(file: "releases.json", pointer: pointer, message: message)) { try ReleaseCatalog.parse(edited) }
    }

    /// One build's share: 0 and 100 are the ends of the range, each tried inside, on it and past it.
    @Test(arguments: [("0", true), ("-0.1", false), ("0.1", true), ("99.9", true), ("100", true), ("100.1", false)])
    func aShareIsFromZeroToOneHundred(share: String, accepted: Bool) throws {
        let edited = try RepositoryContractFiles.editing([("releases.json", #""share": 0.3"#, #""share": \#(share)"#)])["releases.json"]!
        if accepted {
            #expect(try ReleaseCatalog.parse(edited).releases[0].share == Double(share))
        } else {
            #expect(throws: ContractError(file: "releases.json", pointer: "/releases/0/share",
                                          message: "a share is a percentage of sessions, from 0 to 100, not \(Double(share)!)")) {
                try ReleaseCatalog.parse(edited)
            }
        }
    }

    /// The events a build sends: read and written back on its line; a build recorded before
    /// events existed has no "events" and sends none.
    @Test func eventsAreReadAndWrittenBackAndAbsentMeansNone() throws {
        let line = #"{"platform": "ios", "version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"apply": [1], "view_vehicles": [1], "start": [1]}}"#
        let sending = #"{"platform": "ios", "version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"apply": [1], "view_vehicles": [1], "start": [1]}, "events": {"navigation_completed": [1], "login_state_changed": [1]}}"#
        let edited = try RepositoryContractFiles.editing([("releases.json", line, sending)])["releases.json"]!
        let catalog = try ReleaseCatalog.parse(edited)
        let build = try #require(catalog.release(try AppBuild(reference: "ios@5.12.0")))
        #expect(build.events == [ActionVersions(action: "navigation_completed", versions: [1]), ActionVersions(action: "login_state_changed", versions: [1])])
        #expect(build.versions(ofEvent: "login_state_changed") == [1])
        #expect(catalog.text == edited, "written back byte for byte")
        let older = try #require(catalog.release(try AppBuild(reference: "ios@5.13.0")))
        #expect(older.events.isEmpty && older.versions(ofEvent: "login_state_changed").isEmpty)
        let olderLine = try #require(catalog.text.split(separator: "\n").first { $0.contains(#""version": "5.13.0""#) })
        #expect(!olderLine.contains("events"), "a build without events is written without the member")
    }

    @Test func anEventVersionIsAPositiveInteger() throws {
        let edited = try RepositoryContractFiles.editing([("releases.json", #""start": [1]}}"#, #""start": [1]}, "events": {"login_state_changed": [0]}}"#)])["releases.json"]!
        #expect(throws: ContractError(file: "releases.json", pointer: "/releases/0/events/login_state_changed/0", message: "an event version is a positive integer")) {
            try ReleaseCatalog.parse(edited)
        }
    }

    @Test func aContractSetWithoutReleasesHasNone() throws {
        let files = try RepositoryContractFiles.editing([("releases.json", "", nil)])
        #expect(try ContractSet(files: files, origin: "a copy").releaseCatalog() == .empty)
    }
}

@Suite("lint checks releases.json against the manifest")
struct ReleaseLinterTests {
    private func findings(_ old: String, _ new: String) throws -> [LintFinding] {
        let contracts = try ContractSet(files: try RepositoryContractFiles.editing([("releases.json", old, new)]), origin: "a broken copy")
        return ContractLinter(contracts: contracts).lint()
    }

    @Test func aSupportedBuildTakingAVersionTheManifestLacksIsAFinding() throws {
        let found = try findings(#""version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"apply": [1]"#,
                                 #""version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"apply": [1, 3]"#)
        #expect(found.map(\.pointer) == ["/releases/1/actions/apply/1"])
        #expect(found.first?.message.hasPrefix("ios 5.12.0 is supported and takes apply v3, which manifest.json no longer has") == true)
    }

    @Test func aSupportEndedBuildMayNameVersionsRemovedSince() throws {
        #expect(try findings(#""status": "support-ended", "share": 0.3, "actions": {"view_vehicles": [1]"#,
                             #""status": "support-ended", "share": 0.3, "actions": {"view_vehicles": [7], "quote": [1]"#) == [])
    }

    @Test func anUnknownActionOfASupportedBuild() throws {
        let found = try findings(#""version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"apply": [1]"#,
                                 #""version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"aply": [1]"#)
        #expect(found.map(\.pointer) == ["/releases/1/actions/aply"])
    }

    @Test func aBuildListedTwiceAndAVersionListedTwice() throws {
        let found = try findings(#""version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"apply": [1]"#,
                                 #""version": "5.13.0", "status": "supported", "share": 9.5, "actions": {"apply": [1, 1]"#)
        #expect(found.map(\.pointer).sorted() == ["/releases/1/actions/apply/1", "/releases/2"])
    }

    @Test func sharesAddingUpToMoreThanAllSessions() throws {
        let found = try findings(#""share": 0.3"#, #""share": 50"#)
        #expect(found.map(\.message) == ["the shares add up to 145.7% of sessions, more than 100"])
    }

    /// The other builds' shares add up to 95.7: the first build's share brings the total to 99.9,
    /// exactly 100 (within the sum's rounding) and 100.1.
    @Test(arguments: [("4.2", nil), ("4.3", nil), ("4.4", "the shares add up to 100.1% of sessions, more than 100")])
    func sharesAddingUpToAllSessionsAtMost(first: String, message: String?) throws {
        let found = try findings(#""share": 0.3"#, #""share": \#(first)"#)
        #expect(found.map(\.message) == (message.map { [$0] } ?? []))
    }

    /// Like actions: a supported build may only send events and versions the manifest has
    /// (the built-in navigation_completed included); a support-ended one is history.
    @Test func aSupportedBuildSendingAnEventOrVersionTheManifestLacksIsAFinding() throws {
        let before = #""version": "5.12.0", "status": "supported", "share": 9.5, "actions": {"apply": [1], "view_vehicles": [1], "start": [1]}"#
        let known = try findings(before, before + #", "events": {"navigation_completed": [1], "login_state_changed": [1]}"#)
        #expect(known == [])
        let found = try findings(before, before + #", "events": {"login_state_changed": [1, 2], "logged_in": [1]}"#)
        #expect(found.map(\.pointer) == ["/releases/1/events/login_state_changed/1", "/releases/1/events/logged_in"])
        #expect(found.first?.message == "ios 5.12.0 is supported and sends login_state_changed v2, which manifest.json no longer has (versions: 1): restore it, or end the build's support first")
        #expect(found.last?.message.hasPrefix("ios 5.12.0 is supported and sends logged_in, which manifest.json does not have (events: navigation_completed, login_state_changed)") == true)
        let ended = #""status": "support-ended", "share": 0.3, "actions": {"view_vehicles": [1], "start": [1]}"#
        #expect(try findings(ended, ended + #", "events": {"logged_in": [1]}"#) == [])
    }

    @Test func aShapeErrorIsOneFinding() throws {
        let found = try findings(#""platform": "ios""#, #""platform": "iOS""#)
        #expect(found == [LintFinding(file: "releases.json", pointer: "/releases/0/platform", message: "unknown platform \"iOS\" (platforms: ios, android)")])
    }
}

@Suite("contracts-released/ tells the story of releases.json")
struct ReleasedSnapshotTests {
    @Test func aSnapshotOfWhatEveryBuildTakesIsAByteCopy() throws {
        let files = RepositoryContractFiles.files
        let snapshot = try ReleasedSnapshot.files(from: files, protecting: ["apply": [1, 2], "view_vehicles": [1], "start": [1], "open_directions": [1]])
        #expect(snapshot["manifest.json"] == files["manifest.json"])
        #expect(Set(snapshot.keys) == Set(files.keys.filter { $0 == "manifest.json" || $0 == "routes.json" || $0.hasPrefix("schemas/") }))
    }

    @Test func versionsNoSupportedBuildTakesLeaveTheSnapshot() throws {
        let manifest = RepositoryContractFiles.files["manifest.json"]!
        let pruned = try ReleasedSnapshot.pruned(manifest: manifest, keeping: ["apply": [2], "start": [1]])
        let contracts = try ContractSet(files: RepositoryContractFiles.editing([("manifest.json", manifest, pruned)]), origin: "pruned")
        #expect(contracts.manifest.actions.map(\.name) == ["apply", "start"])
        #expect(contracts.manifest.action(named: "apply")?.versions.map(\.version) == [2])
    }

    @Test func bothWaysOfTellingDifferentStoriesAreNamed() throws {
        let contracts = try ContractSet(files: RepositoryContractFiles.files, origin: "the repository")
        let catalog = ReleaseCatalog(releases: [release("ios@1.0.0", .supported, ["apply": [1, 2], "view_vehicles": [1], "start": [1], "open_directions": [1]])])
        #expect(ReleasedSnapshot.inconsistencies(catalog: catalog, snapshot: contracts.manifest, folder: "released") == [])
        let older = ReleaseCatalog(releases: [release("ios@1.0.0", .supported, ["apply": [1], "view_vehicles": [1], "start": [1], "open_directions": [1]])])
        #expect(ReleasedSnapshot.inconsistencies(catalog: older, snapshot: contracts.manifest, folder: "released")
            == ["released/ holds apply v2, which no supported build in releases.json takes: record the build that ships it (bridgectl release record), or end-support drops it"])
        let newer = ReleaseCatalog(releases: [release("ios@1.0.0", .supported, ["apply": [1, 2, 3], "view_vehicles": [1], "start": [1], "open_directions": [1]])])
        #expect(ReleasedSnapshot.inconsistencies(catalog: newer, snapshot: contracts.manifest, folder: "released")
            == ["ios 1.0.0 is supported and takes apply v3, which released/ does not hold: the compatibility gate does not protect it (record releases with bridgectl release record)"])
    }
}

@Suite("can-i-deploy decides each cell by the shim's rule")
struct DeployMatrixTests {
    static let contracts = try! ContractSet(files: RepositoryContractFiles.files, origin: "the repository")
    static let catalog = ReleaseCatalog(releases: [
        release("ios@5.13.0", .supported, ["apply": [1, 2], "start": [1]], share: 40),
        release("ios@5.12.0", .supported, ["apply": [1], "start": [1]], share: 10),
        release("android@5.9.4", .supported, ["start": [1]]),
        release("android@5.0.0", .supportEnded, ["start": [1]], share: 1),
    ])

    private func matrix(_ calls: [PageUsage.Call]) -> DeployMatrix {
        DeployMatrix(usage: PageUsage(page: "p", calls: calls), catalog: Self.catalog, manifest: Self.contracts.manifest)
    }

    @Test func onlyTheLatestVersionBreaksBuildsThatHaveAnOlderOne() {
        let result = matrix([PageUsage.Call(action: "apply", versions: [2])])
        #expect(result.rows.map(\.release.build.reference) == ["ios@5.13.0", "ios@5.12.0", "android@5.9.4"], "supported builds only")
        #expect(result.rows.map { $0.outcomes[0].label } == ["ok", "BROKEN", "fallback"])
        #expect(!result.deployable(strict: false))
        #expect(DeployMatrix.share(of: result.brokenRows) == (10, 0))
    }

    @Test func offeringTheOlderVersionTooDeploys() {
        let result = matrix([PageUsage.Call(action: "apply", versions: [1, 2])])
        #expect(result.usage.calls[0].versions == [2, 1], "highest first")
        #expect(result.rows.map { $0.outcomes[0] } == [.ok(version: 2), .olderVersion(1), .fallback])
        #expect(result.deployable(strict: false))
        #expect(!result.deployable(strict: true), "strict: a build only falls back")
        #expect(DeployMatrix.share(of: result.fallbackRows) == (0, 1))
    }

    @Test func aContractWithoutFallbackIsBrokenWhereTheActionIsMissing() throws {
        let files = try RepositoryContractFiles.editing([("manifest.json", #""fallback": "universalLink""#, #""fallback": "none""#)])
        let manifest = try ContractSet(files: files, origin: "no fallback").manifest
        let result = DeployMatrix(usage: PageUsage(page: "p", calls: [PageUsage.Call(action: "apply", versions: [1])]),
                                  catalog: Self.catalog, manifest: manifest)
        #expect(result.rows.map { $0.outcomes[0].label } == ["ok", "ok", "BROKEN"])
        #expect(result.rows[2].outcomes[0] == .broken("has no apply, and its contract has no fallback"))
    }

    // MARK: Events the page subscribes to

    static let loginState = PageUsage.Subscription(event: "login_state_changed", versions: [1])

    /// contracts/releases.json predates events: no supported build sends login_state_changed, and
    /// each is named; the page may still ship.
    @Test func aSubscriptionNoSupportedBuildServesWarnsNamingEachBuild() throws {
        let catalog = try Self.contracts.releaseCatalog()
        let result = DeployMatrix(usage: PageUsage(page: "p", calls: [], subscriptions: [Self.loginState]), catalog: catalog,
                                  manifest: Self.contracts.manifest)
        #expect(result.eventWarnings.map(\.build.reference) == ["ios@5.13.0", "ios@5.12.0", "android@5.13.1", "android@5.12.3", "android@5.9.4"])
        #expect(result.eventWarnings.first?.text == "ios 5.13.0 never sends login_state_changed v1 (it sends no version of it): the page's handlers never run there")
        #expect(result.deployable(strict: true), "a warning, not a refusal")
    }

    @Test func aBuildThatSendsTheEventHasNoWarning() throws {
        var sending = release("ios@5.14.0", .supported, ["apply": [1, 2]])
        sending.events = [ActionVersions(action: "login_state_changed", versions: [1])]
        let catalog = ReleaseCatalog(releases: [sending, release("ios@5.13.0", .supported, ["apply": [1, 2]])])
        let result = DeployMatrix(usage: PageUsage(page: "p", calls: [], subscriptions: [Self.loginState]), catalog: catalog,
                                  manifest: Self.contracts.manifest)
        #expect(result.eventWarnings.map(\.build.reference) == ["ios@5.13.0"])
    }

    /// A page reading v2 against builds sending v1 (n - 1), v2 (n) and v3 (n + 1): only v2 serves it.
    @Test(arguments: [([1], true), ([2], false), ([3], true), ([1, 2], false)])
    func onlyAVersionThePageReadsServesIt(sent: [Int], warns: Bool) throws {
        var build = release("ios@5.14.0", .supported, ["apply": [1]])
        build.events = [ActionVersions(action: "login_state_changed", versions: sent)]
        let warning = DeployMatrix.warning(for: PageUsage.Subscription(event: "login_state_changed", versions: [2]), on: build)
        #expect((warning != nil) == warns)
        if warns { #expect(warning?.text.contains("(it sends \(sent.map { "v\($0)" }.joined(separator: ", ")) only)") == true) }
    }

    @Test func subscriptionsAreReadFromTheUsageFile() throws {
        let usage = try PageUsage.parse(#"{"page": "p", "calls": [], "events": [{"event": "login_state_changed", "versions": [1]}, {"event": "navigation_completed", "versions": [1]}]}"#,
                                        file: "u.json", manifest: Self.contracts.manifest)
        #expect(usage.subscriptions == [Self.loginState, PageUsage.Subscription(event: "navigation_completed", versions: [1])])
        #expect(try PageUsage.parse(#"{"page": "p", "calls": []}"#, file: "u.json", manifest: Self.contracts.manifest).subscriptions.isEmpty)
    }

    @Test(arguments: [
        (#"{"page": "p", "calls": [], "events": [{"event": "login", "versions": [1]}]}"#, "u.json: /events/0/event: unknown event \"login\" (events: navigation_completed, login_state_changed)"),
        (#"{"page": "p", "calls": [], "events": [{"event": "login_state_changed", "versions": [2]}]}"#, "u.json: /events/0/versions/0: login_state_changed has no version 2 (versions: 1)"),
        (#"{"page": "p", "calls": [], "events": [{"event": "login_state_changed", "versions": []}]}"#, "u.json: /events/0/versions: expected a non-empty array of the versions the page reads"),
        (#"{"page": "p", "calls": [], "events": {"login_state_changed": [1]}}"#, "u.json: /events: expected an array of {\"event\", \"versions\"}"),
    ])
    func badSubscriptionsSayWhereAndWhat(text: String, message: String) {
        #expect(throws: ReleaseError(message)) { try PageUsage.parse(text, file: "u.json", manifest: Self.contracts.manifest) }
    }

    @Test(arguments: [
        (#"{"page": "p", "calls": [{"action": "aply", "versions": [1]}]}"#, "u.json: /calls/0/action: unknown action \"aply\" (actions: apply, view_vehicles, start, open_directions)"),
        (#"{"page": "p", "calls": [{"action": "apply", "versions": [3]}]}"#, "u.json: /calls/0/versions/0: apply has no version 3 (versions: 1, 2)"),
        (#"{"page": "p", "calls": [{"action": "apply", "versions": []}]}"#, "u.json: /calls/0/versions: expected a non-empty array of the versions the page can send"),
        (#"{"page": "p", "calls": [{"action": "apply", "version": [1]}]}"#, "u.json: /calls/0/version: unknown member (expected action, versions)"),
        (#"{"calls": []}"#, "u.json: /page: expected the page's name, a non-empty string"),
        (#"[1]"#, "u.json: (root): expected an object {\"page\", \"calls\": [...]}"),
    ])
    func badUsageFilesSayWhereAndWhat(text: String, message: String) {
        #expect(throws: ReleaseError(message)) { try PageUsage.parse(text, file: "u.json", manifest: Self.contracts.manifest) }
    }
}

func release(_ reference: String, _ status: AppRelease.Status, _ actions: KeyValuePairs<String, [Int]>, share: Double? = nil) -> AppRelease {
    AppRelease(build: try! AppBuild(reference: reference), status: status, share: share,
               actions: actions.map { ActionVersions(action: $0.key, versions: $0.value) })
}
