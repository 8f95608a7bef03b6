import SchemaCheck
import JSONCore
import BridgeContracts

/// Compares two contract sets: every action version present in both, the shared schemas (the
/// envelope, the campaign schema), the event versions (the other way round: see
/// `compareEvents`), routes.json and the manifest. Each difference becomes a typed
/// finding; each one that changes what a side accepts is proven with a counterexample run
/// through both sides, or reported as possibly breaking with the reason.
public enum ContractDiff {
    /// `today` (YYYY-MM-DD) decides which accepted changes have expired.
    public static func compare(old: ContractSet, new: ContractSet, accepted: AcceptedChanges = .none,
                               today: String) throws(ContractError) -> DiffReport {
        let run = try DiffRun(old: old, new: new)
        run.compareActions()
        run.compareSharedSchemas()
        run.proveActionDifferences()
        run.compareAddedVersions()
        run.compareEvents()
        run.compareManifest()
        run.compareRoutes()
        return DiffReport(findings: run.finish(accepted: accepted, today: today))
    }
}

/// The findings of a diff, in a stable order.
public struct DiffReport: Sendable {
    public let findings: [Finding]

    public var breakingCount: Int { findings.filter { $0.fails && $0.severity == .breaking }.count }
    public var possiblyBreakingCount: Int { findings.filter { $0.fails && $0.severity == .possiblyBreaking }.count }
    /// Whether the diff fails: something breaking or possibly breaking that is not accepted.
    public var fails: Bool { findings.contains { $0.fails } }
}

/// One comparison in progress.
final class DiffRun {
    let old: ContractSide
    let new: ContractSide
    let matcher = PatternMatcher()
    let comparison: SchemaComparison
    var findings: [Finding] = []

    /// An action version present in both sets.
    final class Context {
        let subject: Subject
        let oldContract: ActionContract
        let newContract: ActionContract
        let search: CounterexampleSearch
        var differences: [Difference]
        var findings: [Finding] = []

        init(subject: Subject, oldContract: ActionContract, newContract: ActionContract, search: CounterexampleSearch,
             differences: [Difference]) {
            self.subject = subject
            self.oldContract = oldContract
            self.newContract = newContract
            self.search = search
            self.differences = differences
        }
    }

    var contexts: [Context] = []
    /// Findings of the shared schemas, reported after the action versions.
    var sharedFindings: [Finding] = []
    /// Findings of each event version present in both sets, reported after the shared schemas.
    var eventFindings: [(Subject, [Finding])] = []

    init(old: ContractSet, new: ContractSet) throws(ContractError) {
        self.old = try ContractSide(contracts: old)
        self.new = try ContractSide(contracts: new)
        comparison = SchemaComparison(oldAssertsFormat: old.manifest.assertFormat, newAssertsFormat: new.manifest.assertFormat,
                                      matcher: matcher)
    }

    func side(_ side: Side) -> ContractSide { side == .old ? old : new }

    func normalized(_ side: ContractSide, file: String) -> NormalSchema {
        side.normalized(file: file) ?? .anything
    }

    func fixtureMessages(action: String, version: Int) -> [JSONValue] {
        (old.contracts.fixtures + new.contracts.fixtures)
            .filter { $0.action == action && $0.version == version && $0.expect.valid }
            .compactMap(\.message)
    }

    func search(oldContract: ActionContract, newContract: ActionContract, newSide: ContractSide? = nil) -> CounterexampleSearch {
        let oldRoot = normalized(old, file: oldContract.schema)
        let newRoot = normalized(newSide ?? new, file: newContract.schema)
        return CounterexampleSearch(old: old, new: newSide ?? new, oldRoot: oldRoot, newRoot: newRoot, matcher: matcher,
                                    fixtureMessages: fixtureMessages(action: oldContract.action, version: oldContract.version))
    }

    // MARK: Action versions

    func compareActions() {
        for action in old.contracts.manifest.actions {
            guard let newAction = new.contracts.manifest.action(named: action.name) else {
                findings.append(removal(.actionRemoved, subject: .action(action.name), contract: action.versions.last!,
                                        detail: "action removed"))
                continue
            }
            for contract in action.versions {
                let subject = Subject.actionVersion(action: action.name, version: contract.version)
                guard let newContract = newAction.contract(version: contract.version) else {
                    findings.append(removal(.actionVersionRemoved, subject: subject, contract: contract,
                                            detail: "version removed"))
                    continue
                }
                let search = search(oldContract: contract, newContract: newContract)
                let differences = comparison.compare(search.oldRoot, search.newRoot)
                contexts.append(Context(subject: subject, oldContract: contract, newContract: newContract, search: search,
                                        differences: differences))
            }
        }
    }

    /// An action or version the new set no longer has: any message of it proves the break.
    private func removal(_ kind: FindingKind, subject: Subject, contract: ActionContract, detail: String) -> Finding {
        let root = normalized(old, file: contract.schema)
        let synthesizer = InstanceSynthesizer(matcher: matcher)
        let candidates = fixtureMessages(action: contract.action, version: contract.version)
            + [synthesizer.seed(root) { self.old.verdict($0).accepted ? nil : self.old.verdict($0).errors.map(\.instanceLocation) }]
                .compactMap { $0 }
        for message in candidates.reversed() where old.verdict(message).accepted {
            let verdict = new.verdict(message)
            guard !verdict.accepted else { continue }
            let proof = Counterexample(acceptedBy: .old, message: message, url: nil, origin: nil,
                                       rejection: "the new contracts answer \(verdict.summary)", newVerdict: verdict.counterexampleVerdict)
            return Finding(kind: kind, severity: .breaking, subject: subject, schemaPointer: "", detail: detail, counterexample: proof)
        }
        return Finding(kind: kind, severity: .possiblyBreaking, subject: subject, schemaPointer: "", detail: detail,
                       note: "no message of it could be built to show the new contracts rejecting it")
    }

    /// A finding for a difference: info and compatible as they are; a change of acceptance is
    /// breaking when `search` proves it, possibly breaking otherwise.
    func finding(_ difference: Difference, subject: Subject, search: CounterexampleSearch?, infoOnly: Bool = false) -> Finding {
        var finding = Finding(kind: difference.kind, severity: .info, subject: subject, schemaPointer: difference.pointer,
                              detail: difference.detail)
        if infoOnly { return finding }
        switch difference.direction {
        case .annotation:
            finding.severity = .info
        case .unchanged:
            finding.severity = .compatible
        case .narrowed, .widened, .both:
            guard let search else {
                finding.severity = .possiblyBreaking
                finding.doubtedSides = difference.direction.acceptingSides
                finding.note = "no message could be built to test it"
                return finding
            }
            let (proofs, doubted) = search.proofs(difference)
            finding.severity = proofs.isEmpty ? .possiblyBreaking : .breaking
            finding.counterexamples = proofs
            finding.doubtedSides = doubted
            if !doubted.isEmpty { finding.note = search.lastAttempt }
        }
        return finding
    }

    // MARK: Shared schemas

    /// Schema files both sets have that no action version names: the envelope, the campaign
    /// schema. A difference there is reported once, for the shared schema, and proven with an
    /// action whose message shows it; the action versions do not report it again.
    func compareSharedSchemas() {
        let actionFiles = Set((old.contracts.manifest.actions + new.contracts.manifest.actions).flatMap { $0.versions.map(\.schema) })
            .union(eventSchemaFiles)
        let oldFiles = Set(old.contracts.schemas.map(\.file))
        let shared = new.contracts.schemas.map(\.file).filter { oldFiles.contains($0) && !actionFiles.contains($0) }
        let envelope = new.contracts.manifest.envelopeSchema
        let ordered = shared.filter { $0 == envelope } + shared.filter { $0 != envelope }
        func uris(_ file: String) -> Set<String> {
            Set([old.contracts.schemaURI(file: file), new.contracts.schemaURI(file: file)].map(URIReference.withoutFragment))
        }
        let sharedURIs = Set(ordered.flatMap(uris))
        for file in ordered {
            let subject = Subject.schema(file: file)
            let own = uris(file)
            // A part another shared schema wrote (the campaign schema inside the envelope) is
            // reported for that one.
            let differences = comparison.compare(normalized(old, file: file), normalized(new, file: file)).filter { difference in
                guard let source = difference.source else { return true }
                return own.contains(source) || !sharedURIs.contains(source)
            }
            for difference in differences {
                // The same change seen in an action's message: written in this schema, at the
                // same place (for the envelope, whose root is the message's, the same pointer).
                var evidence: [(Context, Difference)] = []
                for context in contexts {
                    context.differences.removeAll { candidate in
                        guard candidate.kind == difference.kind else { return false }
                        // Where the file's part merges with another's (a payload's root, which the
                        // envelope also constrains), nothing says who wrote it: the same change is.
                        let written = candidate.source.map(own.contains) ?? (candidate.detail == difference.detail)
                        let explained = (written && candidate.pointer.hasSuffix(difference.pointer))
                            || (file == envelope && candidate.pointer == difference.pointer)
                        if explained { evidence.append((context, candidate)) }
                        return explained
                    }
                }
                var finding = Finding(kind: difference.kind, severity: .info, subject: subject, schemaPointer: difference.pointer,
                                      detail: difference.detail)
                switch difference.direction {
                case .annotation:
                    finding.severity = .info
                case .unchanged:
                    finding.severity = .compatible
                case .narrowed, .widened, .both:
                    if evidence.isEmpty {
                        finding.severity = .compatible
                        finding.note = "no action version's message changes here: each action's own schema decides this place"
                    } else {
                        // Each direction proven by the first action version whose message shows it.
                        var doubted = difference.direction.acceptingSides
                        var notes: [String] = []
                        for (context, shown) in evidence where !doubted.isEmpty {
                            let (proofs, _) = context.search.proofs(shown)
                            for proof in proofs where doubted.contains(proof.acceptedBy) {
                                finding.counterexamples.append(proof)
                                doubted.removeAll { $0 == proof.acceptedBy }
                            }
                            notes.append(context.search.lastAttempt)
                        }
                        finding.severity = finding.counterexamples.isEmpty ? .possiblyBreaking : .breaking
                        finding.doubtedSides = doubted
                        if !doubted.isEmpty { finding.note = notes.last }
                    }
                }
                sharedFindings.append(finding)
            }
        }
    }

    func proveActionDifferences() {
        for context in contexts {
            context.findings = context.differences.map { finding($0, subject: context.subject, search: context.search) }
            context.findings += manifestFindings(context)
        }
    }

    // MARK: New actions and versions

    func compareAddedVersions() {
        for action in new.contracts.manifest.actions {
            guard let oldAction = old.contracts.manifest.action(named: action.name) else {
                findings.append(Finding(kind: .actionAdded, severity: .info, subject: .action(action.name), schemaPointer: "",
                                        detail: "new action, version(s) \(action.versions.map { String($0.version) }.joined(separator: ", "))"))
                continue
            }
            for contract in action.versions where oldAction.contract(version: contract.version) == nil {
                let subject = Subject.actionVersion(action: action.name, version: contract.version)
                let others = action.versions.filter { $0.version != contract.version }.map { "v\($0.version)" }
                findings.append(Finding(kind: .actionVersionAdded, severity: .info, subject: subject, schemaPointer: "",
                                        detail: "new version" + (others.isEmpty ? "" : ", side by side with " + others.joined(separator: ", "))))
                guard let previous = action.versions.last(where: { $0.version < contract.version }) else { continue }
                // Against the previous version of the same set: how the new version differs, as info.
                let before = normalized(new, file: previous.schema)
                let after = normalized(new, file: contract.schema)
                for difference in comparison.compare(before, after) where !difference.pointer.hasPrefix("/properties/version") {
                    var info = finding(difference, subject: subject, search: nil, infoOnly: true)
                    info.note = "compared with v\(previous.version)"
                    findings.append(info)
                }
            }
        }
    }

    // MARK: Finishing

    /// Every finding in report order, with accepted changes applied and a version-not-bumped
    /// finding for each released version (or shared schema) that changed incompatibly.
    func finish(accepted: AcceptedChanges, today: String) -> [Finding] {
        var ordered: [Finding] = []
        var bySubject: [(Subject, [Finding])] = contexts.map { ($0.subject, $0.findings) }
        var sharedBySubject: [Subject: [Finding]] = [:]
        for finding in sharedFindings { sharedBySubject[finding.subject, default: []].append(finding) }
        for (subject, list) in sharedBySubject.sorted(by: { $0.key.label < $1.key.label }) { bySubject.append((subject, list)) }
        bySubject += eventFindings
        var used = Set<Int>()
        func accept(_ list: inout [Finding]) {
            for index in list.indices {
                for (entryIndex, entry) in accepted.entries.enumerated() where entry.matches(list[index]) {
                    used.insert(entryIndex)
                    if entry.expires >= today { list[index].accepted = entry }
                }
            }
        }
        for (subject, var list) in bySubject {
            accept(&list)
            let failing = list.filter(\.fails)
            if !failing.isEmpty {
                let proven = failing.first { $0.severity == .breaking }
                let what: String
                switch subject {
                case .actionVersion(let action, _):
                    what = "add \(action) v\(nextVersion(of: action)) instead"
                case .eventVersion(let event, _):
                    what = "add \(event) v\(nextVersion(ofEvent: event)) instead"
                default:
                    what = "publish a new version of it instead"
                }
                let count = "\(failing.count) incompatible finding\(failing.count == 1 ? "" : "s")"
                var bump = Finding(kind: .versionNotBumped, severity: proven == nil ? .possiblyBreaking : .breaking, subject: subject,
                                   schemaPointer: "", detail: "a released version changed incompatibly (\(count)): \(what)",
                                   counterexample: proven?.counterexample)
                if proven == nil { bump.note = "its findings are only possibly breaking" }
                var single = [bump]
                accept(&single)
                list.append(single[0])
            }
            ordered += list
        }
        var rest = findings
        accept(&rest)
        ordered += rest
        for (index, entry) in accepted.entries.enumerated() {
            let label = "\(entry.kind.rawValue) of \(entry.subject.label)\(entry.schemaPointer.isEmpty ? "" : " " + entry.schemaPointer)"
            if entry.expires < today {
                ordered.append(Finding(kind: .acceptedChangeExpired, severity: .breaking, subject: entry.subject,
                                       schemaPointer: entry.schemaPointer,
                                       detail: "\(AcceptedChanges.fileName) \(entry.pointer): the acceptance of \(label) expired on \(entry.expires)",
                                       note: "fix the contract, or renew the entry with a reason"))
            } else if !used.contains(index) {
                ordered.append(Finding(kind: .acceptedChangeUnused, severity: .info, subject: entry.subject,
                                       schemaPointer: entry.schemaPointer,
                                       detail: "\(AcceptedChanges.fileName) \(entry.pointer): accepts \(label), which this diff does not find"))
            }
        }
        return ordered
    }

    private func nextVersion(of action: String) -> Int {
        let versions = (old.contracts.manifest.action(named: action)?.versions ?? []) + (new.contracts.manifest.action(named: action)?.versions ?? [])
        return (versions.map(\.version).max() ?? 0) + 1
    }
}
