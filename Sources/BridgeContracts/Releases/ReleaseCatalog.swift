import JSONCore
import SchemaCheck

/// contracts/releases.json: every app build in the field, the action versions it takes, the event
/// versions it sends its pages (`"events"`, absent for builds recorded before events existed),
/// whether it is still supported and, when known, its share of sessions. Written by `bridgectl release
/// record` / `end-support` (sorted, one build a line); read by the host (`--release`), the fake
/// host, `can-i-deploy` and `lint`.
public struct ReleaseCatalog: Sendable, Equatable {
    public static let fileName = "releases.json"
    static let comment = "App builds in the field and the action versions each takes. Written by bridgectl release record / end-support (docs/contracts.md, Releases); checked by bridgectl lint."

    /// In file order.
    public let releases: [AppRelease]

    public init(releases: [AppRelease]) {
        self.releases = releases
    }

    public static let empty = ReleaseCatalog(releases: [])

    public var supported: [AppRelease] { releases.filter(\.isSupported) }

    public func release(_ build: AppBuild) -> AppRelease? {
        releases.first { $0.build == build }
    }

    /// The release a `PLATFORM@VERSION` reference names, or an error listing the recorded ones.
    public func release(reference: String) throws(ReleaseError) -> AppRelease {
        let build = try AppBuild(reference: reference)
        guard let found = release(build) else {
            let known = releases.map(\.build).sorted().map(\.reference).joined(separator: ", ")
            throw ReleaseError("\(build.reference) is not in \(Self.fileName) (releases: \(known.isEmpty ? "none" : known))")
        }
        return found
    }

    /// Action -> the versions at least one supported build takes, ascending: what the
    /// compatibility gate (contracts-released/) must protect.
    public var protectedVersions: [String: [Int]] {
        var union: [String: Set<Int>] = [:]
        for release in supported {
            for entry in release.actions { union[entry.action, default: []].formUnion(entry.versions) }
        }
        return union.mapValues { $0.sorted() }
    }

    /// This catalog with `release` added; a build recorded twice is refused.
    public func recording(_ release: AppRelease) throws(ReleaseError) -> ReleaseCatalog {
        if let existing = self.release(release.build) {
            throw ReleaseError("\(release.build) is already recorded (\(existing.status.rawValue); \(existing.actionSummary)); a build's capabilities do not change once it shipped")
        }
        return ReleaseCatalog(releases: releases + [release])
    }

    /// This catalog with `build` marked support-ended.
    public func endingSupport(of build: AppBuild) throws(ReleaseError) -> ReleaseCatalog {
        guard let index = releases.firstIndex(where: { $0.build == build }) else {
            let known = releases.map(\.build).sorted().map(\.reference).joined(separator: ", ")
            throw ReleaseError("\(build) is not recorded (releases: \(known.isEmpty ? "none" : known))")
        }
        guard releases[index].isSupported else { throw ReleaseError("\(build): support has already ended") }
        var changed = releases
        changed[index].status = .supportEnded
        return ReleaseCatalog(releases: changed)
    }

    // MARK: - The file

    /// Reads releases.json. Shape errors (a missing field, an unknown platform or status, a
    /// malformed version, a share outside 0...100) name the file and JSON Pointer; cross-checks
    /// with the manifest are `lint`'s (`ReleaseLinter`).
    public static func parse(_ text: String, file: String = fileName) throws(ContractError) -> ReleaseCatalog {
        let document: JSONValue
        do {
            document = try JSONDocument(text, limits: .unlimited).value
        } catch {
            throw ContractError(file: file, message: "not valid JSON: \(error)")
        }
        do {
            return try parse(JSONFieldReader(document), file: file)
        } catch {
            throw ContractError(file: file, pointer: error.pointer, message: error.message)
        }
    }

    private static func parse(_ root: JSONFieldReader, file: String) throws(JSONFieldError) -> ReleaseCatalog {
        try allowOnly(["$comment", "releases"], in: root)
        var releases: [AppRelease] = []
        for item in try root.child("releases").items() {
            try allowOnly(["platform", "version", "status", "share", "actions", "events"], in: item)
            let platformName = try item.child("platform").string()
            guard let platform = AppPlatform(rawValue: platformName) else {
                throw item.fail("unknown platform \"\(platformName)\" (platforms: \(AppPlatform.allCases.map(\.rawValue).joined(separator: ", ")))", at: "platform")
            }
            let versionText = try item.child("version").string()
            let version: SemanticVersion
            do {
                version = try SemanticVersion(parsing: versionText)
            } catch {
                throw item.fail(error.description, at: "version")
            }
            let statusName = try item.child("status").string()
            guard let status = AppRelease.Status(rawValue: statusName) else {
                throw item.fail("unknown status \"\(statusName)\" (\(AppRelease.Status.allCases.map(\.rawValue).joined(separator: " or ")))", at: "status")
            }
            var share: Double?
            if let field = try item.optionalChild("share") {
                share = try percent(field)
            }
            let actions = try versionLists(try item.child("actions"), noun: "an action")
            // Absent: a build recorded before events existed, which sends none.
            var events: [ActionVersions] = []
            if let reader = try item.optionalChild("events") { events = try versionLists(reader, noun: "an event") }
            releases.append(AppRelease(build: AppBuild(platform: platform, version: version), status: status, share: share,
                                       actions: actions, events: events))
        }
        return ReleaseCatalog(releases: releases)
    }

    /// `{NAME: [versions]}`, in file order.
    private static func versionLists(_ reader: JSONFieldReader, noun: String) throws(JSONFieldError) -> [ActionVersions] {
        var lists: [ActionVersions] = []
        for (name, _) in try reader.object() {
            var versions: [Int] = []
            for entry in try reader.child(name).items() {
                let number = try entry.integer()
                guard number >= 1 else { throw entry.fail("\(noun) version is a positive integer") }
                versions.append(number)
            }
            lists.append(ActionVersions(action: name, versions: versions))
        }
        return lists
    }

    /// A share of sessions in percent: a number from 0 to 100.
    static func percent(_ field: JSONFieldReader) throws(JSONFieldError) -> Double {
        let value: Double
        switch field.value {
        case .integer(let number): value = Double(number)
        case .number(let real): value = real
        default: throw field.fail("a share is a percentage of sessions, a number from 0 to 100")
        }
        guard value >= 0, value <= 100 else { throw field.fail("a share is a percentage of sessions, from 0 to 100, not \(value)") }
        return value
    }

    private static func allowOnly(_ names: Set<String>, in reader: JSONFieldReader) throws(JSONFieldError) {
        for key in try reader.object().keys where !names.contains(key) {
            throw reader.fail("unknown member (expected \(names.sorted().joined(separator: ", ")))", at: key)
        }
    }

    /// The file's text: builds sorted by platform and version, one a line, so a diff of a release
    /// is one added or changed line.
    public var text: String {
        var out = "{\n  \"$comment\": " + JSONValue.string(Self.comment).serialized() + ",\n  \"releases\": ["
        let sorted = releases.sorted { $0.build < $1.build }
        for (index, release) in sorted.enumerated() {
            out += (index == 0 ? "\n    " : ",\n    ") + Self.line(release)
        }
        out += sorted.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return out
    }

    private static func line(_ release: AppRelease) -> String {
        var members = [
            "\"platform\": " + JSONValue.string(release.build.platform.rawValue).serialized(),
            "\"version\": " + JSONValue.string(release.build.version.description).serialized(),
            "\"status\": " + JSONValue.string(release.status.rawValue).serialized(),
        ]
        if let share = release.share { members.append("\"share\": " + formatShare(share)) }
        members.append("\"actions\": " + versionLists(release.actions))
        if !release.events.isEmpty { members.append("\"events\": " + versionLists(release.events)) }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// `{"apply": [1, 2], "start": [1]}` on one line.
    private static func versionLists(_ lists: [ActionVersions]) -> String {
        "{" + lists.map { entry in
            JSONValue.string(entry.action).serialized() + ": [" + entry.versions.map(String.init).joined(separator: ", ") + "]"
        }.joined(separator: ", ") + "}"
    }

    /// 44 for a whole number, 9.5 otherwise (as a person would write it).
    public static func formatShare(_ share: Double) -> String {
        share.rounded() == share ? String(Int(share)) : JSONValue.number(share).serialized()
    }
}
