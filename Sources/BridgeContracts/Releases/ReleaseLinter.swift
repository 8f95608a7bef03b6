import JSONCore

/// `lint`'s checks of releases.json against the contract set: the file reads, each build is
/// listed once, each action or event lists a version once, shares add up to at most 100%, and no
/// supported build takes an action version (or sends an event version) the manifest no longer has (its pages would get
/// UNSUPPORTED_VERSION from new builds' point of view, and the gate could not protect it). A
/// support-ended build is history: it may name versions removed since.
public struct ReleaseLinter {
    public let contracts: ContractSet

    public init(contracts: ContractSet) {
        self.contracts = contracts
    }

    public func lint() -> [LintFinding] {
        do {
            return Self.findings(for: try contracts.releaseCatalog(), manifest: contracts.manifest)
        } catch {
            return [LintFinding(file: error.file, pointer: error.pointer, message: error.message)]
        }
    }

    /// The findings of a catalog against a manifest (`release record` asks before writing one).
    public static func findings(for catalog: ReleaseCatalog, manifest: BridgeManifest) -> [LintFinding] {
        let file = ReleaseCatalog.fileName
        var findings: [LintFinding] = []
        var firstIndex: [AppBuild: Int] = [:]
        for (index, release) in catalog.releases.enumerated() {
            let at = "/releases/\(index)"
            if let earlier = firstIndex[release.build] {
                findings.append(LintFinding(file: file, pointer: at, message: "\(release.build) is listed twice (also /releases/\(earlier))"))
            } else {
                firstIndex[release.build] = index
            }
            findings += lists(release.actions, of: .actions(manifest), release: release, at: at)
            findings += lists(release.events, of: .events(manifest), release: release, at: at)
        }
        let total = catalog.releases.compactMap(\.share).reduce(0, +)
        if total > 100.000_001 {
            findings.append(LintFinding(file: file, pointer: "/releases",
                message: "the shares add up to \(ReleaseCatalog.formatShare((total * 1000).rounded() / 1000))% of sessions, more than 100"))
        }
        return findings
    }

    /// What the manifest declares for one member of a build: its actions, or the events it
    /// sends (built-in ones included).
    private struct Declared {
        let member: String
        let verb: String
        let names: [String]
        let versions: (String) -> [Int]?

        static func actions(_ manifest: BridgeManifest) -> Declared {
            Declared(member: "actions", verb: "takes", names: manifest.actions.map(\.name)) { name in
                manifest.action(named: name)?.versions.map(\.version)
            }
        }

        static func events(_ manifest: BridgeManifest) -> Declared {
            Declared(member: "events", verb: "sends", names: manifest.allEvents.map(\.name)) { name in
                manifest.event(named: name)?.versions.map(\.version)
            }
        }
    }

    /// One build's lists of a member: a version listed twice; for a supported build, a name or a
    /// version the manifest does not have.
    private static func lists(_ lists: [ActionVersions], of declared: Declared, release: AppRelease, at: String) -> [LintFinding] {
        let file = ReleaseCatalog.fileName
        var findings: [LintFinding] = []
        for entry in lists {
            let entryAt = at + "/\(declared.member)/" + JSONPointer.escape(entry.action)
            for (position, version) in entry.versions.enumerated() where entry.versions[..<position].contains(version) {
                findings.append(LintFinding(file: file, pointer: entryAt + "/\(position)", message: "\(entry.action) v\(version) is listed twice"))
            }
            guard release.isSupported else { continue }
            guard let versions = declared.versions(entry.action) else {
                findings.append(LintFinding(file: file, pointer: entryAt,
                    message: "\(release.build) is supported and \(declared.verb) \(entry.action), which manifest.json does not have (\(declared.member): \(declared.names.joined(separator: ", "))): restore it, or end the build's support first"))
                continue
            }
            for (position, version) in entry.versions.enumerated() where !versions.contains(version) {
                findings.append(LintFinding(file: file, pointer: entryAt + "/\(position)",
                    message: "\(release.build) is supported and \(declared.verb) \(entry.action) v\(version), which manifest.json no longer has (versions: \(versions.map(String.init).joined(separator: ", "))): restore it, or end the build's support first"))
            }
        }
        return findings
    }
}
