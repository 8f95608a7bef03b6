import SchemaCheck
import JSONCore
import BridgeContracts

/// The manifest's part of a diff: what each action version maps and where it navigates, and
/// the settings every message or link passes through (origins, limits, hosts, scheme).
extension DiffRun {
    /// Route, mappings, timeout and fallback of one action version present in both sets.
    func manifestFindings(_ context: Context) -> [Finding] {
        let before = context.oldContract, after = context.newContract
        let subject = context.subject
        let base = "/actions/\(JSONPointer.escape(before.action))/versions/\(before.version)"
        var out: [Finding] = []
        if before.handler != after.handler {
            func answer(_ contract: ActionContract) -> String {
                switch contract.handler {
                case .route(let route): return "navigates to route \(route)"
                case .custom(let result): return "is answered by app code (result schemas/\(result))"
                }
            }
            out.append(navigationFinding(.actionRouteChanged, context, pointer: base + (after.route != nil ? "/route" : "/handler"),
                                         detail: "\(answer(after)) instead of: \(answer(before))"))
        }
        if before.handler == after.handler, let name = before.route,
           let was = old.contracts.route(named: name), let now = new.contracts.route(named: name), was.pattern != now.pattern {
            // The same route under another path: every message of this version opens another
            // URL, and the links those messages opened (already shared) may read otherwise now.
            out.append(navigationFinding(.actionPathChanged, context, pointer: base + "/route",
                                         detail: "route \(name) moved from \(was.pattern) to \(now.pattern)", provingLinks: true))
        }
        for (group, oldMappings, newMappings) in [("parameters", before.parameters, after.parameters), ("query", before.query, after.query)] {
            // A field that fills another link field from the same pointer is one rename.
            var renamed = Set<String>()
            for mapping in oldMappings where !newMappings.contains(where: { $0.name == mapping.name }) {
                let candidates = newMappings.filter { now in
                    now.pointer == mapping.pointer && !oldMappings.contains { $0.name == now.name } && !renamed.contains(now.name)
                }
                guard candidates.count == 1, let now = candidates.first else { continue }
                renamed.insert(now.name)
                renamed.insert(mapping.name)
                out.append(navigationFinding(.mappingRenamed, context, pointer: "\(base)/\(group)/\(JSONPointer.escape(now.name))",
                                             detail: "\(group) field \(mapping.name) renamed to \(now.name) (both from \(mapping.pointer))"))
            }
            for mapping in oldMappings where !renamed.contains(mapping.name) {
                let pointer = "\(base)/\(group)/\(JSONPointer.escape(mapping.name))"
                guard let now = newMappings.first(where: { $0.name == mapping.name }) else {
                    out.append(navigationFinding(.mappingRemoved, context, pointer: pointer,
                                                 detail: "\(group) field \(mapping.name) (\(mapping.pointer)) no longer mapped"))
                    continue
                }
                if now.pointer != mapping.pointer {
                    out.append(navigationFinding(.mappingPointerChanged, context, pointer: pointer,
                                                 detail: "\(group) field \(mapping.name) now takes \(now.pointer) instead of \(mapping.pointer)"))
                }
            }
            for mapping in newMappings where !oldMappings.contains(where: { $0.name == mapping.name }) && !renamed.contains(mapping.name) {
                out.append(Finding(kind: .mappingAdded, severity: .info, subject: subject,
                                   schemaPointer: "\(base)/\(group)/\(JSONPointer.escape(mapping.name))",
                                   detail: "\(group) field \(mapping.name) now mapped from \(mapping.pointer)"))
            }
            for mapping in newMappings {
                guard let tokens = JSONPointer.tokens(of: mapping.pointer),
                      declares(tokens, in: context.search.oldRoot), !declares(tokens, in: context.search.newRoot) else { continue }
                out.append(navigationFinding(.mappingPointerUnresolved, context,
                                             pointer: "\(base)/\(group)/\(JSONPointer.escape(mapping.name))",
                                             detail: "\(mapping.pointer) no longer resolves in schemas/\(after.schema)"))
            }
        }
        if before.timeoutMs != after.timeoutMs {
            out.append(Finding(kind: .timeoutChanged, severity: .info, subject: subject, schemaPointer: base + "/timeoutMs",
                               detail: "timeoutMs changed from \(before.timeoutMs) to \(after.timeoutMs)"))
        }
        if before.fallback != after.fallback {
            out.append(Finding(kind: .fallbackChanged, severity: .info, subject: subject, schemaPointer: base + "/fallback",
                               detail: "fallback changed from \(before.fallback.rawValue) to \(after.fallback.rawValue)"))
        }
        return out
    }

    /// Whether a message pointer names a property the resolved schema declares.
    private func declares(_ tokens: [String], in schema: NormalSchema) -> Bool {
        var current = schema
        for token in tokens {
            guard let next = current.property(token) else { return false }
            current = next
        }
        return true
    }

    /// A change of where a message leads. Proven when the mapping makes one side refuse a message
    /// the other accepts (a path parameter with no value); otherwise possibly breaking, with the
    /// two destinations of one message as the example.
    /// `provingLinks`: also prove, with the URL the old set opened, that links already sent break.
    private func navigationFinding(_ kind: FindingKind, _ context: Context, pointer: String, detail: String,
                                   provingLinks: Bool = false) -> Finding {
        var finding = Finding(kind: kind, severity: .possiblyBreaking, subject: context.subject, schemaPointer: pointer, detail: detail)
        let search = context.search
        for accepting in [Side.old, .new] {
            for message in search.oneSidedSeeds[accepting] ?? [] {
                let verdict = side(accepting.other).verdict(message)
                guard let code = verdict.code, ["INTERNAL", "NAVIGATION_FAILED"].contains(code) else { continue }
                finding.severity = .breaking
                finding.counterexample = Counterexample(
                    acceptedBy: accepting, message: message, url: nil, origin: nil,
                    rejection: "the \(accepting.other.rawValue) contracts answer \(verdict.summary)",
                    newVerdict: (accepting == .old ? verdict : side(.new).verdict(message)).counterexampleVerdict)
                return finding
            }
        }
        let messages = navigationMessages(context)
        guard !messages.isEmpty else {
            finding.note = "no message both sets accept could be built, so where it leads could not be compared"
            return finding
        }
        // A message both accept that opens another destination: the link an app build in the
        // field opens is not the one a new build opens.
        for message in messages {
            let before = old.verdict(message), after = new.verdict(message)
            guard before.accepted, after.accepted, before.url != after.url || before.route != after.route else { continue }
            let opened = { (verdict: ContractSide.MessageVerdict) in "\(verdict.url ?? "nothing") (route \(verdict.route ?? "none"))" }
            var proof = Counterexample(acceptedBy: .old, message: message, url: nil, origin: nil,
                                       rejection: "app builds in the field open \(opened(before)); new ones open \(opened(after))",
                                       newVerdict: after.counterexampleVerdict)
            proof.oldURL = before.url
            proof.newURL = after.url
            finding.severity = .breaking
            finding.counterexample = proof
            if provingLinks, let link = before.url,
               let broken = linkFinding(kind, subject: context.subject, pointer: pointer, detail: detail, links: [link]).counterexample {
                finding.counterexamples.append(broken)
            }
            return finding
        }
        finding.note = "none of \(messages.count) messages both sets accept navigates differently"
        finding.severity = .compatible
        return finding
    }

    /// Messages both sides accept, with a value at every pointer either side maps, so that
    /// each mapped field reaches the link.
    private func navigationMessages(_ context: Context) -> [JSONValue] {
        let search = context.search
        let pointers = SchemaMerge.unique((context.oldContract.parameters + context.oldContract.query
            + context.newContract.parameters + context.newContract.query).map(\.tokens))
        let synthesizer = InstanceSynthesizer(matcher: matcher)
        let merged = SchemaMerge.merge(search.oldRoot, search.newRoot)
        var messages = search.commonSeeds
        for seed in search.commonSeeds.prefix(2) {
            var filled = seed
            for tokens in pointers where filled.value(atTokens: tokens) == nil {
                let path = InstanceSynthesizer.path(tokens, in: filled)
                var schema = merged
                for token in path { schema = schema.child(for: token, patternMatches: matcher.matches) }
                guard let value = synthesizer.instance(schema), let placed = search.place(value, at: path, in: filled) else { continue }
                filled = placed.message
            }
            if !messages.contains(filled) { messages.insert(filled, at: 0) }
        }
        return messages.filter { old.verdict($0).accepted && new.verdict($0).accepted }
    }

    // MARK: Manifest-wide settings

    func compareManifest() {
        let before = old.contracts.manifest, after = new.contracts.manifest
        if before.bridge != after.bridge {
            findings.append(Finding(kind: .bridgeNameChanged, severity: .possiblyBreaking, subject: .manifest, schemaPointer: "/bridge",
                                    detail: "bridge name changed from \(before.bridge) to \(after.bridge)",
                                    note: "pages in the field post to messageHandlers.\(before.bridge); no message can show that, so it is not proven"))
        }
        let oldOrigins = before.allowedOrigins.map { $0.lowercased() }, newOrigins = after.allowedOrigins.map { $0.lowercased() }
        for origin in oldOrigins where !newOrigins.contains(origin) {
            var finding = Finding(kind: .originRemoved, severity: .possiblyBreaking, subject: .manifest, schemaPointer: "/allowedOrigins",
                                  detail: "allowed origin \(origin) removed", note: "no message valid in both sets could be built")
            for context in contexts {
                guard let message = context.search.commonSeeds.first else { continue }
                let accepted = old.verdict(message, origin: origin), rejected = new.verdict(message, origin: origin)
                if accepted.accepted && !rejected.accepted {
                    finding.severity = .breaking
                    finding.note = nil
                    finding.counterexample = Counterexample(acceptedBy: .old, message: message, url: nil, origin: origin,
                                                            rejection: "the new contracts answer \(rejected.summary)",
                                                            newVerdict: rejected.counterexampleVerdict)
                    break
                }
            }
            findings.append(finding)
        }
        for origin in newOrigins where !oldOrigins.contains(origin) {
            findings.append(Finding(kind: .originAdded, severity: .info, subject: .manifest, schemaPointer: "/allowedOrigins",
                                    detail: "allowed origin \(origin) added (pages there work with new app builds only)"))
        }
        compareLimit("maxMessageBytes", before.limits.maxMessageBytes, after.limits.maxMessageBytes)
        compareLimit("maxDepth", before.limits.maxDepth, after.limits.maxDepth)
        if before.limits.duplicateWindowMs != after.limits.duplicateWindowMs {
            findings.append(Finding(kind: .duplicateWindowChanged, severity: .info, subject: .manifest, schemaPointer: "/limits/duplicateWindowMs",
                                    detail: "duplicateWindowMs changed from \(before.limits.duplicateWindowMs) to \(after.limits.duplicateWindowMs)"))
        }
        for host in before.universalLinkHosts where !after.universalLinkHosts.contains(host) {
            findings.append(linkFinding(.linkHostRemoved, subject: .manifest, pointer: "/universalLinkHosts",
                                        detail: "Universal Link host \(host) removed", links: sampleLinks(host: host)))
        }
        for host in after.universalLinkHosts where !before.universalLinkHosts.contains(host) {
            findings.append(Finding(kind: .linkHostAdded, severity: .info, subject: .manifest, schemaPointer: "/universalLinkHosts",
                                    detail: "Universal Link host \(host) added"))
        }
        if before.customScheme != after.customScheme {
            findings.append(linkFinding(.customSchemeChanged, subject: .manifest, pointer: "/customScheme",
                                        detail: "custom scheme changed from \(before.customScheme) to \(after.customScheme)",
                                        links: sampleLinks(scheme: .custom)))
        }
    }

    private func compareLimit(_ name: String, _ before: Int, _ after: Int) {
        guard before != after else { return }
        let pointer = "/limits/\(name)"
        if after > before {
            findings.append(Finding(kind: .limitRaised, severity: .info, subject: .manifest, schemaPointer: pointer,
                                    detail: "\(name) raised from \(before) to \(after)"))
            return
        }
        var finding = Finding(kind: .limitLowered, severity: .possiblyBreaking, subject: .manifest, schemaPointer: pointer,
                              detail: "\(name) lowered from \(before) to \(after)")
        var largest = 0
        for context in contexts {
            // Messages the old set accepts; the new one may already refuse them as they are.
            let seeds = context.search.commonSeeds.prefix(2) + (context.search.oneSidedSeeds[.old] ?? []).prefix(2)
            for seed in seeds {
                let probe = LimitProbe(search: context.search, matcher: matcher)
                for message in [seed] + probe.messages(from: seed, limit: name, over: after, upTo: before) {
                    largest = max(largest, name == "maxDepth" ? LimitProbe.depth(message) : message.serialized().utf8.count)
                    let accepted = old.verdict(message), rejected = new.verdict(message)
                    guard accepted.accepted, !rejected.accepted else { continue }
                    finding.severity = .breaking
                    finding.counterexample = Counterexample(acceptedBy: .old, message: message, url: nil, origin: nil,
                                                            rejection: "the new contracts answer \(rejected.summary)",
                                                            newVerdict: rejected.counterexampleVerdict)
                    findings.append(finding)
                    return
                }
            }
        }
        finding.note = "no valid message over the new limit could be built; the largest was \(largest)\(name == "maxDepth" ? " levels deep" : " bytes")"
        findings.append(finding)
    }
}

/// Messages that grow one place of a valid message until it passes a size or depth limit:
/// a string without a length bound, or a member whose schema accepts anything.
struct LimitProbe {
    let search: CounterexampleSearch
    let matcher: PatternMatcher

    static func depth(_ value: JSONValue) -> Int {
        switch value {
        case .array(let items): return 1 + (items.map(depth).max() ?? 0)
        case .object(let object): return 1 + (object.map { depth($0.value) }.max() ?? 0)
        default: return 0
        }
    }

    func messages(from seed: JSONValue, limit: String, over low: Int, upTo high: Int) -> [JSONValue] {
        let root = SchemaMerge.merge(search.oldRoot, search.newRoot)
        var places: [([PathToken], NormalSchema)] = []
        collect(root, path: [], into: &places, depth: 0)
        var result: [JSONValue] = []
        if limit == "maxDepth" {
            // Nest arrays where anything (or any array) is accepted, one level past the new limit.
            for (path, schema) in places where schema.acceptsEverything || schema.effectiveTypes.contains(.array) && schema.items == nil {
                let target = low + 1 - path.count
                guard target > 0, target < 4096 else { continue }
                var nested: JSONValue = []
                for _ in 1..<target { nested = [nested] }
                if let placed = search.place(nested, at: path, in: seed) { result.append(placed.message) }
            }
        } else {
            // Fill free-text strings (no pattern, format or enum) with three-byte characters,
            // one after the other, until the message is over the new limit.
            var message = seed
            for (path, schema) in places where schema.effectiveTypes.contains(.string) && schema.patterns.isEmpty
                && schema.formats.isEmpty && schema.values == nil && !schema.acceptsEverything {
                let size = message.serialized().utf8.count
                if size > low { break }
                let characters = min(schema.maxLength ?? Int.max, (low + 1 - size) / 3 + 2)
                guard characters > 0, let placed = search.place(.string(String(repeating: "가", count: characters)), at: path, in: message)
                else { continue }
                message = placed.message
            }
            let size = message.serialized().utf8.count
            if size > low && size <= high { result.append(message) }
        }
        return result
    }

    private func collect(_ schema: NormalSchema, path: [PathToken], into places: inout [([PathToken], NormalSchema)], depth: Int) {
        guard depth < 8 else { return }
        places.append((path, schema))
        for property in schema.properties {
            collect(property.schema, path: path + [.key(property.name)], into: &places, depth: depth + 1)
        }
        if let additional = schema.additional?.schema, !additional.acceptsNothing {
            collect(additional, path: path + [.key(matcher.freshName(avoiding: [schema]))], into: &places, depth: depth + 1)
        } else if schema.additional == nil && schema.effectiveTypes.contains(.object) {
            collect(.anything, path: path + [.key(matcher.freshName(avoiding: [schema]))], into: &places, depth: depth + 1)
        }
    }
}
