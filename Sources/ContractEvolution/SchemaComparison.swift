import SchemaCheck
import JSONCore

/// Compares two normal schemas keyword family by keyword family and lists every difference
/// with its kind, where it is, which way it moves acceptance, and how to probe it for a
/// counterexample. It proves nothing: `CounterexampleSearch` does, with the real checker.
struct SchemaComparison {
    /// Whether `format` is an assertion on each side (the manifest's assertFormat).
    let oldAssertsFormat: Bool
    let newAssertsFormat: Bool
    let matcher: PatternMatcher

    /// A place in both the resolved schema and the instance.
    struct Location {
        var pointer: String
        var path: [PathToken]
        /// Candidates at this place are member names (under propertyNames).
        var names = false

        func schema(_ tokens: String...) -> Location {
            var copy = self
            copy.pointer += tokens.map { "/" + JSONPointer.escape($0) }.joined()
            return copy
        }

        func member(_ name: String, schema tokens: String...) -> Location {
            var copy = self
            copy.pointer += tokens.map { "/" + JSONPointer.escape($0) }.joined()
            copy.path.append(.key(name))
            return copy
        }

        func item(_ index: Int, schema tokens: String...) -> Location {
            var copy = self
            copy.pointer += tokens.map { "/" + JSONPointer.escape($0) }.joined()
            copy.path.append(.index(index))
            return copy
        }
    }

    func compare(_ old: NormalSchema, _ new: NormalSchema) -> [Difference] {
        var out: [Difference] = []
        compare(old, new, at: Location(pointer: "", path: []), into: &out)
        return out
    }

    func compare(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        if old == new { return }
        compareAnnotations(old, new, at: loc, into: &out)
        if old.recursiveReference != nil || new.recursiveReference != nil {
            if !old.sameConstraints(as: new) {
                emit(.keywordChanged, loc, .both, "a recursive $ref changed", old, new, into: &out)
            }
            return
        }
        if old.anyOf.count != new.anyOf.count || old.oneOf.count != new.oneOf.count {
            // One side has alternatives the other does not (an anyOf of two strings against one
            // string): compare alternative against alternative.
            compareAlternatives(old, new, at: loc, into: &out)
            return
        }
        if old.values != nil || new.values != nil {
            compareValues(old, new, at: loc, into: &out)
        } else {
            let oldTypes = old.effectiveTypes
            let newTypes = new.effectiveTypes
            compareTypes(old, new, oldTypes, newTypes, at: loc, into: &out)
            let common = oldTypes.intersection(newTypes)
            if common.contains(.string) { compareStrings(old, new, at: loc, into: &out) }
            if !common.isDisjoint(with: [.integer, .fraction]) { compareNumbers(old, new, integersOnly: !common.contains(.fraction), at: loc, into: &out) }
            if common.contains(.array) { compareArrays(old, new, at: loc, into: &out) }
            if common.contains(.object) { compareObjects(old, new, at: loc, into: &out) }
        }
        compareApplicators(old, new, at: loc, into: &out)
    }

    private func emit(_ kind: FindingKind, _ loc: Location, _ direction: Direction, _ detail: String,
                      _ old: NormalSchema, _ new: NormalSchema, focus: Probe.Focus = .value, into out: inout [Difference]) {
        let probe = Probe(path: loc.path, old: old, new: new, focus: loc.names ? .memberName : focus)
        out.append(Difference(kind: kind, pointer: loc.pointer, direction: direction, detail: detail, probe: probe,
                              source: new.source ?? old.source))
    }

    // MARK: Annotations

    private func compareAnnotations(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        let keys = Set(old.annotations.keys).union(new.annotations.keys).filter { old.annotations[$0] != new.annotations[$0] }
        guard !keys.isEmpty else { return }
        out.append(Difference(kind: .annotationChanged, pointer: loc.pointer, direction: .annotation,
                              detail: keys.sorted().joined(separator: ", ") + " changed", probe: nil,
                              source: new.source ?? old.source))
    }

    // MARK: Values and types

    private func compareValues(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        func list(_ values: [JSONValue]) -> String { values.map { $0.serialized() }.joined(separator: ", ") }
        switch (old.values, new.values) {
        case (nil, let added?):
            // Values the old schema did not accept widen at the same time.
            let alsoWidens = added.contains { !SchemaMerge.meetsSimpleConstraints($0, old) || !old.effectiveTypes.contains(TypeAtom.of($0)) }
            let direction: Direction = alsoWidens ? .both : .narrowed
            if new.valuesFromConst {
                emit(.constAdded, loc, direction, "const added (\(list(added)))", old, new, into: &out)
            } else {
                emit(.enumAdded, loc, direction, "enum added ([\(list(added))])", old, new, into: &out)
            }
        case (let removed?, nil):
            let alsoNarrows = removed.contains { !SchemaMerge.meetsSimpleConstraints($0, new) || !new.effectiveTypes.contains(TypeAtom.of($0)) }
            let direction: Direction = alsoNarrows ? .both : .widened
            if old.valuesFromConst {
                emit(.constRemoved, loc, direction, "const removed (was \(list(removed)))", old, new, into: &out)
            } else {
                emit(.enumRemoved, loc, direction, "enum removed (was [\(list(removed))])", old, new, into: &out)
            }
        case (let before?, let after?):
            let removed = before.filter { !after.contains($0) }
            let added = after.filter { !before.contains($0) }
            if removed.isEmpty && added.isEmpty { return }
            if old.valuesFromConst && new.valuesFromConst {
                emit(.constChanged, loc, .both, "const changed from \(list(before)) to \(list(after))", old, new, into: &out)
            } else if !removed.isEmpty && !added.isEmpty {
                emit(.enumChanged, loc, .both, "enum changed (\(list(removed)) removed, \(list(added)) added)", old, new, into: &out)
            } else if !removed.isEmpty {
                emit(.enumNarrowed, loc, .narrowed, "enum narrowed (\(list(removed)) removed)", old, new, into: &out)
            } else {
                emit(.enumWidened, loc, .widened, "enum widened (\(list(added)) added)", old, new, into: &out)
            }
        case (nil, nil):
            break
        }
    }

    private func compareTypes(_ old: NormalSchema, _ new: NormalSchema, _ oldTypes: Set<TypeAtom>, _ newTypes: Set<TypeAtom>,
                              at loc: Location, into out: inout [Difference]) {
        let removed = oldTypes.subtracting(newTypes)
        let added = newTypes.subtracting(oldTypes)
        guard !removed.isEmpty || !added.isEmpty else { return }
        let from = TypeAtom.describe(oldTypes), to = TypeAtom.describe(newTypes)
        let everything = Set(TypeAtom.allCases)
        let fromText = oldTypes == everything ? "any type" : from
        let toText = newTypes == everything ? "any type" : to
        if added == [.null] && removed.isEmpty && new.typesFromBranches {
            emit(.nullAcceptedThroughBranch, loc, .widened, "null accepted through an anyOf/oneOf branch (\(fromText) -> \(toText))", old, new, into: &out)
        } else if removed == [.null] && added.isEmpty && old.typesFromBranches {
            emit(.nullRejectedThroughBranch, loc, .narrowed, "null no longer accepted through a branch (\(fromText) -> \(toText))", old, new, into: &out)
        } else if added.isEmpty {
            let what = newTypes.isEmpty ? "accepts nothing now" : "\(TypeAtom.describe(removed)) no longer accepted"
            emit(.typeNarrowed, loc, .narrowed, "type narrowed from \(fromText) to \(toText) (\(what))", old, new, into: &out)
        } else if removed.isEmpty {
            emit(.typeWidened, loc, .widened, "type widened from \(fromText) to \(toText)", old, new, into: &out)
        } else {
            emit(.typeChanged, loc, .both, "type changed from \(fromText) to \(toText)", old, new, into: &out)
        }
    }

    // MARK: Bounds

    private struct BoundKinds {
        let added, removed, tightened, relaxed: FindingKind
        let keyword: String
    }

    private static func kinds(_ prefix: String, _ keyword: String) -> BoundKinds {
        BoundKinds(added: FindingKind(rawValue: prefix + "-added")!, removed: FindingKind(rawValue: prefix + "-removed")!,
                   tightened: FindingKind(rawValue: prefix + "-tightened")!, relaxed: FindingKind(rawValue: prefix + "-relaxed")!,
                   keyword: keyword)
    }

    /// `isLower`: a minimum (larger is tighter); otherwise a maximum (smaller is tighter).
    private func compareBound<T: Comparable>(_ before: T?, _ after: T?, isLower: Bool, _ kinds: BoundKinds,
                                              describe: (T) -> String, _ old: NormalSchema, _ new: NormalSchema,
                                              at loc: Location, focus: Probe.Focus = .value, into out: inout [Difference]) {
        switch (before, after) {
        case (nil, let value?):
            emit(kinds.added, loc, .narrowed, "\(kinds.keyword) \(describe(value)) added", old, new, focus: focus, into: &out)
        case (let value?, nil):
            emit(kinds.removed, loc, .widened, "\(kinds.keyword) \(describe(value)) removed", old, new, focus: focus, into: &out)
        case (let a?, let b?) where a != b:
            let tighter = isLower ? b > a : b < a
            emit(tighter ? kinds.tightened : kinds.relaxed, loc, tighter ? .narrowed : .widened,
                 "\(kinds.keyword) \(tighter ? "tightened" : "relaxed") from \(describe(a)) to \(describe(b))", old, new, focus: focus, into: &out)
        default:
            break
        }
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    // MARK: Strings

    private func compareStrings(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        compareBound(old.minLength, new.minLength, isLower: true, Self.kinds("min-length", "minLength"), describe: String.init, old, new, at: loc, into: &out)
        compareBound(old.maxLength, new.maxLength, isLower: false, Self.kinds("max-length", "maxLength"), describe: String.init, old, new, at: loc, into: &out)
        let removed = old.patterns.filter { !new.patterns.contains($0) }
        let added = new.patterns.filter { !old.patterns.contains($0) }
        if removed.count == 1 && added.count == 1 {
            emit(.patternChanged, loc, .both, "pattern changed from \(shown(removed[0])) to \(shown(added[0]))", old, new, into: &out)
            out[out.count - 1].doubt = "patterns compared by example: whether one regex includes the other is not decided"
        } else {
            for pattern in added { emit(.patternAdded, loc, .narrowed, "pattern \(shown(pattern)) added", old, new, into: &out) }
            for pattern in removed { emit(.patternRemoved, loc, .widened, "pattern \(shown(pattern)) removed", old, new, into: &out) }
        }
        let lostFormats = old.formats.filter { !new.formats.contains($0) }
        let newFormats = new.formats.filter { !old.formats.contains($0) }
        let asserted = oldAssertsFormat || newAssertsFormat
        let note = asserted ? "" : " (an annotation: this contract set does not assert formats)"
        if lostFormats.count == 1 && newFormats.count == 1 {
            emit(.formatChanged, loc, asserted ? .both : .annotation, "format changed from \(lostFormats[0]) to \(newFormats[0])\(note)", old, new, into: &out)
        } else {
            for format in newFormats {
                emit(.formatAdded, loc, asserted ? .narrowed : .annotation, "format \(format) added\(note)", old, new, into: &out)
            }
            for format in lostFormats {
                emit(.formatRemoved, loc, asserted ? .widened : .annotation, "format \(format) removed\(note)", old, new, into: &out)
            }
        }
    }

    /// A pattern with a string it matches (checked with the real regex engine), for readers
    /// who do not read regular expressions: `^[a-z]+$ (e.g. "a")`.
    private func shown(_ pattern: String) -> String {
        let samples = RegexExamples.approximating(pattern)?.samples() ?? []
        guard let example = samples.first(where: { !$0.isEmpty && matcher.matches(pattern, $0) })
                ?? samples.first(where: { matcher.matches(pattern, $0) }) else { return pattern }
        return "\(pattern) (e.g. \(JSONValue.string(example).serialized()))"
    }

    // MARK: Numbers

    private struct NumberBound: Equatable {
        let value: Double
        let exclusive: Bool
    }

    private static func lower(_ s: NormalSchema) -> NumberBound? {
        let candidates = [s.minimum.map { NumberBound(value: $0, exclusive: false) },
                          s.exclusiveMinimum.map { NumberBound(value: $0, exclusive: true) }].compactMap { $0 }
        return candidates.max { $0.value < $1.value || ($0.value == $1.value && !$0.exclusive) }
    }

    private static func upper(_ s: NormalSchema) -> NumberBound? {
        let candidates = [s.maximum.map { NumberBound(value: $0, exclusive: false) },
                          s.exclusiveMaximum.map { NumberBound(value: $0, exclusive: true) }].compactMap { $0 }
        return candidates.min { $0.value < $1.value || ($0.value == $1.value && $0.exclusive) }
    }

    private func compareNumbers(_ old: NormalSchema, _ new: NormalSchema, integersOnly: Bool, at loc: Location, into out: inout [Difference]) {
        for isLower in [true, false] {
            let before = isLower ? Self.lower(old) : Self.upper(old)
            let after = isLower ? Self.lower(new) : Self.upper(new)
            let inclusive = Self.kinds(isLower ? "minimum" : "maximum", isLower ? "minimum" : "maximum")
            let exclusive = Self.kinds(isLower ? "exclusive-minimum" : "exclusive-maximum", isLower ? "exclusiveMinimum" : "exclusiveMaximum")
            switch (before, after) {
            case (nil, nil):
                continue
            case (nil, let bound?):
                let kinds = bound.exclusive ? exclusive : inclusive
                emit(kinds.added, loc, .narrowed, "\(kinds.keyword) \(Self.number(bound.value)) added", old, new, into: &out)
            case (let bound?, nil):
                let kinds = bound.exclusive ? exclusive : inclusive
                emit(kinds.removed, loc, .widened, "\(kinds.keyword) \(Self.number(bound.value)) removed", old, new, into: &out)
            case (let a?, let b?) where a != b:
                let tighter: Bool
                if a.value == b.value {
                    tighter = b.exclusive
                } else {
                    tighter = isLower ? b.value > a.value : b.value < a.value
                }
                let kinds = b.exclusive ? exclusive : inclusive
                func text(_ bound: NumberBound) -> String {
                    (bound.exclusive ? (isLower ? "exclusiveMinimum " : "exclusiveMaximum ") : (isLower ? "minimum " : "maximum ")) + Self.number(bound.value)
                }
                emit(tighter ? kinds.tightened : kinds.relaxed, loc, tighter ? .narrowed : .widened,
                     "\(isLower ? "lower" : "upper") bound \(tighter ? "tightened" : "relaxed") from \(text(a)) to \(text(b))", old, new, into: &out)
            default:
                continue
            }
        }
        let before = Set(old.multipleOf), after = Set(new.multipleOf)
        guard before != after else { return }
        switch (old.multipleOf.first, new.multipleOf.first) {
        case (nil, let value?):
            emit(.multipleOfAdded, loc, .narrowed, "multipleOf \(Self.number(value)) added", old, new, into: &out)
        case (let value?, nil):
            emit(.multipleOfRemoved, loc, .widened, "multipleOf \(Self.number(value)) removed", old, new, into: &out)
        case (let a?, let b?):
            let text = "from \(Self.number(a)) to \(Self.number(b))"
            if Self.divides(a, b) {
                emit(.multipleOfTightened, loc, .narrowed, "multipleOf tightened " + text, old, new, into: &out)
            } else if Self.divides(b, a) {
                emit(.multipleOfRelaxed, loc, .widened, "multipleOf relaxed " + text, old, new, into: &out)
            } else {
                emit(.multipleOfChanged, loc, .both, "multipleOf changed " + text, old, new, into: &out)
            }
        default:
            break
        }
    }

    /// Whether every multiple of `b` is a multiple of `a`.
    private static func divides(_ a: Double, _ b: Double) -> Bool {
        guard a > 0 else { return false }
        let quotient = b / a
        return abs(quotient - quotient.rounded()) < 1e-9
    }

    // MARK: Arrays

    /// `items: false` after n prefixItems is `maxItems: n`: one form, so that rewriting a closed
    /// tuple one way or the other is no difference.
    static func tupleClosedByMaxItems(_ schema: NormalSchema) -> NormalSchema {
        guard let items = schema.items?.schema, items.acceptsNothing else { return schema }
        var copy = schema
        copy.items = nil
        copy.maxItems = min(schema.maxItems ?? Int.max, schema.prefixItems.count)
        return copy
    }

    private func compareArrays(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        // Only to see that two closed tuples are one: where they differ, the written forms are
        // compared, so a finding names the keyword a rejection comes from.
        if Self.tupleClosedByMaxItems(old).sameConstraints(as: Self.tupleClosedByMaxItems(new)) { return }
        let prefixCount = max(old.prefixItems.count, new.prefixItems.count)
        for index in 0..<prefixCount {
            let place = loc.item(index, schema: "prefixItems", String(index))
            if index >= old.prefixItems.count {
                structural(.prefixItemAdded, "prefixItems position \(index) added", old.itemSchema(at: index), new.prefixItems[index], at: place, into: &out)
            } else if index >= new.prefixItems.count {
                structural(.prefixItemRemoved, "prefixItems position \(index) removed", old.prefixItems[index], new.itemSchema(at: index), at: place, into: &out)
            } else {
                compare(old.prefixItems[index], new.prefixItems[index], at: place, into: &out)
            }
        }
        let place = loc.item(prefixCount, schema: "items")
        switch (old.items?.schema, new.items?.schema) {
        case (nil, let schema?):
            structural(.itemsAdded, "items schema added", .anything, schema, at: place, into: &out)
        case (let schema?, nil):
            structural(.itemsRemoved, "items schema removed", schema, .anything, at: place, into: &out)
        case (let before?, let after?):
            compare(before, after, at: place, into: &out)
        case (nil, nil):
            break
        }
        compareBound(old.minItems, new.minItems, isLower: true, Self.kinds("min-items", "minItems"), describe: String.init, old, new, at: loc, into: &out)
        compareBound(old.maxItems, new.maxItems, isLower: false, Self.kinds("max-items", "maxItems"), describe: String.init, old, new, at: loc, into: &out)
        if old.uniqueItems != new.uniqueItems {
            emit(new.uniqueItems ? .uniqueItemsAdded : .uniqueItemsRemoved, loc, new.uniqueItems ? .narrowed : .widened,
                 new.uniqueItems ? "uniqueItems added" : "uniqueItems removed", old, new, into: &out)
        }
    }

    /// An added or removed part whose effect depends on what it replaces: compared with what
    /// the other side had there. Covered (the same values accepted) is compatible.
    private func structural(_ kind: FindingKind, _ detail: String, _ old: NormalSchema, _ new: NormalSchema,
                            at loc: Location, into out: inout [Difference]) {
        var inner: [Difference] = []
        compare(old, new, at: loc, into: &inner)
        let moving = inner.filter { $0.direction.changesAcceptance }
        if moving.isEmpty {
            out.append(Difference(kind: kind, pointer: loc.pointer, direction: .unchanged,
                                  detail: detail + " (accepts the same values as before)", probe: nil,
                                  source: new.source ?? old.source))
        } else {
            let reasons = moving.prefix(2).map(\.detail).joined(separator: "; ")
            emit(kind, loc, Direction.combined(moving.map(\.direction)), "\(detail): \(reasons)", old, new, into: &out)
        }
    }

    // MARK: Objects

    private enum ObjectModel {
        case open, partlyOpen, closed
    }

    private func model(of schema: NormalSchema, forMember name: String) -> (ObjectModel, NormalSchema) {
        let governing = schema.child(for: .key(name), patternMatches: matcher.matches)
        if governing.acceptsNothing { return (.closed, governing) }
        if governing.withoutAnnotations == .anything { return (.open, governing) }
        return (.partlyOpen, governing)
    }

    private func compareObjects(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        var names = old.propertyNamesList
        for name in new.propertyNamesList where !names.contains(name) { names.append(name) }
        let closedBy = { (s: NormalSchema) in s.additionalFromUnevaluated ? "unevaluatedProperties" : "additionalProperties" }
        let start = out.count
        for name in names {
            let place = loc.member(name, schema: "properties", name)
            switch (old.property(name), new.property(name)) {
            case (let before?, let after?):
                compare(before, after, at: place, into: &out)
            case (nil, let after?):
                let (kind, governing) = model(of: old, forMember: name)
                switch kind {
                case .closed:
                    emit(.propertyAddedToClosedObject, place, after.acceptsNothing ? .unchanged : .widened,
                         "property \"\(name)\" added to a closed object (\(closedBy(old)) false)", governing, after, into: &out)
                case .open:
                    structural(.propertyAddedToOpenObject, "property \"\(name)\" declared in an open object", governing, after, at: place, into: &out)
                case .partlyOpen:
                    structural(.propertyAddedToPartlyOpenObject, "property \"\(name)\" declared in a partly open object", governing, after, at: place, into: &out)
                }
            case (let before?, nil):
                let (kind, governing) = model(of: new, forMember: name)
                switch kind {
                case .closed:
                    emit(.propertyRemovedFromClosedObject, place, before.acceptsNothing ? .unchanged : .narrowed,
                         "property \"\(name)\" removed from a closed object (\(closedBy(new)) false)", before, governing, into: &out)
                case .open:
                    structural(.propertyRemovedFromOpenObject, "property \"\(name)\" no longer declared in an open object", before, governing, at: place, into: &out)
                case .partlyOpen:
                    structural(.propertyRemovedFromPartlyOpenObject, "property \"\(name)\" removed from a partly open object", before, governing, at: place, into: &out)
                }
            case (nil, nil):
                break
            }
        }
        for name in new.required where !old.required.contains(name) {
            let hasDefault = (new.property(name) ?? old.property(name))?.annotations["default"] != nil
            emit(hasDefault ? .requiredAddedWithDefault : .requiredAdded, loc.schema("properties", name), .narrowed,
                 hasDefault ? "\"\(name)\" is now required (its default is not filled in by the checker)" : "\"\(name)\" is now required",
                 old, new, focus: .removeMember(name), into: &out)
        }
        for name in old.required where !new.required.contains(name) {
            let hasDefault = (old.property(name) ?? new.property(name))?.annotations["default"] != nil
            emit(hasDefault ? .requiredRemovedWithDefault : .requiredRemoved, loc.schema("properties", name), .widened,
                 hasDefault ? "\"\(name)\" is no longer required (it has a default, but app builds in the field still require it)" : "\"\(name)\" is no longer required",
                 old, new, focus: .removeMember(name), into: &out)
        }
        if let (from, to) = renamedProperty(old, new) {
            collapseRename(from: from, to: to, old, new, at: loc, since: start, into: &out)
        }
        compareAdditional(old, new, at: loc, into: &out)
        comparePatternProperties(old, new, at: loc, into: &out)
        if old.propertyNames != nil || new.propertyNames != nil {
            var place = loc.schema("propertyNames")
            place.names = true
            compare(old.propertyNames?.schema ?? .anything, new.propertyNames?.schema ?? .anything, at: place, into: &out)
        }
        compareBound(old.minProperties, new.minProperties, isLower: true, Self.kinds("min-properties", "minProperties"),
                     describe: String.init, old, new, at: loc, focus: .memberCount, into: &out)
        compareBound(old.maxProperties, new.maxProperties, isLower: false, Self.kinds("max-properties", "maxProperties"),
                     describe: String.init, old, new, at: loc, focus: .memberCount, into: &out)
        for (name, list) in new.dependentRequired.sorted(by: { $0.key < $1.key }) where old.dependentRequired[name] != list {
            emit(.dependentRequiredAdded, loc.schema("dependentRequired", name), .narrowed,
                 "with \"\(name)\", \(list.map { "\"\($0)\"" }.joined(separator: ", ")) now required", old, new, into: &out)
        }
        for (name, list) in old.dependentRequired.sorted(by: { $0.key < $1.key }) where new.dependentRequired[name] != list {
            emit(.dependentRequiredRemoved, loc.schema("dependentRequired", name), .widened,
                 "with \"\(name)\", \(list.map { "\"\($0)\"" }.joined(separator: ", ")) no longer required", old, new, into: &out)
        }
    }

    /// One property that only the old object declares and one that only the new one declares,
    /// with the same schema and both required or both optional: a rename.
    private func renamedProperty(_ old: NormalSchema, _ new: NormalSchema) -> (String, String)? {
        let gone = old.propertyNamesList.filter { new.property($0) == nil }
        let came = new.propertyNamesList.filter { old.property($0) == nil }
        guard gone.count == 1, came.count == 1, let before = old.property(gone[0]), let after = new.property(came[0]),
              before.sameConstraints(as: after), old.required.contains(gone[0]) == new.required.contains(came[0]) else { return nil }
        return (gone[0], came[0])
    }

    /// Replaces the differences a rename made (the property removed, the one added, and their
    /// `required`) with one `property-renamed`, which any of them proves in its direction.
    private func collapseRename(from: String, to: String, _ old: NormalSchema, _ new: NormalSchema, at loc: Location,
                                since start: Int, into out: inout [Difference]) {
        let places = [loc.schema("properties", from).pointer, loc.schema("properties", to).pointer]
        let parts = out[start...].filter { places.contains($0.pointer) }
        guard !parts.isEmpty else { return }
        out = Array(out[..<start]) + out[start...].filter { !places.contains($0.pointer) }
        let moving = parts.filter { $0.direction.changesAcceptance }
        let direction = Direction.combined(moving.map(\.direction))
        let required = new.required.contains(to) ? "required, " : ""
        var rename = Difference(kind: .propertyRenamed, pointer: places[1], direction: direction,
                                detail: "property \"\(from)\" renamed to \"\(to)\" (\(required)same schema)"
                                    + (moving.isEmpty ? " (accepts the same values as before)" : ""),
                                probe: nil,
                                source: new.source ?? old.source)
        rename.parts = moving
        out.append(rename)
    }

    private func compareAdditional(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        let before = old.additional?.schema ?? .anything
        let after = new.additional?.schema ?? .anything
        let keyword = (new.additional != nil ? new : old).additionalFromUnevaluated ? "unevaluatedProperties" : "additionalProperties"
        let fresh = matcher.freshName(avoiding: [old, new])
        let place = loc.member(fresh, schema: keyword)
        let object = Location(pointer: place.pointer, path: loc.path)
        if !before.acceptsNothing && after.acceptsNothing {
            emit(.objectClosed, object, .narrowed, "object closed (\(keyword) false): undeclared members are rejected", old, new,
                 focus: .addUnknownMember, into: &out)
        } else if before.acceptsNothing && !after.acceptsNothing {
            emit(.objectOpened, object, .widened, "object opened: \(keyword) accepts undeclared members", old, new,
                 focus: .addUnknownMember, into: &out)
        } else {
            compare(before, after, at: place, into: &out)
        }
    }

    private func comparePatternProperties(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        var patterns = old.patternProperties.map(\.name)
        for pattern in new.patternProperties.map(\.name) where !patterns.contains(pattern) { patterns.append(pattern) }
        let declared = old.propertyNamesList + new.propertyNamesList
        for pattern in patterns {
            let before = old.patternProperties.first { $0.name == pattern }?.schema
            let after = new.patternProperties.first { $0.name == pattern }?.schema
            guard let name = matcher.names(matching: pattern, excluding: declared).first else {
                if before?.sameConstraints(as: after ?? .anything) != true {
                    out.append(Difference(kind: before == nil ? .patternPropertyAdded : (after == nil ? .patternPropertyRemoved : .keywordChanged),
                                          pointer: loc.schema("patternProperties", pattern).pointer, direction: .both,
                                          detail: "patternProperties \(pattern) changed (no member name matching it could be built)", probe: nil))
                }
                continue
            }
            let place = loc.member(name, schema: "patternProperties", pattern)
            switch (before, after) {
            case (let a?, let b?):
                compare(a, b, at: place, into: &out)
            case (nil, let b?):
                structural(.patternPropertyAdded, "patternProperties \(pattern) added", old.additional?.schema ?? .anything, b, at: place, into: &out)
            case (let a?, nil):
                structural(.patternPropertyRemoved, "patternProperties \(pattern) removed", a, new.additional?.schema ?? .anything, at: place, into: &out)
            case (nil, nil):
                break
            }
        }
    }

    // MARK: Applicators

    private func compareApplicators(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        for (keyword, isOneOf) in [("anyOf", false), ("oneOf", true)] {
            let before = isOneOf ? old.oneOf : old.anyOf
            let after = isOneOf ? new.oneOf : new.anyOf
            for group in 0..<max(before.count, after.count) {
                let a = group < before.count ? before[group] : []
                let b = group < after.count ? after[group] : []
                compareBranches(a, b, keyword: keyword, isOneOf: isOneOf, old, new, at: loc, into: &out)
            }
        }
        let count = max(old.allOf.count, new.allOf.count)
        for index in 0..<count {
            let place = loc.schema("allOf", String(index))
            if index >= old.allOf.count {
                emit(.allOfBranchAdded, place, .narrowed, "allOf member \(index) added", .anything, new.allOf[index], into: &out)
            } else if index >= new.allOf.count {
                emit(.allOfBranchRemoved, place, .widened, "allOf member \(index) removed", old.allOf[index], .anything, into: &out)
            } else {
                compare(old.allOf[index], new.allOf[index], at: place, into: &out)
            }
        }
        switch (old.not.first, new.not.first) {
        case (nil, let added?):
            // What the added `not` schema accepts is rejected now.
            emit(.notAdded, loc.schema("not"), .narrowed, "not added", added, .nothing, into: &out)
        case (let removed?, nil):
            emit(.notRemoved, loc.schema("not"), .widened, "not removed", .nothing, removed, into: &out)
        case (let a?, let b?) where !a.sameConstraints(as: b):
            emit(.notChanged, loc.schema("not"), .both, "the schema under not changed", b, a, into: &out)
        default:
            break
        }
        let keys = Set(old.other.keys).union(new.other.keys).sorted()
        for key in keys where old.other[key] != new.other[key] {
            let direction = Self.unmodelledDirection(key, old.other, new.other)
            let keyword = key.hasPrefix("dependencies/") ? "dependencies" : key
            let what = old.other[key] == nil ? "added" : (new.other[key] == nil ? "removed" : "changed")
            emit(.keywordChanged, loc.schema(key), direction, "\(key) \(what)", old, new, into: &out)
            out[out.count - 1].doubt = "compared only as written: `\(keyword)` is not modelled"
        }
    }

    /// Which way a change to a keyword compared only as written moves acceptance, where the
    /// keyword's own meaning says: adding an assertion (`contains`, a `dependentSchemas` entry,
    /// `unevaluatedItems`, a conditional with a branch) only rejects more, removing it only
    /// accepts more. Anything else may go either way.
    static func unmodelledDirection(_ key: String, _ old: [String: JSONValue], _ new: [String: JSONValue]) -> Direction {
        let before = old[key], after = new[key]
        switch key {
        case "contains", "unevaluatedItems", "unevaluatedProperties",
             _ where key.hasPrefix("dependencies/"):
            if before == nil { return .narrowed }
            if after == nil { return .widened }
        case "dependentSchemas":
            let a = before?.objectValue ?? JSONObject(), b = after?.objectValue ?? JSONObject()
            let aKeys = Set(a.keys), bKeys = Set(b.keys)
            let sharedSame = aKeys.intersection(bKeys).allSatisfy { a[$0] == b[$0] }
            if sharedSame && aKeys.isSubset(of: bKeys) { return .narrowed }
            if sharedSame && bKeys.isSubset(of: aKeys) { return .widened }
        case "if", "then", "else":
            // A conditional acts only with `if` and a branch; one that starts or stops acting as a
            // whole, or gains or loses a branch under the same `if`, moves one way.
            func acts(_ schema: [String: JSONValue]) -> Bool { schema["if"] != nil && (schema["then"] != nil || schema["else"] != nil) }
            if !acts(old) && !acts(new) { return .unchanged }
            if !acts(old) { return .narrowed }
            if !acts(new) { return .widened }
            if old["if"] == new["if"] && key != "if" {
                if before == nil { return .narrowed }
                if after == nil { return .widened }
            }
        case "minContains", "maxContains":
            guard old["contains"] == new["contains"], old["contains"] != nil else { break }
            let isMinimum = key == "minContains"
            let a = before?.numberValue ?? (isMinimum ? 1 : .infinity), b = after?.numberValue ?? (isMinimum ? 1 : .infinity)
            if a == b { return .unchanged }
            return (isMinimum ? b > a : b < a) ? .narrowed : .widened
        default:
            break
        }
        return .both
    }

    /// The schema as a list of alternatives, each an `anyOf`/`oneOf` branch merged with the rest.
    private func alternatives(_ schema: NormalSchema) -> [NormalSchema] {
        var rest = schema
        rest.anyOf = []
        rest.oneOf = []
        var result = [rest]
        for group in schema.anyOf + schema.oneOf {
            var next: [NormalSchema] = []
            for partial in result {
                for branch in group { next.append(SchemaMerge.merge(partial, branch)) }
            }
            result = next
            if result.count > 32 { return [schema] }
        }
        return result
    }

    private func compareAlternatives(_ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        let before = alternatives(old), after = alternatives(new)
        var removed: [(Int, NormalSchema)] = []
        var unmatched = Array(after.enumerated())
        for (index, alternative) in before.enumerated() {
            if let match = unmatched.firstIndex(where: { $0.element.sameConstraints(as: alternative) }) {
                unmatched.remove(at: match)
            } else {
                removed.append((index, alternative))
            }
        }
        if removed.count == 1 && unmatched.count == 1 {
            compare(removed[0].1, unmatched[0].element, at: loc, into: &out)
            return
        }
        let isOneOf = !old.oneOf.isEmpty || !new.oneOf.isEmpty
        let keyword = isOneOf ? "oneOf" : "anyOf"
        for (index, alternative) in removed {
            emit(isOneOf ? .oneOfBranchRemoved : .anyOfBranchRemoved, loc.schema(keyword, String(index)), isOneOf ? .both : .narrowed,
                 "\(keyword) branch \(index) removed", alternative, new, into: &out)
        }
        for (index, alternative) in unmatched {
            emit(isOneOf ? .oneOfBranchAdded : .anyOfBranchAdded, loc.schema(keyword, String(index)), isOneOf ? .both : .widened,
                 "\(keyword) branch \(index) added", old, alternative, into: &out)
        }
    }

    private func compareBranches(_ before: [NormalSchema], _ after: [NormalSchema], keyword: String, isOneOf: Bool,
                                 _ old: NormalSchema, _ new: NormalSchema, at loc: Location, into out: inout [Difference]) {
        if before.count == after.count {
            for index in before.indices where before[index] != after[index] {
                compare(before[index], after[index], at: loc.schema(keyword, String(index)), into: &out)
            }
            return
        }
        var unmatched = after
        for (index, branch) in before.enumerated() {
            if let match = unmatched.firstIndex(where: { $0.sameConstraints(as: branch) }) {
                unmatched.remove(at: match)
            } else {
                emit(isOneOf ? .oneOfBranchRemoved : .anyOfBranchRemoved, loc.schema(keyword, String(index)),
                     isOneOf ? .both : .narrowed, "\(keyword) branch \(index) removed", branch, new, into: &out)
            }
        }
        for branch in unmatched {
            let index = after.firstIndex(of: branch) ?? 0
            emit(isOneOf ? .oneOfBranchAdded : .anyOfBranchAdded, loc.schema(keyword, String(index)),
                 isOneOf ? .both : .widened, "\(keyword) branch \(index) added", old, branch, into: &out)
        }
    }
}
