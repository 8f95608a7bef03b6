#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import BridgeContracts
import ContractEvolution

/// `bridgectl release`: the one way to record which app builds are in the field. It edits
/// contracts/releases.json and refreshes contracts-released/ (the compatibility gate's baseline)
/// in the same step, so the two always tell one story (`release check` verifies that they do).
let releaseCommand = Command(CommandSpec(
    name: "release",
    summary: "record app builds and what they support (releases.json and the released snapshot)",
    forms: [
        UsageForm("record PLATFORM VERSION", options: ["share", "contracts", "released"]),
        UsageForm("end-support PLATFORM VERSION", options: ["contracts", "released"]),
        UsageForm("list", options: ["contracts", "format"]),
        UsageForm("check", options: ["contracts", "released"]),
    ],
    about: """
    record       an app build shipped with the current contracts: every action version of
                 DIR/manifest.json becomes that build's capabilities in DIR/releases.json (and
                 every event version, built-in ones included, what it sends its pages), and
                 the released snapshot (--released) is refreshed from DIR, so the compatibility
                 gate protects them. Refused when the contracts break the released snapshot
                 (bridgectl diff), when releases.json would not pass lint, or when the build is
                 already recorded.
    end-support  the build is no longer supported: can-i-deploy leaves it out, and the versions
                 no supported build takes any more leave the released snapshot, so the gate
                 stops protecting them.
    list         every recorded build, its status, share and action versions (--format json:
                 and the event versions it sends).
    check        releases.json passes lint and the released snapshot holds exactly the action
                 versions supported builds take (make compat runs it).

    PLATFORM is ios or android; VERSION is MAJOR.MINOR.PATCH[-PRERELEASE] (e.g. 5.13.0).
    """,
    options: [
        .value("contracts", "DIR", help: """
            the contracts folder whose releases.json is read and written (default: the
            nearest contracts/ folder upward, else BRIDGEKIT_CONTRACTS)
            """),
        .value("released", "DIR", help: "the released snapshot (default: contracts-released next to DIR)"),
        .value("share", "P", help: "record: the build's share of sessions, in percent (0 to 100)"),
        .choice("format", ["text", "json"], help: "list's output format", default: "text"),
    ],
    footer: """
    Files are replaced atomically (written next to the target, then renamed).

    exit: 0 done; 1 refused because a check failed; 2 usage error or input that cannot be read.
    """
), run: { arguments, console in try ReleaseCommandRunner(console: console).run(arguments) })

private struct ReleaseCommandRunner {
    let console: Console

    private struct Refused: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    func run(_ arguments: Arguments) throws -> Int32 {
        let subcommands = ["record", "end-support", "list", "check"]
        guard let subcommand = arguments.positional.first else {
            throw UsageError("give a subcommand: \(subcommands.joined(separator: ", ")) (bridgectl release --help)")
        }
        let rest = Array(arguments.positional.dropFirst())
        let folder: String
        switch ContractsOption.locate(arguments) {
        case .success(let found): folder = found.directory
        case .failure(let error): throw UsageError("\(error)")
        }
        let released = arguments.value("released") ?? Self.siblingSnapshot(of: folder)
        switch subcommand {
        case "record", "end-support":
            guard rest.count == 2 else { throw UsageError("\(subcommand) takes PLATFORM VERSION, e.g. \(subcommand) ios 5.13.0") }
            if subcommand == "end-support" && arguments.isGiven("share") { throw UsageError("--share goes with record") }
            if arguments.isGiven("format") { throw UsageError("--format goes with list") }
            let build: AppBuild
            do {
                build = try AppBuild(platform: rest[0], version: rest[1])
            } catch {
                throw UsageError("\(error)")
            }
            return subcommand == "record"
                ? try record(build, share: arguments.value("share"), folder: folder, released: released)
                : try endSupport(build, folder: folder, released: released)
        case "list":
            guard rest.isEmpty else { throw UsageError("list takes no arguments") }
            return try list(folder: folder, format: arguments.value("format") ?? "text")
        case "check":
            guard rest.isEmpty else { throw UsageError("check takes no arguments") }
            return try check(folder: folder, released: released)
        default:
            throw UsageError("unknown subcommand \"\(subcommand)\" (\(subcommands.joined(separator: ", ")))")
        }
    }

    /// contracts-released next to the contracts folder (contracts -> contracts-released).
    static func siblingSnapshot(of folder: String) -> String {
        var trimmed = folder
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return ReleasedSnapshot.defaultFolderName }
        return String(trimmed[...slash]) + ReleasedSnapshot.defaultFolderName
    }

    private func load(_ folder: String) -> Result<(LoadedContracts, ReleaseCatalog), Refused> {
        guard FileSystem.status(atPath: folder)?.isDirectory == true else {
            return .failure(Refused(message: "\(folder): not a contracts folder (no such directory); pass --contracts DIR"))
        }
        do {
            let loaded = try LoadedContracts.folder(folder)
            return .success((loaded, try loaded.contracts.releaseCatalog()))
        } catch {
            return .failure(Refused(message: "\(error)"))
        }
    }

    // MARK: record

    private func record(_ build: AppBuild, share shareText: String?, folder: String, released: String) throws -> Int32 {
        var share: Double?
        if let shareText {
            guard let value = Double(shareText), value.isFinite, value >= 0, value <= 100 else {
                throw UsageError("--share \(shareText): give the build's share of sessions in percent, a number from 0 to 100")
            }
            share = value
        }
        let loaded: LoadedContracts, catalog: ReleaseCatalog
        switch load(folder) {
        case .failure(let error): throw UsageError(error.message)
        case .success(let pair): (loaded, catalog) = pair
        }
        let contracts = loaded.contracts
        let release = AppRelease(build: build, status: .supported, share: share, actions: AppRelease.actions(of: contracts.manifest),
                                 events: AppRelease.events(of: contracts.manifest))
        let updated: ReleaseCatalog
        do {
            updated = try catalog.recording(release)
        } catch {
            throw UsageError("\(error)")
        }
        // Refusals (exit 1): the set must be one an app can ship, consistent, and compatible
        // with what is in the field.
        let findings = ReleaseLinter.findings(for: updated, manifest: contracts.manifest)
        if !findings.isEmpty {
            for finding in findings { console.err(finding.description + "\n") }
            throw refuse("\(build) not recorded: \(folder)/\(ReleaseCatalog.fileName) would not pass lint (above)")
        }
        do {
            _ = try CompiledContracts(contracts: contracts)
        } catch {
            throw refuse("\(build) not recorded: the contracts do not compile: \(error)")
        }
        if FileSystem.status(atPath: released)?.isDirectory == true {
            let report: DiffReport
            do {
                let baseline = try LoadedContracts.folder(released)
                report = try ContractDiff.compare(old: baseline.contracts, new: contracts, accepted: try loaded.acceptedChanges(),
                                                  today: UTCDate.today())
            } catch {
                throw UsageError("\(released): \(error)")
            }
            if report.fails {
                console.err(report.text)
                throw refuse("\(build) not recorded: \(folder)/ breaks the released contracts in \(released)/ (findings above); a build must not ship them")
            }
        }
        let snapshot: [String: String]
        do {
            snapshot = try ReleasedSnapshot.files(from: loaded.files, protecting: updated.protectedVersions)
        } catch {
            throw UsageError("\(error)")
        }
        let changed: [String]
        do {
            // The snapshot first: if it cannot be written, releases.json still tells the old story.
            changed = try ReleasedSnapshot.write(snapshot, to: released)
            try FileSystem.replaceAtomically(atPath: folder + "/" + ReleaseCatalog.fileName, contents: updated.text)
        } catch {
            throw UsageError("\(error)")
        }
        var text = "recorded \(build): supported"
        if let share { text += ", \(ReleaseCatalog.formatShare(share))% of sessions" }
        text += "; \(release.actionSummary)\n"
        text += "sends its pages: \(release.eventSummary)\n"
        text += changed.isEmpty ? "\(released)/: already holds these contracts\n"
                                : "\(released)/: refreshed (\(changed.joined(separator: ", ")))\n"
        text += "next: bridgectl generate js --contracts \(folder) (the fake host's release table), then commit \(folder)/\(ReleaseCatalog.fileName) and \(released)/\n"
        console.out(text)
        return ExitCode.success
    }

    private func refuse(_ message: String) -> CommandFailure {
        CommandFailure(message, exitCode: ExitCode.invalid)
    }

    // MARK: end-support

    private func endSupport(_ build: AppBuild, folder: String, released: String) throws -> Int32 {
        let catalog: ReleaseCatalog
        switch load(folder) {
        case .failure(let error): throw UsageError(error.message)
        case .success(let pair): catalog = pair.1
        }
        let updated: ReleaseCatalog
        do {
            updated = try catalog.endingSupport(of: build)
        } catch {
            throw UsageError("\(error)")
        }
        var text = "\(build): support ended\n"
        do {
            if FileSystem.status(atPath: released)?.isDirectory == true {
                let before = try ReleasedSnapshot.read(folder: released)
                var after = before
                after["manifest.json"] = try ReleasedSnapshot.pruned(manifest: before["manifest.json"]!, keeping: updated.protectedVersions)
                let dropped = Self.versions(in: before["manifest.json"]!).subtracting(Self.versions(in: after["manifest.json"]!))
                _ = try ReleasedSnapshot.write(after, to: released)
                text += dropped.isEmpty
                    ? "\(released)/: unchanged (every version it holds is still taken by a supported build)\n"
                    : "\(released)/: no longer protects \(dropped.sorted().joined(separator: ", ")) (no supported build takes \(dropped.count == 1 ? "it" : "them"))\n"
            }
            try FileSystem.replaceAtomically(atPath: folder + "/" + ReleaseCatalog.fileName, contents: updated.text)
        } catch let error as FileWriteError {
            throw UsageError("\(error)")
        } catch {
            throw UsageError("\(released): \(error)")
        }
        text += "next: bridgectl generate js --contracts \(folder) (the fake host's release table), then commit \(folder)/\(ReleaseCatalog.fileName) and \(released)/\n"
        console.out(text)
        return ExitCode.success
    }

    /// "apply v1" for each action version a manifest text holds.
    private static func versions(in manifest: String) -> Set<String> {
        guard let actions = (try? JSONValue(parsing: manifest))?["actions"]?.objectValue else { return [] }
        var found: Set<String> = []
        for (name, action) in actions {
            for key in action["versions"]?.objectValue?.keys ?? [] { found.insert("\(name) v\(key)") }
        }
        return found
    }

    // MARK: list and check

    private func list(folder: String, format: String) throws -> Int32 {
        let catalog: ReleaseCatalog
        switch load(folder) {
        case .failure(let error): throw UsageError(error.message)
        case .success(let pair): catalog = pair.1
        }
        let sorted = catalog.releases.sorted { $0.build < $1.build }
        if format == "json" {
            let releases = sorted.map { release -> JSONValue in
                var object = JSONObject([("platform", .string(release.build.platform.rawValue)),
                                         ("version", .string(release.build.version.description)),
                                         ("status", .string(release.status.rawValue))])
                if let share = release.share { object["share"] = .number(share) }
                object["actions"] = Self.versionLists(release.actions)
                if !release.events.isEmpty { object["events"] = Self.versionLists(release.events) }
                return .object(object)
            }
            console.out(JSONValue.object(JSONObject([("releases", .array(releases))])).prettyPrinted() + "\n")
            return ExitCode.success
        }
        var table = TextTable()
        table.add(["build", "status", "share", "actions"])
        for release in sorted {
            table.add([release.build.description, release.status.rawValue,
                       release.share.map { ReleaseCatalog.formatShare($0) + "%" } ?? "-", release.actionSummary])
        }
        let supported = catalog.supported.count
        var text = table.text
        text += "\(catalog.releases.count) build\(catalog.releases.count == 1 ? "" : "s"): \(supported) supported, \(catalog.releases.count - supported) support-ended\n"
        console.out(text)
        return ExitCode.success
    }

    /// `{"apply": [1, 2]}` for list's JSON.
    private static func versionLists(_ lists: [ActionVersions]) -> JSONValue {
        .object(JSONObject(lists.map { ($0.action, .array($0.versions.map { .integer(Int64($0)) })) }))
    }

    private func check(folder: String, released: String) throws -> Int32 {
        let loaded: LoadedContracts, catalog: ReleaseCatalog
        switch load(folder) {
        case .failure(let error): throw UsageError(error.message)
        case .success(let pair): (loaded, catalog) = pair
        }
        // A new set (bridgectl init) has no build in the field and so nothing to protect yet.
        if catalog.releases.isEmpty && FileSystem.status(atPath: released) == nil {
            console.out("release check: no app build recorded yet; the first bridgectl release record writes \(released)/\n")
            return ExitCode.success
        }
        let snapshot: ContractSet
        do {
            snapshot = try ContractSet.load(directory: released, includingFixtures: false)
        } catch {
            throw UsageError("\(error)")
        }
        var problems = ReleaseLinter.findings(for: catalog, manifest: loaded.contracts.manifest).map(\.description)
        problems += ReleasedSnapshot.inconsistencies(catalog: catalog, snapshot: snapshot.manifest, folder: released)
        for problem in problems { console.out(problem + "\n") }
        if !problems.isEmpty {
            console.out("release check: \(problems.count) problem\(problems.count == 1 ? "" : "s"): \(folder)/\(ReleaseCatalog.fileName) and \(released)/ disagree\n")
            return ExitCode.invalid
        }
        let protected = catalog.protectedVersions
        let summary = loaded.contracts.manifest.actions.compactMap { action -> String? in
            guard let versions = protected[action.name] else { return nil }
            return action.name + " " + versions.map { "v\($0)" }.joined(separator: ", ")
        }.joined(separator: "; ")
        console.out("release check: \(catalog.supported.count) supported build\(catalog.supported.count == 1 ? "" : "s"); \(released)/ protects exactly what they take (\(summary.isEmpty ? "nothing" : summary))\n")
        return ExitCode.success
    }
}
