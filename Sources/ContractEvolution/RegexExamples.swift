/// Example strings for an ECMA-262 regular expression (the `pattern` dialect of JSON Schema):
/// strings it matches, with each repetition at its bounds, and near misses (one repetition
/// over or under its bound, characters just outside a class). Only candidates: whoever uses
/// them checks each with the real checker. Lookarounds and back-references are not supported
/// (`init` returns nil).
struct RegexExamples {
    private let root: Node
    private let repeatCount: Int
    private let alternationCount: Int

    /// The examples of `pattern`, or, when it has lookarounds, word boundaries or
    /// back-references, of the pattern without them: candidates still, which the checker sorts.
    static func approximating(_ pattern: String) -> RegexExamples? {
        if let exact = RegexExamples(pattern) { return exact }
        var scalars = Array(pattern.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                let next = scalars[index + 1]
                if next == "b" || next == "B" || ("1"..."9").contains(next) { index += 2; continue }
                result.append(scalar)
                result.append(next)
                index += 2
                continue
            }
            if scalar == "(", index + 2 < scalars.count, scalars[index + 1] == "?",
               scalars[index + 2] == "=" || scalars[index + 2] == "!" || scalars[index + 2] == "<" && index + 3 < scalars.count && (scalars[index + 3] == "=" || scalars[index + 3] == "!") {
                // Skip the whole group, nested parentheses and escapes included.
                var depth = 0
                while index < scalars.count {
                    if scalars[index] == "\\" { index += 2; continue }
                    if scalars[index] == "(" { depth += 1 }
                    if scalars[index] == ")" { depth -= 1; if depth == 0 { index += 1; break } }
                    index += 1
                }
                continue
            }
            result.append(scalar)
            index += 1
        }
        scalars = Array(result)
        return RegexExamples(String(String.UnicodeScalarView(scalars)))
    }

    init?(_ pattern: String) {
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        guard let node = parser.parseAlternation(), parser.position == parser.scalars.count else { return nil }
        root = node
        repeatCount = parser.nextRepeatID
        alternationCount = parser.nextAlternationID
    }

    // MARK: Generation

    /// How each choice point is decided for one example.
    private struct Plan {
        var counts: [Int: Int] = [:]
        var longRepeats = false
        var branch = 0
        var classSample = 0
    }

    /// The shortest match (every repetition at its minimum, first branches, first characters).
    var minimal: String? { generate(Plan()) }

    /// Matches and near misses, shortest first, without duplicates; at most `limit`.
    func samples(limit: Int = 48) -> [String] {
        var plans: [Plan] = [Plan()]
        for sample in 1...4 { plans.append(Plan(classSample: sample)) }
        for branch in 1..<max(1, maxBranches) { plans.append(Plan(branch: branch)) }
        plans.append(Plan(longRepeats: true))
        for id in 0..<repeatCount {
            guard let bounds = repeatBounds[id] else { continue }
            if let upper = bounds.max {
                plans.append(Plan(counts: [id: upper]))
                plans.append(Plan(counts: [id: upper + 1]))
            } else {
                plans.append(Plan(counts: [id: bounds.min + 3]))
            }
            if bounds.min > 0 { plans.append(Plan(counts: [id: bounds.min - 1])) }
            if bounds.min > 1 { plans.append(Plan(counts: [id: bounds.min + 1])) }
        }
        var result: [String] = []
        for plan in plans {
            guard let text = generate(plan), !result.contains(text) else { continue }
            result.append(text)
            if result.count >= limit { break }
        }
        if let base = result.first {
            for mutated in [base + "A", base + " ", base + "_", base + "-", base + "1", "가" + base, base.uppercased(), ""]
            where !result.contains(mutated) && result.count < limit {
                result.append(mutated)
            }
        }
        return result
    }

    /// A match of exactly `length` characters (code points), when the pattern has one this
    /// generator can find.
    func example(length: Int) -> String? {
        var budget = 4096
        return build(root, length: length, budget: &budget)
    }

    private var maxBranches: Int { Self.maxBranches(root) }

    private static func maxBranches(_ node: Node) -> Int {
        switch node {
        case .alternation(_, let branches): return max(branches.count, branches.map(maxBranches).max() ?? 1)
        case .sequence(let items): return items.map(maxBranches).max() ?? 1
        case .repeated(_, let inner, _, _), .group(let inner): return maxBranches(inner)
        default: return 1
        }
    }

    private var repeatBounds: [Int: (min: Int, max: Int?)] {
        var bounds: [Int: (min: Int, max: Int?)] = [:]
        Self.collectRepeats(root, into: &bounds)
        return bounds
    }

    private static func collectRepeats(_ node: Node, into bounds: inout [Int: (min: Int, max: Int?)]) {
        switch node {
        case .repeated(let id, let inner, let low, let high):
            bounds[id] = (low, high)
            collectRepeats(inner, into: &bounds)
        case .alternation(_, let branches): branches.forEach { collectRepeats($0, into: &bounds) }
        case .sequence(let items): items.forEach { collectRepeats($0, into: &bounds) }
        case .group(let inner): collectRepeats(inner, into: &bounds)
        default: break
        }
    }

    private func generate(_ plan: Plan) -> String? {
        var out = String.UnicodeScalarView()
        guard emit(root, plan, into: &out, depth: 0) else { return nil }
        return String(out)
    }

    private func emit(_ node: Node, _ plan: Plan, into out: inout String.UnicodeScalarView, depth: Int) -> Bool {
        guard depth < 64, out.count < 2048 else { return false }
        switch node {
        case .literal(let scalar):
            out.append(scalar)
        case .characters(let set):
            guard let scalar = set.sample(plan.classSample) else { return false }
            out.append(scalar)
        case .start, .end, .empty:
            break
        case .group(let inner):
            return emit(inner, plan, into: &out, depth: depth + 1)
        case .sequence(let items):
            for item in items where !emit(item, plan, into: &out, depth: depth + 1) { return false }
        case .alternation(_, let branches):
            return emit(branches[plan.branch % branches.count], plan, into: &out, depth: depth + 1)
        case .repeated(let id, let inner, let low, let high):
            var count = plan.counts[id] ?? low
            if plan.counts[id] == nil && plan.longRepeats { count = high ?? (low + 8) }
            for _ in 0..<min(count, 1024) where !emit(inner, plan, into: &out, depth: depth + 1) { return false }
        }
        return true
    }

    private func build(_ node: Node, length: Int, budget: inout Int) -> String? {
        budget -= 1
        guard budget > 0, length >= 0 else { return nil }
        let bounds = Self.lengthBounds(node)
        guard length >= bounds.min, bounds.max.map({ length <= $0 }) ?? true else { return nil }
        switch node {
        case .literal(let scalar): return String(String.UnicodeScalarView([scalar]))
        case .characters(let set): return set.sample(0).map { String(String.UnicodeScalarView([$0])) }
        case .start, .end, .empty: return ""
        case .group(let inner): return build(inner, length: length, budget: &budget)
        case .alternation(_, let branches):
            for branch in branches {
                if let text = build(branch, length: length, budget: &budget) { return text }
            }
            return nil
        case .sequence(let items):
            return buildSequence(items[...], length: length, budget: &budget)
        case .repeated(_, let inner, let low, let high):
            let unit = Self.lengthBounds(inner)
            if length == 0 { return low == 0 || unit.min == 0 ? "" : nil }
            let largest = unit.max ?? length
            let fewest = max(low, largest > 0 ? (length + largest - 1) / largest : low)
            let most = min(high ?? Int.max, unit.min > 0 ? length / unit.min : length)
            guard fewest <= most else { return nil }
            for count in fewest...min(most, fewest + 4) where count > 0 {
                var text = ""
                var remaining = length
                for index in 0..<count {
                    let share = remaining / (count - index)
                    guard let piece = build(inner, length: share, budget: &budget) else { text = "\u{0}"; break }
                    text += piece
                    remaining -= share
                }
                if !text.contains("\u{0}") && remaining == 0 { return text }
            }
            return nil
        }
    }

    private func buildSequence(_ items: ArraySlice<Node>, length: Int, budget: inout Int) -> String? {
        guard let first = items.first else { return length == 0 ? "" : nil }
        let rest = items.dropFirst()
        let restMin = rest.map { Self.lengthBounds($0).min }.reduce(0, +)
        let bounds = Self.lengthBounds(first)
        let upper = min(bounds.max ?? length, length - restMin)
        guard bounds.min <= upper else { return nil }
        // The remainder goes to the first item that can take it, so fixed parts stay fixed.
        for own in stride(from: upper, through: bounds.min, by: -1) {
            guard let head = build(first, length: own, budget: &budget) else { continue }
            if let tail = buildSequence(rest, length: length - own, budget: &budget) { return head + tail }
            if budget <= 0 { return nil }
        }
        return nil
    }

    private static func lengthBounds(_ node: Node) -> (min: Int, max: Int?) {
        switch node {
        case .literal, .characters: return (1, 1)
        case .start, .end, .empty: return (0, 0)
        case .group(let inner): return lengthBounds(inner)
        case .alternation(_, let branches):
            let all = branches.map(lengthBounds)
            let upper: Int? = all.contains { $0.max == nil } ? nil : all.compactMap(\.max).max()
            return (all.map(\.min).min() ?? 0, upper)
        case .sequence(let items):
            let all = items.map(lengthBounds)
            let upper: Int? = all.contains { $0.max == nil } ? nil : all.compactMap(\.max).reduce(0, +)
            return (all.map(\.min).reduce(0, +), upper)
        case .repeated(_, let inner, let low, let high):
            let unit = lengthBounds(inner)
            let upper: Int? = high.flatMap { count in unit.max.map { $0 * count } }
            return (unit.min * low, unit.max == 0 ? 0 : upper)
        }
    }

    // MARK: Syntax

    fileprivate indirect enum Node {
        case literal(Unicode.Scalar)
        case characters(ScalarSet)
        case start, end, empty
        case group(Node)
        case sequence([Node])
        case alternation(id: Int, [Node])
        case repeated(id: Int, Node, min: Int, max: Int?)
    }

    fileprivate struct ScalarSet {
        var ranges: [ClosedRange<UInt32>]
        var negated: Bool

        func contains(_ value: UInt32) -> Bool {
            ranges.contains { $0.contains(value) } != negated
        }

        /// The n-th representative: range ends and middles for a positive set, common characters
        /// outside it for a negated one.
        func sample(_ n: Int) -> Unicode.Scalar? {
            var candidates: [UInt32] = []
            if negated {
                candidates = "aZ0-_ .가/!".unicodeScalars.map(\.value).filter { contains($0) }
            } else {
                for range in ranges {
                    candidates.append(range.lowerBound)
                    if range.upperBound != range.lowerBound { candidates.append(range.upperBound) }
                    let middle = range.lowerBound + (range.upperBound - range.lowerBound) / 2
                    if !candidates.contains(middle) { candidates.append(middle) }
                }
                // A printable first choice reads better than a control character.
                if let printable = candidates.firstIndex(where: { $0 >= 0x21 && $0 != 0x7F }), printable > 0 {
                    candidates.swapAt(0, printable)
                }
            }
            guard !candidates.isEmpty else { return nil }
            return Unicode.Scalar(candidates[n % candidates.count])
        }
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var position = 0
        var nextRepeatID = 0
        var nextAlternationID = 0

        init(scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        private var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

        mutating func parseAlternation() -> Node? {
            var branches: [Node] = []
            repeat {
                if current == "|" { position += 1 }
                guard let branch = parseSequence() else { return nil }
                branches.append(branch)
            } while current == "|"
            if branches.count == 1 { return branches[0] }
            defer { nextAlternationID += 1 }
            return .alternation(id: nextAlternationID, branches)
        }

        private mutating func parseSequence() -> Node? {
            var items: [Node] = []
            while let scalar = current, scalar != "|", scalar != ")" {
                guard var atom = parseAtom() else { return nil }
                if let (low, high) = parseQuantifier() {
                    atom = .repeated(id: nextRepeatID, atom, min: low, max: high)
                    nextRepeatID += 1
                }
                items.append(atom)
            }
            return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .sequence(items))
        }

        private mutating func parseAtom() -> Node? {
            guard let scalar = current else { return nil }
            position += 1
            switch scalar {
            case "(":
                if current == "?" {
                    position += 1
                    switch current {
                    case ":": position += 1
                    case "<" where position + 1 < scalars.count && scalars[position + 1] != "=" && scalars[position + 1] != "!":
                        while let next = current, next != ">" { position += 1 }
                        position += 1
                    default: return nil // lookaround
                    }
                }
                guard let inner = parseAlternation(), current == ")" else { return nil }
                position += 1
                return .group(inner)
            case "[": return parseClass()
            case ".": return .characters(ScalarSet(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], negated: true))
            case "^": return .start
            case "$": return .end
            case "\\":
                guard let sets = parseEscape(inClass: false) else { return nil }
                if sets.count == 1, !sets[0].negated, sets[0].ranges.count == 1, sets[0].ranges[0].count == 1,
                   let literal = Unicode.Scalar(sets[0].ranges[0].lowerBound) {
                    return .literal(literal)
                }
                return .characters(Self.combined(sets))
            case "*", "+", "?", ")": return nil
            default: return .literal(scalar)
            }
        }

        private static func combined(_ sets: [ScalarSet]) -> ScalarSet {
            sets.count == 1 ? sets[0] : ScalarSet(ranges: sets.flatMap(\.ranges), negated: false)
        }

        private mutating func parseQuantifier() -> (Int, Int?)? {
            guard let scalar = current else { return nil }
            var bounds: (Int, Int?)?
            switch scalar {
            case "*": bounds = (0, nil); position += 1
            case "+": bounds = (1, nil); position += 1
            case "?": bounds = (0, 1); position += 1
            case "{":
                var probe = position + 1
                var low = "", high = ""
                var sawComma = false
                while probe < scalars.count, scalars[probe] != "}" {
                    let character = Character(scalars[probe])
                    if character == "," { if sawComma { return nil }; sawComma = true }
                    else if character.isASCII && character.isNumber { if sawComma { high.append(character) } else { low.append(character) } }
                    else { return nil }
                    probe += 1
                }
                guard probe < scalars.count, let minimum = Int(low) else { return nil }
                position = probe + 1
                bounds = (minimum, sawComma ? Int(high) : minimum)
            default: return nil
            }
            if current == "?" { position += 1 } // lazy: same language
            return bounds
        }

        private mutating func parseClass() -> Node? {
            var negated = false
            if current == "^" { negated = true; position += 1 }
            var ranges: [ClosedRange<UInt32>] = []
            while let scalar = current, scalar != "]" {
                position += 1
                var low: UInt32
                if scalar == "\\" {
                    guard let sets = parseEscape(inClass: true) else { return nil }
                    if sets.count == 1, !sets[0].negated, sets[0].ranges.count == 1, sets[0].ranges[0].count == 1 {
                        low = sets[0].ranges[0].lowerBound
                    } else {
                        // \d, \w inside a class; a negated one (\D) is approximated by common characters.
                        for set in sets { ranges += set.negated ? Self.complementSample(set) : set.ranges }
                        continue
                    }
                } else {
                    low = scalar.value
                }
                if current == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                    position += 1
                    guard let upperScalar = current else { return nil }
                    position += 1
                    var high = upperScalar.value
                    if upperScalar == "\\" {
                        guard let sets = parseEscape(inClass: true), sets.count == 1, sets[0].ranges.count == 1 else { return nil }
                        high = sets[0].ranges[0].lowerBound
                    }
                    guard low <= high else { return nil }
                    ranges.append(low...high)
                } else {
                    ranges.append(low...low)
                }
            }
            guard current == "]" else { return nil }
            position += 1
            return .characters(ScalarSet(ranges: ranges, negated: negated))
        }

        private static func complementSample(_ set: ScalarSet) -> [ClosedRange<UInt32>] {
            "aZ0-_ .가/!".unicodeScalars.map(\.value).filter { set.contains($0) }.map { $0...$0 }
        }

        /// After a backslash: one set (a literal is a one-scalar set).
        private mutating func parseEscape(inClass: Bool) -> [ScalarSet]? {
            guard let scalar = current else { return nil }
            position += 1
            func single(_ value: UInt32) -> [ScalarSet] { [ScalarSet(ranges: [value...value], negated: false)] }
            let digits: [ClosedRange<UInt32>] = [0x30...0x39]
            let word: [ClosedRange<UInt32>] = [0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x5F...0x5F]
            let space: [ClosedRange<UInt32>] = [0x20...0x20, 0x09...0x0D, 0xA0...0xA0, 0xFEFF...0xFEFF]
            switch scalar {
            case "d": return [ScalarSet(ranges: digits, negated: false)]
            case "D": return [ScalarSet(ranges: digits, negated: true)]
            case "w": return [ScalarSet(ranges: word, negated: false)]
            case "W": return [ScalarSet(ranges: word, negated: true)]
            case "s": return [ScalarSet(ranges: space, negated: false)]
            case "S": return [ScalarSet(ranges: space, negated: true)]
            case "n": return single(0x0A)
            case "t": return single(0x09)
            case "r": return single(0x0D)
            case "f": return single(0x0C)
            case "v": return single(0x0B)
            case "0": return single(0)
            case "b": return inClass ? single(0x08) : nil
            case "B": return nil
            case "x":
                guard position + 2 <= scalars.count, let value = UInt32(String(String.UnicodeScalarView(scalars[position..<position + 2])), radix: 16) else { return nil }
                position += 2
                return single(value)
            case "u":
                if current == "{" {
                    guard let close = scalars[position...].firstIndex(of: "}"),
                          let value = UInt32(String(String.UnicodeScalarView(scalars[(position + 1)..<close])), radix: 16) else { return nil }
                    position = close + 1
                    return single(value)
                }
                guard position + 4 <= scalars.count, let value = UInt32(String(String.UnicodeScalarView(scalars[position..<position + 4])), radix: 16) else { return nil }
                position += 4
                return single(value)
            case "p", "P":
                guard current == "{", let close = scalars[position...].firstIndex(of: "}") else { return nil }
                let name = String(String.UnicodeScalarView(scalars[(position + 1)..<close]))
                position = close + 1
                let ranges = Self.propertyRanges(name)
                return [ScalarSet(ranges: ranges, negated: scalar == "P")]
            case _ where ("1"..."9").contains(scalar):
                return nil // back-reference
            default:
                return single(scalar.value)
            }
        }

        /// Representative ranges of a Unicode property: enough for examples, not a definition.
        private static func propertyRanges(_ name: String) -> [ClosedRange<UInt32>] {
            let value = name.split(separator: "=").last.map(String.init) ?? name
            switch value {
            case "L", "Letter", "Alphabetic", "Alpha": return [0x61...0x7A, 0x41...0x5A, 0xAC00...0xD7A3]
            case "Lu", "Uppercase_Letter", "Uppercase": return [0x41...0x5A]
            case "Ll", "Lowercase_Letter", "Lowercase": return [0x61...0x7A]
            case "N", "Nd", "Number", "Decimal_Number", "digit": return [0x30...0x39]
            case "Hangul", "Hang": return [0xAC00...0xD7A3]
            case "Han", "Hani": return [0x4E00...0x9FFF]
            default: return [0x61...0x7A]
            }
        }
    }
}
