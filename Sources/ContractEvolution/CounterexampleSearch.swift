import SchemaCheck
import JSONCore

/// Proves a difference of one action version: starting from messages both contract sets accept
/// (built from the schemas, or valid fixtures), it changes only the value at the difference's
/// place, runs each candidate through both sides (`ContractSide`), and returns the first that
/// the side the difference favours accepts and the other rejects.
final class CounterexampleSearch {
    let old: any MessageJudge
    let new: any MessageJudge
    /// Who reads the messages: the app (actions), or pages (events), for the words of a proof.
    let reader: Reader
    let oldRoot: NormalSchema
    let newRoot: NormalSchema
    private let matcher: PatternMatcher
    private let synthesizer: InstanceSynthesizer
    private let candidates: CandidateValues
    /// Both schemas at once: intermediate objects are built from it, to suit both sides.
    private let mergedRoot: NormalSchema
    /// Messages both sides accept; then messages only one side accepts.
    private(set) lazy var commonSeeds: [JSONValue] = seeds.common
    private(set) lazy var oneSidedSeeds: [Side: [JSONValue]] = seeds.oneSided
    private let fixtureMessages: [JSONValue]
    private lazy var seeds: (common: [JSONValue], oneSided: [Side: [JSONValue]]) = buildSeeds()
    /// Candidate checks per difference and side; enough for every golden case with room to spare.
    private let budget = 2_000

    init(old: any MessageJudge, new: any MessageJudge, oldRoot: NormalSchema, newRoot: NormalSchema, matcher: PatternMatcher,
         fixtureMessages: [JSONValue], reader: Reader = .app) {
        self.old = old
        self.new = new
        self.reader = reader
        self.oldRoot = oldRoot
        self.newRoot = newRoot
        self.matcher = matcher
        synthesizer = InstanceSynthesizer(matcher: matcher)
        candidates = CandidateValues(synthesizer: synthesizer)
        mergedRoot = SchemaMerge.merge(oldRoot, newRoot)
        self.fixtureMessages = fixtureMessages
    }

    func side(_ side: Side) -> any MessageJudge { side == .old ? old : new }

    /// Why the last `prove` found nothing, for a "possibly breaking" note.
    private(set) var lastAttempt = ""

    /// The first proof in the direction the change is named for (see `proofs`).
    func prove(_ difference: Difference) -> Counterexample? {
        proofs(difference).proofs.first
    }

    /// A proof for each side the difference may favour (of `sides`, when given): a message that
    /// side accepts and the other rejects. `doubted` lists the sides left without one;
    /// `lastAttempt` says why.
    func proofs(_ difference: Difference, sides: [Side]? = nil) -> (proofs: [Counterexample], doubted: [Side]) {
        let accepting = difference.direction.acceptingSides.filter { sides?.contains($0) ?? true }
        guard difference.probe != nil || !difference.parts.isEmpty else {
            lastAttempt = "the engine has no way to build values for this change"
            return ([], accepting)
        }
        var found: [Counterexample] = [], doubted: [Side] = [], reasons: [String] = []
        for accepting in accepting {
            var tried = 0
            if let proof = proveThroughParts(difference, acceptedBy: accepting, tried: &tried)
                ?? difference.probe.flatMap({ prove($0, difference.kind, acceptedBy: accepting, tried: &tried) }) {
                found.append(proof)
                continue
            }
            doubted.append(accepting)
            reasons.append(reader.doubt(accepting, tried: tried, why: difference.doubt))
        }
        lastAttempt = reasons.joined(separator: "; ")
        return (found, doubted)
    }

    private func prove(_ probe: Probe, _ kind: FindingKind, acceptedBy accepting: Side, tried: inout Int) -> Counterexample? {
        let keywords = kind.provingKeywords(acceptedBy: accepting)
        return search(probe, keywords, acceptedBy: accepting, seeds: commonSeeds, attributed: false, tried: &tried)
            ?? search(probe, keywords, acceptedBy: accepting, seeds: oneSidedSeeds[accepting] ?? [],
                      attributed: true, tried: &tried)
    }

    /// A change made of several (a rename: one property out, one in) is proven in a direction
    /// by any of its parts that moves acceptance that way.
    private func proveThroughParts(_ difference: Difference, acceptedBy accepting: Side, tried: inout Int) -> Counterexample? {
        for part in difference.parts where part.direction.acceptingSides.contains(accepting) {
            guard let probe = part.probe else { continue }
            if let proof = prove(probe, part.kind, acceptedBy: accepting, tried: &tried) { return proof }
        }
        return nil
    }

    /// A whole message from `seed` with `value` at `path`, building missing objects and items on
    /// the way; `built` says whether anything besides `value` was added.
    func place(_ value: JSONValue, at path: [PathToken], in seed: JSONValue,
               accepting: Side? = nil) -> (message: JSONValue, built: Bool)? {
        var built = false
        func put(_ current: JSONValue?, _ rest: ArraySlice<PathToken>, prefix: [PathToken]) -> JSONValue? {
            guard let token = rest.first else { return value }
            let here = prefix + [token]
            switch token {
            case .key(let name):
                var object: JSONObject
                if let existing = current?.objectValue {
                    object = existing
                } else if current == nil {
                    built = true
                    object = intermediate(at: prefix, accepting: accepting)?.objectValue ?? JSONObject()
                } else {
                    return nil
                }
                guard let child = put(object[name], rest.dropFirst(), prefix: here) else { return nil }
                object[name] = child
                return .object(object)
            case .index(let index):
                var items: [JSONValue]
                if let existing = current?.arrayValue {
                    items = existing
                } else if current == nil {
                    built = true
                    items = intermediate(at: prefix, accepting: accepting)?.arrayValue ?? []
                } else {
                    return nil
                }
                while items.count <= index {
                    built = true
                    guard let filler = intermediate(at: prefix + [.index(items.count)], accepting: accepting) else { return nil }
                    items.append(filler)
                }
                guard let child = put(items[index], rest.dropFirst(), prefix: here) else { return nil }
                items[index] = child
                return .array(items)
            }
        }
        guard let message = put(seed, path[...], prefix: []) else { return nil }
        return (message, built)
    }

    /// A value for a place the seed does not have, valid for both schemas if possible, else for
    /// the side the message is built for (an item where the two sides' items share no value).
    private func intermediate(at path: [PathToken], accepting: Side? = nil) -> JSONValue? {
        var roots = [mergedRoot]
        if let accepting { roots.append(accepting == .old ? oldRoot : newRoot) }
        for root in roots {
            var schema = root
            for token in path { schema = schema.child(for: token, patternMatches: matcher.matches) }
            if let value = synthesizer.instance(schema) { return value }
        }
        return nil
    }

    private func search(_ probe: Probe, _ keywords: Set<String>?, acceptedBy accepting: Side, seeds: [JSONValue],
                        attributed: Bool, tried: inout Int) -> Counterexample? {
        let (first, second) = accepting == .old ? (probe.old, probe.new) : (probe.new, probe.old)
        let acceptingSide = side(accepting), rejectingSide = side(accepting.other)
        var values: [JSONValue] = []
        if probe.focus == .value || probe.focus == .memberName {
            values = candidates.values(first: first, second: second)
        }
        let fresh = matcher.freshName(avoiding: [probe.old, probe.new, oldRoot, newRoot])
        var checks = 0
        for seed in seeds.prefix(4) {
            let current = seed.value(at: probe.path)
            var messages: [(JSONValue, Bool)] = []
            switch probe.focus {
            case .value:
                messages = values.compactMap { place($0, at: probe.path, in: seed, accepting: accepting) }.map { ($0.message, $0.built) }
            case .memberName:
                guard let object = current?.objectValue ?? intermediate(at: probe.path, accepting: accepting)?.objectValue else { continue }
                for case .string(let name) in values where object[name] == nil {
                    var schema = mergedRoot
                    for token in probe.path + [.key(name)] { schema = schema.child(for: token, patternMatches: matcher.matches) }
                    var changed = object
                    changed[name] = synthesizer.instance(schema) ?? "a"
                    if let placed = place(.object(changed), at: probe.path, in: seed, accepting: accepting) { messages.append((placed.message, true)) }
                }
            case .removeMember, .addUnknownMember, .memberCount:
                for object in candidates.objects(around: current, focus: probe.focus, first: first, second: second, freshName: fresh) {
                    if let placed = place(object, at: probe.path, in: seed, accepting: accepting) { messages.append((placed.message, placed.built)) }
                }
            }
            // A message only the accepting side takes may itself be the proof.
            if attributed { messages.insert((seed, false), at: 0) }
            for (message, built) in messages where attributed || message != seed {
                guard checks < budget else { break }
                checks += 1
                tried += 1
                let accepted = acceptingSide.judge(message)
                guard accepted.accepted else { continue }
                let rejected = rejectingSide.judge(message)
                guard !rejected.accepted else { continue }
                // From a seed both accept, changing only this place, the place made the difference;
                // otherwise the rejection itself must point there.
                if (attributed || built) && !Self.touches(rejected.errors, probe.path) { continue }
                // The rejection must come from the kind's keyword alone, when the checker says why:
                // a proof of "maxItems tightened" is not an array that minItems rejects too.
                // A message only one side takes is that side's own: the other may reject it for
                // several changes at once (a renamed required member of a closed object is both
                // missing and unknown), and the kind's keyword among them is enough.
                if let keywords, !rejected.errors.isEmpty {
                    let proving = { (error: Counterexample.ErrorLocation) in
                        (keywords.contains(error.keyword) || Self.combinators.contains(error.keyword)
                         || (second.acceptsNothing && Self.applicators.contains(error.keyword)))
                            && Self.touches([error], probe.path)
                    }
                    let oneSided = attributed && message == seed
                    if oneSided ? !rejected.errors.contains(where: proving) : !Self.allProve(rejected.errors, keywords, proving) { continue }
                }
                return Counterexample(
                    acceptedBy: accepting, message: message, url: nil, origin: nil,
                    rejection: reader.rejection(rejected, by: accepting.other),
                    newVerdict: accepting == .old ? rejected.counterexampleVerdict : accepted.counterexampleVerdict)
            }
        }
        return nil
    }

    /// Whether every error of a rejection proves the kind. A value refused by an `anyOf` of
    /// typed branches is also refused by the type of each branch it was not meant for: those
    /// refusals are set aside when an error of the kind's own keyword remains.
    static func allProve(_ errors: [Counterexample.ErrorLocation], _ keywords: Set<String>,
                         _ proving: (Counterexample.ErrorLocation) -> Bool) -> Bool {
        if errors.allSatisfy(proving) { return true }
        let relevant = errors.filter { !$0.isOtherBranchType }
        return relevant.allSatisfy(proving) && relevant.contains { keywords.contains($0.keyword) && proving($0) }
    }

    /// Keywords that only combine others: a type change written as a oneOf is rejected by the
    /// oneOf, and that still is the type change.
    static let combinators: Set<String> = ["anyOf", "oneOf", "allOf", "$ref", "$dynamicRef", "$recursiveRef"]

    /// The keywords through which the checker names a false schema it reached (`properties`
    /// for a member declared false), where the place now accepts nothing.
    static let applicators: Set<String> = ["properties", "patternProperties", "additionalProperties", "unevaluatedProperties",
                                           "items", "prefixItems", "additionalItems", "unevaluatedItems", "contains",
                                           "propertyNames", "dependentSchemas", "dependencies", "then", "else"]

    /// Whether an error (by instance location) is at, inside, or directly about the place.
    static func touches(_ errors: [Counterexample.ErrorLocation], _ path: [PathToken]) -> Bool {
        let place = PathToken.pointer(path)
        return errors.contains { error in
            let location = error.instanceLocation
            return location == place || location.hasPrefix(place + "/") || (!location.isEmpty && place.hasPrefix(location + "/"))
        }
    }

    // MARK: Seeds

    private func failures(_ message: JSONValue, on sides: [any MessageJudge]) -> [String]? {
        var locations: [String] = []
        var rejected = false
        for side in sides {
            let verdict = side.judge(message)
            if !verdict.accepted {
                rejected = true
                locations += verdict.errors.map(\.instanceLocation)
            }
        }
        return rejected ? locations : nil
    }

    private func buildSeeds() -> (common: [JSONValue], oneSided: [Side: [JSONValue]]) {
        var candidatesList: [JSONValue] = []
        func add(_ value: JSONValue?) {
            if let value, !candidatesList.contains(value) { candidatesList.append(value) }
        }
        for allMembers in [false, true] {
            add(synthesizer.seed(mergedRoot, allMembers: allMembers) { self.failures($0, on: [self.old, self.new]) })
            add(synthesizer.seed(oldRoot, allMembers: allMembers) { self.failures($0, on: [self.old]) })
            add(synthesizer.seed(newRoot, allMembers: allMembers) { self.failures($0, on: [self.new]) })
        }
        fixtureMessages.forEach { add($0) }
        var common: [JSONValue] = []
        var oneSided: [Side: [JSONValue]] = [.old: [], .new: []]
        for candidate in candidatesList {
            let oldAccepts = old.judge(candidate).accepted
            let newAccepts = new.judge(candidate).accepted
            if oldAccepts && newAccepts {
                common.append(candidate)
            } else if oldAccepts {
                oneSided[.old]!.append(candidate)
            } else if newAccepts {
                oneSided[.new]!.append(candidate)
            }
        }
        return (common, oneSided)
    }
}
