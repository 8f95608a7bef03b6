import SchemaCheck
import JSONCore
import BridgeContracts

/// The events' part of a diff. The app writes an event and pages read it, so the direction is the
/// actions' reversed: a version changed in place breaks the pages built against it when the new
/// schema accepts a message the old one rejects (proven by such a message), while a stricter
/// schema is compatible. A removed version breaks the pages that subscribe to it; an added
/// event or version is new (info). Built-in events are the same in both sets and not compared.
extension DiffRun {
    func compareEvents() {
        let after = new.contracts.manifest
        for event in old.contracts.manifest.events {
            guard let newEvent = after.events.first(where: { $0.name == event.name }) else {
                findings.append(eventRemoval(.eventRemoved, subject: .event(event.name), contract: event.versions.last!,
                                             detail: "event removed: new app builds never send it"))
                continue
            }
            for contract in event.versions {
                let subject = Subject.eventVersion(event: event.name, version: contract.version)
                guard let changed = newEvent.contract(version: contract.version) else {
                    findings.append(eventRemoval(.eventVersionRemoved, subject: subject, contract: contract,
                                                 detail: "version removed: new app builds never send it"))
                    continue
                }
                let search = eventSearch(contract, changed)
                eventFindings.append((subject, comparison.compare(search.oldRoot, search.newRoot).map {
                    eventFinding($0, subject: subject, search: search)
                }))
            }
        }
        compareAddedEvents()
    }

    /// The schema files of the events of both sets (not shared schemas: each event version's own).
    var eventSchemaFiles: Set<String> {
        Set((old.contracts.manifest.events + new.contracts.manifest.events).flatMap { $0.versions.map(\.schema) })
    }

    /// Both sides of one event version, as pages built against each schema read its messages.
    func eventSearch(_ before: EventContract, _ after: EventContract) -> CounterexampleSearch {
        let examples = old.contracts.eventExamples(before) + new.contracts.eventExamples(after)
            + (old.contracts.eventFixtures + new.contracts.eventFixtures)
                .filter { $0.event == before.event && $0.version == before.version && $0.valid }.map(\.message)
        return CounterexampleSearch(old: EventReader(schema: old.compiled.eventSchema(before.event, version: before.version)),
                                    new: EventReader(schema: new.compiled.eventSchema(after.event, version: after.version)),
                                    oldRoot: normalized(old, file: before.schema), newRoot: normalized(new, file: after.schema),
                                    matcher: matcher, fixtureMessages: examples,
                                    reader: .pages(event: before.event, version: before.version))
    }

    /// One difference of an event version: only a message the new schema accepts and the old
    /// one rejects breaks (pages built against the old schema drop it).
    func eventFinding(_ difference: Difference, subject: Subject, search: CounterexampleSearch) -> Finding {
        var finding = Finding(kind: difference.kind, severity: .info, subject: subject, schemaPointer: difference.pointer,
                              detail: difference.detail)
        switch difference.direction {
        case .annotation:
            break
        case .unchanged:
            finding.severity = .compatible
        case .narrowed:
            finding.severity = .compatible
            finding.note = "checked app to page: new builds send only messages the old schema accepts, so \(subject.eventReaders ?? "pages") reject none"
        case .widened, .both:
            let (proofs, doubted) = search.proofs(difference, sides: [.new])
            finding.severity = proofs.isEmpty ? .possiblyBreaking : .breaking
            finding.counterexamples = proofs
            finding.doubtedSides = doubted
            if !doubted.isEmpty { finding.note = search.lastAttempt }
        }
        return finding
    }

    /// An event or version the new set no longer has: a message of it (an example of its schema,
    /// or one built from it) is what the pages that subscribe wait for in vain.
    private func eventRemoval(_ kind: FindingKind, subject: Subject, contract: EventContract, detail: String) -> Finding {
        let reader = EventReader(schema: old.compiled.eventSchema(contract.event, version: contract.version))
        let seed = InstanceSynthesizer(matcher: matcher).seed(normalized(old, file: contract.schema)) { message in
            let verdict = reader.judge(message)
            return verdict.accepted ? nil : verdict.errors.map(\.instanceLocation)
        }
        let candidates = old.contracts.eventExamples(contract) + [seed].compactMap { $0 }
        guard let message = candidates.first(where: { reader.judge($0).accepted }) else {
            return Finding(kind: kind, severity: .possiblyBreaking, subject: subject, schemaPointer: "", detail: detail,
                           note: "no message of it could be built to show what the pages that subscribe wait for")
        }
        let proof = Counterexample(acceptedBy: .old, message: message, url: nil, origin: nil,
                                   rejection: "new app builds never send \(contract.event) v\(contract.version): pages that subscribe wait for it in vain",
                                   newVerdict: nil)
        return Finding(kind: kind, severity: .breaking, subject: subject, schemaPointer: "", detail: detail, counterexample: proof)
    }

    private func compareAddedEvents() {
        let before = old.contracts.manifest
        for event in new.contracts.manifest.events {
            let versions = event.versions.map { String($0.version) }.joined(separator: ", ")
            guard let oldEvent = before.events.first(where: { $0.name == event.name }) else {
                findings.append(Finding(kind: .eventAdded, severity: .info, subject: .event(event.name), schemaPointer: "",
                                        detail: "new event, version(s) \(versions): app builds in the field never send it"))
                continue
            }
            for contract in event.versions where oldEvent.contract(version: contract.version) == nil {
                findings.append(Finding(kind: .eventVersionAdded, severity: .info,
                                        subject: .eventVersion(event: event.name, version: contract.version), schemaPointer: "",
                                        detail: "new version: app builds in the field never send it"))
            }
        }
    }

    func nextVersion(ofEvent name: String) -> Int {
        let versions = [old, new].flatMap { $0.contracts.manifest.event(named: name)?.versions ?? [] }
        return (versions.map(\.version).max() ?? 0) + 1
    }
}
