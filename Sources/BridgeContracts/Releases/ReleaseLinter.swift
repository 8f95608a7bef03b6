import JSONCore

/// `lint`'s checks of releases.json against the contract set: the file reads, each build is
/// listed once, each action lists a version once, shares add up to at most 100%, and no
/// supported build takes an action version the manifest no longer has (its pages would get
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
            for entry in release.actions {
                let actionAt = at + "/actions/" + JSONPointer.escape(entry.action)
                for (position, version) in entry.versions.enumerated() where entry.versions[..<position].contains(version) {
                    findings.append(LintFinding(file: file, pointer: actionAt + "/\(position)", message: "\(entry.action) v\(version) is listed twice"))
                }
                guard release.isSupported else { continue }
                guard let action = manifest.action(named: entry.action) else {
                    findings.append(LintFinding(file: file, pointer: actionAt,
                        message: "\(release.build) is supported and takes \(entry.action), which manifest.json does not have (actions: \(manifest.actions.map(\.name).joined(separator: ", "))): restore it, or end the build's support first"))
                    continue
                }
                for (position, version) in entry.versions.enumerated() where action.contract(version: version) == nil {
                    findings.append(LintFinding(file: file, pointer: actionAt + "/\(position)",
                        message: "\(release.build) is supported and takes \(entry.action) v\(version), which manifest.json no longer has (versions: \(action.versions.map { String($0.version) }.joined(separator: ", "))): restore it, or end the build's support first"))
                }
            }
        }
        let total = catalog.releases.compactMap(\.share).reduce(0, +)
        if total > 100.000_001 {
            findings.append(LintFinding(file: file, pointer: "/releases",
                message: "the shares add up to \(ReleaseCatalog.formatShare((total * 1000).rounded() / 1000))% of sessions, more than 100"))
        }
        return findings
    }
}
