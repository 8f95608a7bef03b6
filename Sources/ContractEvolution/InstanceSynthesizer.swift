import SchemaCheck
import JSONCore

/// Builds instances of a normal schema: the minimal one (required members only, shortest
/// strings that match, numbers near 1), and variants chosen per instance path. Instances are
/// candidates; `seed(_:failures:)` repairs one against the real checker until it passes.
struct InstanceSynthesizer {
    let matcher: PatternMatcher

    /// The longest string and array built: past the bridge's own limits nothing is learnt.
    static let largestString = 70_000
    static let largestArray = 1_024

    /// Per instance path, which variant to build (0 is the minimal choice).
    typealias Choices = [[PathToken]: Int]

    /// An instance, or nil when this synthesizer finds none (a schema that accepts nothing, a
    /// required member behind a recursion).
    func instance(_ schema: NormalSchema, choices: Choices = [:], allMembers: Bool = false) -> JSONValue? {
        value(schema, path: [], choices: choices, allMembers: allMembers, depth: 0)
    }

    /// An instance that `failures` accepts (returns nil), repaired by switching the variant at
    /// the places it names (instance locations of the errors); nil when none was found.
    func seed(_ schema: NormalSchema, allMembers: Bool = false, failures: (JSONValue) -> [String]?) -> JSONValue? {
        var choices: Choices = [:]
        var tried = Set<String>()
        for _ in 0..<32 {
            guard let candidate = instance(schema, choices: choices, allMembers: allMembers) else { return nil }
            guard let failing = failures(candidate) else { return candidate }
            let text = candidate.serialized(sortedKeys: true)
            if !tried.insert(text).inserted && failing.isEmpty { return nil }
            var bumped = false
            for location in failing {
                guard let tokens = JSONPointer.tokens(of: location) else { continue }
                let path = Self.path(tokens, in: candidate)
                choices[path, default: 0] += 1
                bumped = true
            }
            if !bumped { choices[[], default: 0] += 1 }
        }
        return nil
    }

    /// Several different instances: the minimal one, the one with every member, and variants.
    func examples(_ schema: NormalSchema, limit: Int) -> [JSONValue] {
        var result: [JSONValue] = []
        func add(_ value: JSONValue?) {
            if let value, !result.contains(value), result.count < limit { result.append(value) }
        }
        add(instance(schema))
        add(instance(schema, allMembers: true))
        for variant in 1..<8 where result.count < limit {
            add(instance(schema, choices: [[]: variant]))
        }
        return result
    }

    /// Pointer tokens as path tokens, reading array positions where the instance has arrays.
    static func path(_ tokens: [String], in instance: JSONValue) -> [PathToken] {
        var path: [PathToken] = []
        var current: JSONValue? = instance
        for token in tokens {
            if case .array(let items)? = current, let index = Int(token) {
                path.append(.index(index))
                current = index < items.count ? items[index] : nil
            } else {
                path.append(.key(token))
                current = current?[token]
            }
        }
        return path
    }

    // MARK: Values

    func value(_ s: NormalSchema, path: [PathToken], choices: Choices, allMembers: Bool, depth: Int) -> JSONValue? {
        guard depth < 24, !s.acceptsNothing, s.recursiveReference == nil else { return nil }
        let choice = choices[path] ?? 0
        // An applicator picks a branch, which is merged with the rest.
        if let group = s.anyOf.first ?? s.oneOf.first, !group.isEmpty {
            var rest = s
            if !s.anyOf.isEmpty { rest.anyOf.removeFirst() } else { rest.oneOf.removeFirst() }
            let branch = group[choice % group.count]
            return value(SchemaMerge.merge(rest, branch), path: path, choices: choices, allMembers: allMembers, depth: depth + 1)
        }
        if let parts = s.allOf.first.map({ _ in s.allOf }), !parts.isEmpty {
            var rest = s
            rest.allOf = []
            let merged = parts.reduce(rest) { SchemaMerge.merge($0, $1) }
            if merged.allOf.isEmpty {
                return value(merged, path: path, choices: choices, allMembers: allMembers, depth: depth + 1)
            }
            return value(parts[choice % parts.count], path: path, choices: choices, allMembers: allMembers, depth: depth + 1)
        }
        if let values = s.values {
            let usable = values.filter { value in
                guard case .string(let text) = value else { return true }
                return s.patterns.allSatisfy { matcher.matches($0, text) }
            }
            guard !usable.isEmpty else { return nil }
            return usable[choice % usable.count]
        }
        let types = preferredTypes(s)
        guard !types.isEmpty else { return nil }
        // The choice walks the variants of the first type, then the other types.
        let variantsPerType = 4
        let type = types[(choice / variantsPerType) % types.count]
        let variant = choice % variantsPerType
        switch type {
        case .null: return .null
        case .boolean: return .bool(variant % 2 == 0)
        case .integer: return integer(s, variant: variant)
        case .fraction: return fraction(s)
        case .string: return string(s, variant: variant).map(JSONValue.string)
        case .array: return array(s, path: path, choices: choices, allMembers: allMembers || variant > 0, depth: depth)
        case .object: return object(s, path: path, choices: choices, allMembers: allMembers || variant % 2 == 1, depth: depth)
        }
    }

    /// The types to try, the most telling first; for an untyped schema, the type its keywords suggest.
    private func preferredTypes(_ s: NormalSchema) -> [TypeAtom] {
        let order: [TypeAtom] = [.object, .array, .string, .integer, .fraction, .boolean, .null]
        if let types = s.types { return order.filter { types.contains($0) } }
        var hinted: [TypeAtom] = []
        if !s.properties.isEmpty || !s.required.isEmpty || s.additional != nil { hinted.append(.object) }
        if !s.prefixItems.isEmpty || s.items != nil { hinted.append(.array) }
        if !s.patterns.isEmpty || s.minLength != nil || s.maxLength != nil || !s.formats.isEmpty { hinted.append(.string) }
        if s.minimum != nil || s.maximum != nil || !s.multipleOf.isEmpty { hinted.append(.integer) }
        return hinted + order.filter { !hinted.contains($0) }
    }

    private func integer(_ s: NormalSchema, variant: Int) -> JSONValue? {
        var low = s.minimum.map { $0.rounded(.up) } ?? -1e15
        if let bound = s.exclusiveMinimum { low = max(low, (bound + 1).rounded(.down)) }
        var high = s.maximum.map { $0.rounded(.down) } ?? 1e15
        if let bound = s.exclusiveMaximum { high = min(high, (bound - 1).rounded(.up)) }
        guard low <= high else { return nil }
        let step = s.multipleOf.reduce(1.0) { lcm($0, $1) }
        let preferred: [Double] = [1, low, high, 2, 0, 10]
        let rotated = Array(preferred[variant...] + preferred[..<variant])
        for start in rotated where start >= low && start <= high {
            let candidate = (start / step).rounded(.up) * step
            if candidate <= high && candidate >= low && abs(candidate) < 9e15 { return .integer(Int64(candidate)) }
        }
        return nil
    }

    private func lcm(_ a: Double, _ b: Double) -> Double {
        guard a.rounded() == a, b.rounded() == b, a > 0, b > 0 else { return max(a, b) }
        var x = Int64(a), y = Int64(b)
        while y != 0 { (x, y) = (y, x % y) }
        return a / Double(x) * b
    }

    private func fraction(_ s: NormalSchema) -> JSONValue? {
        let low = s.minimum ?? s.exclusiveMinimum ?? 0
        let high = s.maximum ?? s.exclusiveMaximum ?? low + 2
        let middle = (low + high) / 2
        if middle.rounded() == middle { return .number(middle + 0.25 <= high ? middle + 0.25 : middle - 0.25) }
        return .number(middle)
    }

    /// Strings: a match of the first pattern at the shortest allowed length (a format example
    /// when there is a format), variants at other lengths.
    func string(_ s: NormalSchema, variant: Int) -> String? {
        let low = s.minLength ?? 0
        let high = s.maxLength ?? max(low, 64)
        guard low <= high, low <= Self.largestString else { return nil }
        var candidates: [String] = []
        for format in s.formats { candidates += FormatExamples.valid(format) }
        if let pattern = s.patterns.first, let regex = RegexExamples.approximating(pattern) {
            for length in [max(low, 1), low, min(high, max(low, 1) + 7), high] where length >= low && length <= high {
                if let text = regex.example(length: length), !candidates.contains(text) { candidates.append(text) }
            }
            if let minimal = regex.minimal { candidates.append(minimal) }
            candidates += regex.samples(limit: 12)
        }
        let plainLength = min(max(low, 1), high)
        candidates += [String(repeating: "a", count: plainLength), String(repeating: "가", count: plainLength),
                       String(repeating: "b", count: high == plainLength ? plainLength : min(high, plainLength + 3))]
        let fitting = candidates.filter { text in
            let count = text.unicodeScalars.count
            return count >= low && count <= high && s.patterns.allSatisfy { matcher.matches($0, text) }
        }
        guard !fitting.isEmpty else { return candidates.first }
        return fitting[variant % fitting.count]
    }

    private func array(_ s: NormalSchema, path: [PathToken], choices: Choices, allMembers: Bool, depth: Int) -> JSONValue? {
        var count = max(s.minItems ?? 0, allMembers ? s.prefixItems.count : 0)
        if let maximum = s.maxItems { count = min(count, maximum) }
        guard count <= Self.largestArray else { return nil }
        var items: [JSONValue] = []
        for index in 0..<count {
            let itemPath = path + [.index(index)]
            var itemChoices = choices
            // Unique items need different values: each position starts at its own variant.
            if s.uniqueItems { itemChoices[itemPath, default: 0] += index }
            guard let item = value(s.itemSchema(at: index), path: itemPath, choices: itemChoices, allMembers: false, depth: depth + 1)
            else { return nil }
            items.append(item)
        }
        return .array(items)
    }

    private func object(_ s: NormalSchema, path: [PathToken], choices: Choices, allMembers: Bool, depth: Int) -> JSONValue? {
        var members = JSONObject()
        // In declaration order, so a built message reads like a written one.
        let declared = s.propertyNamesList
        var wanted = declared.filter { s.required.contains($0) } + s.required.filter { !declared.contains($0) }
        if allMembers { wanted = SchemaMerge.unique(declared + s.required) }
        var index = 0
        while index < wanted.count {
            let name = wanted[index]
            index += 1
            let memberSchema = s.child(for: .key(name), patternMatches: matcher.matches)
            guard let member = value(memberSchema, path: path + [.key(name)], choices: choices, allMembers: false, depth: depth + 1) else {
                if s.required.contains(name) { return nil }
                continue
            }
            members[name] = member
            for dependency in s.dependentRequired[name] ?? [] where !wanted.contains(dependency) { wanted.append(dependency) }
        }
        // minProperties: optional properties first, then undeclared members if allowed.
        var spare = s.propertyNamesList.filter { members[$0] == nil }
        var counter = 0
        while members.count < (s.minProperties ?? 0) {
            let name: String
            if !spare.isEmpty {
                name = spare.removeFirst()
            } else {
                counter += 1
                name = "extra\(counter)"
                if counter > 64 { return nil }
            }
            let memberSchema = s.child(for: .key(name), patternMatches: matcher.matches)
            guard let member = value(memberSchema, path: path + [.key(name)], choices: choices, allMembers: false, depth: depth + 1) else {
                if spare.isEmpty && counter > 0 { return nil }
                continue
            }
            members[name] = member
        }
        return .object(members)
    }
}

/// Example strings for the formats of JSON Schema 2020-12 (valid ones, and one that is not).
enum FormatExamples {
    static func valid(_ format: String) -> [String] {
        switch format {
        case "date-time": return ["2026-11-29T12:00:00Z"]
        case "date": return ["2026-11-29"]
        case "time": return ["12:00:00Z"]
        case "duration": return ["P1D"]
        case "email", "idn-email": return ["person@example.com"]
        case "hostname", "idn-hostname": return ["example.com"]
        case "ipv4": return ["192.0.2.1"]
        case "ipv6": return ["2001:db8::1"]
        case "uri", "iri": return ["https://example.com/"]
        case "uri-reference", "iri-reference": return ["/path"]
        case "uri-template": return ["https://example.com/{id}"]
        case "uuid": return ["3f1c2a9e-7d2c-4e1a-9b3f-5c6d7e8f9a0b"]
        case "json-pointer": return ["/a/b"]
        case "relative-json-pointer": return ["0/a"]
        case "regex": return ["^a+$"]
        default: return []
        }
    }

    static let invalid = "not a valid value for this format"
}
