import SchemaCheck
import JSONCore

/// Exact combinations of normal schemas: `allOf` (both must hold) and the `anyOf`/`oneOf` of
/// branches with disjoint types. When a combination cannot be written as one normal schema
/// exactly, the parts are kept side by side as an `allOf`.
enum SchemaMerge {
    /// The schema that accepts exactly what both accept.
    static func merge(_ a: NormalSchema, _ b: NormalSchema) -> NormalSchema {
        if a.withoutAnnotations == .anything { return withAnnotations(b, from: a) }
        if b.withoutAnnotations == .anything { return withAnnotations(a, from: b) }
        if a.recursiveReference != nil || b.recursiveReference != nil || !objectsMerge(a, b) {
            return conjunction(a, b)
        }
        if b.other.contains(where: { a.other[$0.key] != nil && a.other[$0.key] != $0.value }) {
            return conjunction(a, b)
        }
        var r = NormalSchema()
        switch (a.types, b.types) {
        case (nil, let only), (let only, nil): r.types = only
        case (let left?, let right?): r.types = left.intersection(right)
        }
        r.typesFromBranches = a.typesFromBranches || b.typesFromBranches
        switch (a.values, b.values) {
        case (nil, let only), (let only, nil): r.values = only
        case (let left?, let right?): r.values = left.filter { right.contains($0) }
        }
        r.valuesFromConst = a.values != nil ? a.valuesFromConst : b.valuesFromConst

        r.minLength = larger(a.minLength, b.minLength)
        r.maxLength = smaller(a.maxLength, b.maxLength)
        r.patterns = unique(a.patterns + b.patterns)
        r.formats = unique(a.formats + b.formats)

        r.minimum = larger(a.minimum, b.minimum)
        r.exclusiveMinimum = larger(a.exclusiveMinimum, b.exclusiveMinimum)
        r.maximum = smaller(a.maximum, b.maximum)
        r.exclusiveMaximum = smaller(a.exclusiveMaximum, b.exclusiveMaximum)
        r.multipleOf = unique(a.multipleOf + b.multipleOf)

        let prefixCount = max(a.prefixItems.count, b.prefixItems.count)
        r.prefixItems = (0..<prefixCount).map { merge(a.itemSchema(at: $0), b.itemSchema(at: $0)) }
        r.items = mergeChildren(a.items, b.items)
        r.minItems = larger(a.minItems, b.minItems)
        r.maxItems = smaller(a.maxItems, b.maxItems)
        r.uniqueItems = a.uniqueItems || b.uniqueItems

        var names = a.propertyNamesList
        for name in b.propertyNamesList where !names.contains(name) { names.append(name) }
        r.properties = names.map { name in
            NamedSchema(name: name, schema: merge(memberSchema(a, name), memberSchema(b, name)))
        }
        r.additional = mergeChildren(a.additional, b.additional)
        r.additionalFromUnevaluated = a.additional != nil ? a.additionalFromUnevaluated : b.additionalFromUnevaluated
        r.patternProperties = a.patternProperties + b.patternProperties
        r.required = Array(Set(a.required + b.required)).sorted()
        r.propertyNames = mergeChildren(a.propertyNames, b.propertyNames)
        r.minProperties = larger(a.minProperties, b.minProperties)
        r.maxProperties = smaller(a.maxProperties, b.maxProperties)
        r.dependentRequired = a.dependentRequired.merging(b.dependentRequired) { Array(Set($0 + $1)).sorted() }

        r.anyOf = a.anyOf + b.anyOf
        r.oneOf = a.oneOf + b.oneOf
        r.not = a.not + b.not
        r.allOf = a.allOf + b.allOf
        r.other = a.other.merging(b.other) { first, _ in first }
        r.annotations = a.annotations.merging(b.annotations) { first, _ in first }
        r.source = a.source == b.source ? a.source : nil
        return simplified(r)
    }

    /// Merging two object models member by member is exact unless pattern properties are involved
    /// on a side whose members the other side names or closes (which names a pattern matches is a
    /// question for the regex engine).
    private static func objectsMerge(_ a: NormalSchema, _ b: NormalSchema) -> Bool {
        func clashes(_ withPatterns: NormalSchema, _ other: NormalSchema) -> Bool {
            guard !withPatterns.patternProperties.isEmpty else { return false }
            if other.additional != nil || !other.patternProperties.isEmpty { return true }
            return other.propertyNamesList.contains { withPatterns.property($0) == nil }
        }
        return !clashes(a, b) && !clashes(b, a)
    }

    /// What a member called `name` is checked against by one side of a merge.
    private static func memberSchema(_ schema: NormalSchema, _ name: String) -> NormalSchema {
        schema.property(name) ?? schema.additional?.schema ?? .anything
    }

    private static func conjunction(_ a: NormalSchema, _ b: NormalSchema) -> NormalSchema {
        var r = NormalSchema()
        for part in [a, b] {
            if part.withoutAnnotations == NormalSchema(allOf: part.allOf).withoutAnnotations {
                r.allOf += part.allOf
            } else {
                r.allOf.append(part)
            }
        }
        return r
    }

    private static func withAnnotations(_ schema: NormalSchema, from other: NormalSchema) -> NormalSchema {
        var copy = schema
        copy.annotations = schema.annotations.merging(other.annotations) { first, _ in first }
        if !other.annotations.isEmpty && other.source != schema.source { copy.source = nil }
        return copy
    }

    private static func mergeChildren(_ a: Child?, _ b: Child?) -> Child? {
        switch (a, b) {
        case (nil, nil): return nil
        case (let only?, nil), (nil, let only?): return only
        case (let left?, let right?): return Child(merge(left.schema, right.schema))
        }
    }

    /// One schema for branches of `anyOf`/`oneOf` whose types do not overlap (so `oneOf` is `anyOf`,
    /// and each type-specific keyword belongs to exactly one branch), e.g. `[{"type": "string",
    /// "maxLength": 5}, {"type": "null"}]` is `{"type": ["string", "null"], "maxLength": 5}`.
    /// nil when the branches cannot be merged exactly.
    static func union(_ branches: [NormalSchema], exclusive: Bool) -> NormalSchema? {
        if branches.count == 1 { return branches[0] }
        if !exclusive, branches.contains(where: { $0.withoutAnnotations == .anything }) { return .anything }
        var seen = Set<TypeAtom>()
        for branch in branches {
            let plain = branch.anyOf.isEmpty && branch.oneOf.isEmpty && branch.not.isEmpty && branch.allOf.isEmpty
                && branch.other.isEmpty && branch.recursiveReference == nil
            guard plain, branch.types != nil || branch.values != nil else { return nil }
            let atoms = branch.effectiveTypes
            guard seen.isDisjoint(with: atoms) else { return nil }
            seen.formUnion(atoms)
        }
        var r = NormalSchema()
        r.types = seen
        r.typesFromBranches = true
        if branches.contains(where: { $0.values != nil }) {
            var values: [JSONValue] = []
            for branch in branches {
                if let own = branch.values {
                    values += own
                } else if branch.effectiveTypes.isSubset(of: [.null, .boolean]) {
                    if branch.effectiveTypes.contains(.null) { values.append(.null) }
                    if branch.effectiveTypes.contains(.boolean) { values += [.bool(false), .bool(true)] }
                } else {
                    return nil
                }
            }
            r.values = values
        }
        for branch in branches {
            let atoms = branch.effectiveTypes
            if atoms.contains(.string) {
                r.minLength = branch.minLength
                r.maxLength = branch.maxLength
                r.patterns = branch.patterns
                r.formats = branch.formats
            }
            if !atoms.isDisjoint(with: [.integer, .fraction]) {
                r.minimum = branch.minimum
                r.exclusiveMinimum = branch.exclusiveMinimum
                r.maximum = branch.maximum
                r.exclusiveMaximum = branch.exclusiveMaximum
                r.multipleOf = branch.multipleOf
            }
            if atoms.contains(.array) {
                r.prefixItems = branch.prefixItems
                r.items = branch.items
                r.minItems = branch.minItems
                r.maxItems = branch.maxItems
                r.uniqueItems = branch.uniqueItems
            }
            if atoms.contains(.object) {
                r.properties = branch.properties
                r.required = branch.required
                r.additional = branch.additional
                r.additionalFromUnevaluated = branch.additionalFromUnevaluated
                r.patternProperties = branch.patternProperties
                r.propertyNames = branch.propertyNames
                r.minProperties = branch.minProperties
                r.maxProperties = branch.maxProperties
                r.dependentRequired = branch.dependentRequired
            }
        }
        return simplified(r)
    }

    /// The canonical form: trivial bounds dropped, enum values filtered by the simple
    /// constraints they must also meet (which then say nothing more), integer bounds inclusive.
    static func simplified(_ schema: NormalSchema) -> NormalSchema {
        var s = schema
        if s.minLength == 0 { s.minLength = nil }
        if s.minItems == 0 { s.minItems = nil }
        if s.minProperties == 0 { s.minProperties = nil }
        if let types = s.types, !types.contains(.fraction) {
            // Only whole numbers are left: exclusive bounds become inclusive ones.
            if let bound = s.exclusiveMinimum {
                s.minimum = larger(s.minimum, (bound + 1).rounded(.down))
                s.exclusiveMinimum = nil
            }
            if let bound = s.exclusiveMaximum {
                s.maximum = smaller(s.maximum, (bound - 1).rounded(.up))
                s.exclusiveMaximum = nil
            }
            s.minimum = s.minimum.map { $0.rounded(.up) }
            s.maximum = s.maximum.map { $0.rounded(.down) }
        }
        if let values = s.values {
            var kept: [JSONValue] = []
            for value in values where !kept.contains(value) && meetsSimpleConstraints(value, s) { kept.append(value) }
            s.values = kept
            s.types = nil
            s.minLength = nil; s.maxLength = nil
            s.minimum = nil; s.maximum = nil; s.exclusiveMinimum = nil; s.exclusiveMaximum = nil; s.multipleOf = []
            s.minItems = nil; s.maxItems = nil; s.minProperties = nil; s.maxProperties = nil
        }
        if s.effectiveTypes.isEmpty {
            var nothing = NormalSchema.nothing
            nothing.annotations = s.annotations
            nothing.source = s.source
            return nothing
        }
        return s
    }

    /// Type, length, bound and multipleOf checks of one value (not patterns or members).
    static func meetsSimpleConstraints(_ value: JSONValue, _ s: NormalSchema) -> Bool {
        if let types = s.types, !types.contains(TypeAtom.of(value)) { return false }
        switch value {
        case .string(let text):
            let count = text.unicodeScalars.count
            if let minimum = s.minLength, count < minimum { return false }
            if let maximum = s.maxLength, count > maximum { return false }
        case .integer, .number:
            let number = value.numberValue!
            if let bound = s.minimum, number < bound { return false }
            if let bound = s.exclusiveMinimum, number <= bound { return false }
            if let bound = s.maximum, number > bound { return false }
            if let bound = s.exclusiveMaximum, number >= bound { return false }
            for divisor in s.multipleOf where divisor > 0 {
                let quotient = number / divisor
                if abs(quotient - quotient.rounded()) > 1e-9 { return false }
            }
        case .array(let items):
            if let minimum = s.minItems, items.count < minimum { return false }
            if let maximum = s.maxItems, items.count > maximum { return false }
        case .object(let object):
            if let minimum = s.minProperties, object.count < minimum { return false }
            if let maximum = s.maxProperties, object.count > maximum { return false }
        default:
            break
        }
        return true
    }

    static func larger<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        switch (a, b) {
        case (nil, let only), (let only, nil): return only
        case (let left?, let right?): return max(left, right)
        }
    }

    static func smaller<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        switch (a, b) {
        case (nil, let only), (let only, nil): return only
        case (let left?, let right?): return min(left, right)
        }
    }

    static func unique<T: Equatable>(_ list: [T]) -> [T] {
        var result: [T] = []
        for item in list where !result.contains(item) { result.append(item) }
        return result
    }
}

extension NormalSchema {
    init(allOf: [NormalSchema]) {
        self.init()
        self.allOf = allOf
    }
}
