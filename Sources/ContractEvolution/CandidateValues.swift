import SchemaCheck
import JSONCore

/// Values to try at the place of a difference: instances of both schemas, every enum value,
/// strings and numbers on each side of every bound, pattern matches and near misses, format
/// examples, one value of each type. Whether a candidate separates the two contract sets is
/// decided only by running whole messages through both; this only proposes.
struct CandidateValues {
    let synthesizer: InstanceSynthesizer

    /// Candidates for the value at a place, those built from `first`'s schema first.
    func values(first: NormalSchema, second: NormalSchema, limit: Int = 160) -> [JSONValue] {
        var out: [JSONValue] = []
        func add(_ value: JSONValue?) {
            guard let value, out.count < limit, !out.contains(value) else { return }
            out.append(value)
        }
        for schema in [first, second] {
            for example in synthesizer.examples(schema, limit: 6) { add(example) }
            for value in schema.values ?? [] { add(value) }
        }
        for schema in [first, second] { strings(for: schema, other: schema == first ? second : first).forEach { add(.string($0)) } }
        for schema in [first, second] { numbers(for: schema).forEach { add($0) } }
        for schema in [first, second] { arrays(for: schema).forEach { add($0) } }
        for schema in [first, second] {
            for group in schema.anyOf + schema.oneOf {
                for branch in group { synthesizer.examples(branch, limit: 3).forEach { add($0) } }
            }
            for negated in schema.not { synthesizer.examples(negated, limit: 3).forEach { add($0) } }
        }
        let representatives: [JSONValue] = [.null, true, false, 0, 1, -1, 1.5, "", "a", "A", [], [:], 1_000_000, "가"]
        representatives.forEach { add($0) }
        // Short arrays of each kind of item, for contains, minContains and maxContains.
        let items: [JSONValue] = [1, "a", true, .null, 1.5, [:]]
        for item in items { add([item]) }
        for item in items { add([item, item == 1 ? 2 : item]) }
        add([1, "a"])
        add(["a", 1])
        for schema in [first, second] { dependentMembers(schema).forEach { add($0) } }
        hinted(first: first, second: second).forEach { add($0) }
        return out
    }

    /// For keywords compared only as written (if/then/else, dependentSchemas ...): objects whose
    /// members take the names and the const/enum values those keywords mention, or lack them.
    private func hinted(first: NormalSchema, second: NormalSchema) -> [JSONValue] {
        let raw = Array(first.other.values) + Array(second.other.values)
        guard !raw.isEmpty else { return [] }
        var names: [String] = []
        var values: [JSONValue] = []
        // The keyword's own value names members: dependentSchemas {"a": ...}, dependencies/a.
        for (key, value) in first.other.merging(second.other, uniquingKeysWith: { a, _ in a }) {
            if key == "dependentSchemas" { names += value.objectValue?.keys ?? [] }
            if key.hasPrefix("dependencies/") { names.append(String(key.dropFirst("dependencies/".count))) }
        }
        func collect(_ value: JSONValue, depth: Int) {
            guard depth < 16 else { return }
            switch value {
            case .object(let object):
                for (key, member) in object {
                    switch key {
                    case "properties", "dependentSchemas", "dependentRequired":
                        names += member.objectValue?.keys ?? []
                    case "required":
                        names += member.arrayValue?.compactMap(\.stringValue) ?? []
                    case "const":
                        values.append(member)
                    case "minLength", "maxLength":
                        // Strings just inside and outside a length a condition sets.
                        if let bound = member.integerValue, bound >= 0, bound < 64 {
                            for length in [bound - 1, bound, bound + 1] where length >= 0 {
                                values.append(.string(String(repeating: "a", count: Int(length))))
                            }
                        }
                    case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
                        if let bound = member.numberValue { values += [-1, 0, 1].map { Self.number(bound + $0) } }
                    case "enum":
                        values += member.arrayValue ?? []
                    default:
                        break
                    }
                    collect(member, depth: depth + 1)
                }
            case .array(let items):
                items.forEach { collect($0, depth: depth + 1) }
            default:
                break
            }
        }
        raw.forEach { collect($0, depth: 0) }
        names = SchemaMerge.unique(names)
        // Members of a kind the keywords may not expect, besides the values they name.
        values = SchemaMerge.unique(values + [1, "a"])
        var bases: [JSONObject] = []
        for schema in [first, second] {
            for example in synthesizer.examples(schema, limit: 3) {
                if let object = example.objectValue, !bases.contains(object) { bases.append(object) }
            }
        }
        // The values themselves, for a condition on the value at this place.
        var out: [JSONValue] = values
        if bases.isEmpty { bases.append(JSONObject()) }
        for base in bases {
            // Every name at once, with each value: what a condition on one member asks of another.
            for value in values.prefix(8) {
                var all = base
                for name in names.prefix(8) { all[name] = value }
                out.append(.object(all))
                for name in names.prefix(8) {
                    var mixed = all
                    mixed[name] = value == 1 ? "a" : 1
                    out.append(.object(mixed))
                }
            }
            for name in names.prefix(8) {
                var without = base
                without[name] = nil
                out.append(.object(without))
                for value in values.prefix(8) {
                    var with = base
                    with[name] = value
                    out.append(.object(with))
                    var only = without
                    only[name] = value
                    out.append(.object(only))
                }
            }
        }
        return out
    }

    /// Objects with a dependentRequired trigger, with and without the members it requires.
    private func dependentMembers(_ schema: NormalSchema) -> [JSONValue] {
        var out: [JSONValue] = []
        for (name, list) in schema.dependentRequired.sorted(by: { $0.key < $1.key }) {
            var object = JSONObject()
            object[name] = 1
            out.append(.object(object))
            for member in list { object[member] = 1 }
            out.append(.object(object))
        }
        return out
    }

    private func strings(for schema: NormalSchema, other: NormalSchema) -> [String] {
        var lengths = Set<Int>()
        // Strings are built only up to a size a bridge message can carry.
        for bound in [schema.minLength, schema.maxLength, other.minLength, other.maxLength].compactMap({ $0 }) where bound < InstanceSynthesizer.largestString {
            lengths.formUnion([bound - 1, bound, bound + 1].filter { $0 >= 0 })
        }
        var result: [String] = []
        let patterns = schema.patterns + other.patterns
        for length in lengths.sorted() {
            for pattern in patterns {
                if let text = RegexExamples.approximating(pattern)?.example(length: length) { result.append(text) }
            }
            result.append(String(repeating: "a", count: length))
            result.append(String(repeating: "가", count: length))
        }
        for pattern in patterns { result += RegexExamples.approximating(pattern)?.samples() ?? [] }
        for format in schema.formats + other.formats { result += FormatExamples.valid(format) }
        if !(schema.formats + other.formats).isEmpty { result.append(FormatExamples.invalid) }
        return result
    }

    private func numbers(for schema: NormalSchema) -> [JSONValue] {
        var result: [JSONValue] = []
        for bound in [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum].compactMap({ $0 }) {
            for offset in [0, -1, 1, -0.5, 0.5] { result.append(Self.number(bound + offset)) }
        }
        for divisor in schema.multipleOf {
            for factor in [1.0, 2, 3, 0.5] { result.append(Self.number(divisor * factor)) }
        }
        return result
    }

    private func arrays(for schema: NormalSchema) -> [JSONValue] {
        guard schema.effectiveTypes.contains(.array) else { return [] }
        var result: [JSONValue] = []
        let item = synthesizer.instance(schema.itemSchema(at: 0)) ?? "a"
        var lengths: [Int] = [0, 1, 2, schema.prefixItems.count + 1]
        for bound in [schema.minItems, schema.maxItems].compactMap({ $0 }) { lengths += [bound - 1, bound, bound + 1] }
        for length in Set(lengths).sorted() where length >= 0 && length < 256 {
            // Distinct items, so a length bound is not mixed up with uniqueItems.
            var items: [JSONValue] = []
            for index in 0..<length {
                let schemaAt = schema.itemSchema(at: index)
                var chosen = item
                for variant in index..<(index + 12) {
                    let path: [PathToken] = [.index(index)]
                    if let value = synthesizer.value(schemaAt, path: path, choices: [path: variant], allMembers: false, depth: 0),
                       !items.contains(value) {
                        chosen = value
                        break
                    }
                }
                if items.contains(chosen), case .string = chosen { chosen = .string("item\(index)") }
                items.append(chosen)
            }
            result.append(.array(items))
        }
        result.append(.array([item, item]))
        return result
    }

    static func number(_ value: Double) -> JSONValue {
        value.rounded() == value && abs(value) < 9e15 ? .integer(Int64(value)) : .number(value)
    }

    /// Variants of the object at a place, for member-level differences.
    func objects(around current: JSONValue?, focus: Probe.Focus, first: NormalSchema, second: NormalSchema,
                 freshName: String) -> [JSONValue] {
        var bases: [JSONObject] = []
        if let object = current?.objectValue { bases.append(object) }
        for schema in [first, second] {
            for example in synthesizer.examples(schema, limit: 3) {
                if let object = example.objectValue, !bases.contains(object) { bases.append(object) }
            }
        }
        var out: [JSONValue] = []
        func add(_ object: JSONObject) {
            let value = JSONValue.object(object)
            if !out.contains(value) { out.append(value) }
        }
        switch focus {
        case .removeMember(let name):
            for base in bases {
                var object = base
                if object[name] == nil {
                    // Build it with the member present first, so removing it is the only change.
                    guard let member = memberValue(name, first, second) else { continue }
                    object[name] = member
                }
                object[name] = nil
                add(object)
            }
        case .addUnknownMember:
            let memberValues = values(first: first.additional?.schema ?? .anything, second: second.additional?.schema ?? .anything, limit: 24)
            for base in bases {
                for member in memberValues.prefix(12) {
                    var object = base
                    object[freshName] = member
                    add(object)
                }
            }
        case .memberCount:
            for base in bases {
                add(base)
                for name in (first.propertyNamesList + second.propertyNamesList) where base[name] == nil {
                    if let member = memberValue(name, first, second) {
                        var object = base
                        object[name] = member
                        add(object)
                    }
                }
                for name in base.keys {
                    var object = base
                    object[name] = nil
                    add(object)
                }
                var grown = base
                for index in 1...4 {
                    grown["\(freshName)\(index)"] = "a"
                    add(grown)
                }
            }
        case .value, .memberName:
            break
        }
        return out
    }

    private func memberValue(_ name: String, _ first: NormalSchema, _ second: NormalSchema) -> JSONValue? {
        for schema in [first, second] {
            let memberSchema = schema.child(for: .key(name), patternMatches: synthesizer.matcher.matches)
            if let value = synthesizer.instance(memberSchema) { return value }
        }
        return nil
    }
}
