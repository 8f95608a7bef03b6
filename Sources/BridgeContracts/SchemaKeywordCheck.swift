import JSONCore

/// Finds keywords a contract schema's dialect does not know. JSON Schema ignores an unknown
/// keyword, so a typo (`"maxItem": 20`) silently drops the rule it meant: lint refuses it.
///
/// Known: the keywords of the schema's dialect that the checker supports, the identifiers and
/// containers (`$schema`, `$id`, `$defs`, `definitions`, ...), and the annotations `title`,
/// `description`, `$comment`, `examples`, `default`, `deprecated`, `readOnly`, `writeOnly`, plus
/// any name starting with `x-`. Only schema positions are walked (the root, and the subschemas
/// under `properties`, `items`, `allOf`, ...): the values of `const`, `enum`, `examples` and
/// `default` are data, whatever their keys.
struct SchemaKeywordCheck {
    enum Dialect: Sendable {
        case draft4, draft6, draft7, draft2019, draft2020

        init?(metaSchemaURI: String) {
            switch metaSchemaURI {
            case "https://json-schema.org/draft/2020-12/schema": self = .draft2020
            case "https://json-schema.org/draft/2019-09/schema": self = .draft2019
            case "http://json-schema.org/draft-07/schema#": self = .draft7
            case "http://json-schema.org/draft-06/schema#": self = .draft6
            case "http://json-schema.org/draft-04/schema#": self = .draft4
            default: return nil
            }
        }

        var rank: Int {
            switch self {
            case .draft4: return 4
            case .draft6: return 6
            case .draft7: return 7
            case .draft2019: return 2019
            case .draft2020: return 2020
            }
        }

        var name: String {
            switch self {
            case .draft4: return "draft-04"
            case .draft6: return "draft-06"
            case .draft7: return "draft-07"
            case .draft2019: return "draft 2019-09"
            case .draft2020: return "draft 2020-12"
            }
        }
    }

    /// How a keyword's value holds subschemas.
    private enum Shape {
        case one, list, map, oneOrList
    }

    let dialect: Dialect

    /// Every keyword known in the dialect, sorted (the candidates of a suggestion).
    var known: [String] {
        Set(Self.keywords(in: dialect)).union(Self.annotations).sorted()
    }

    static let annotations = ["title", "description", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly"]

    /// The assertion, applicator and core keywords of a dialect, as the C checker implements them.
    static func keywords(in dialect: Dialect) -> [String] {
        let rank = dialect.rank
        var names = ["$schema", "$ref", "definitions", "type", "enum", "multipleOf", "maximum", "exclusiveMaximum",
                     "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "format", "maxItems", "minItems",
                     "uniqueItems", "maxProperties", "minProperties", "required", "allOf", "anyOf", "oneOf", "not",
                     "dependencies", "properties", "patternProperties", "additionalProperties", "items"]
        names.append(rank == 4 ? "id" : "$id")
        if rank >= 6 { names += ["const", "propertyNames", "contains"] }
        if rank >= 7 { names += ["contentEncoding", "contentMediaType", "if", "then", "else"] }
        if rank <= 2019 { names.append("additionalItems") }
        if rank >= 2019 {
            names += ["$defs", "$anchor", "$vocabulary", "maxContains", "minContains", "dependentRequired",
                      "dependentSchemas", "unevaluatedItems", "unevaluatedProperties", "contentSchema"]
        }
        if dialect == .draft2019 { names += ["$recursiveRef", "$recursiveAnchor"] }
        if dialect == .draft2020 { names += ["$dynamicRef", "$dynamicAnchor", "prefixItems"] }
        return names
    }

    /// The keywords whose values are subschemas in the dialect, and how.
    private func shape(of keyword: String) -> Shape? {
        let rank = dialect.rank
        switch keyword {
        case "additionalProperties", "not": return .one
        case "additionalItems": return rank <= 2019 ? .one : nil
        case "contains", "propertyNames": return rank >= 6 ? .one : nil
        case "if", "then", "else": return rank >= 7 ? .one : nil
        case "unevaluatedItems", "unevaluatedProperties", "contentSchema": return rank >= 2019 ? .one : nil
        case "items": return rank == 2020 ? .one : .oneOrList
        case "allOf", "anyOf", "oneOf": return .list
        case "prefixItems": return rank == 2020 ? .list : nil
        case "definitions", "properties", "patternProperties", "dependencies": return .map
        case "$defs", "dependentSchemas": return rank >= 2019 ? .map : nil
        default: return nil
        }
    }

    /// The unknown keywords of `document`, each with its JSON Pointer.
    func findings(in document: JSONValue, file: String) -> [LintFinding] {
        var findings: [LintFinding] = []
        let known = Set(known)
        walk(document, pointer: "", known: known, into: &findings, file: file, depth: 0)
        return findings
    }

    private func walk(_ schema: JSONValue, pointer: String, known: Set<String>, into findings: inout [LintFinding],
                      file: String, depth: Int) {
        // Deeper than any contract nests; the meta-schema check reports what is wrong down there.
        guard depth < 64, let object = schema.objectValue else { return }
        for (keyword, value) in object {
            let at = pointer + "/" + JSONPointer.escape(keyword)
            if !known.contains(keyword) && !keyword.hasPrefix("x-") {
                findings.append(LintFinding(file: file, pointer: at, message: unknownMessage(keyword)))
                continue
            }
            switch shape(of: keyword) {
            case .one:
                walk(value, pointer: at, known: known, into: &findings, file: file, depth: depth + 1)
            case .list:
                for (index, member) in (value.arrayValue ?? []).enumerated() {
                    walk(member, pointer: at + "/\(index)", known: known, into: &findings, file: file, depth: depth + 1)
                }
            case .oneOrList:
                if let members = value.arrayValue {
                    for (index, member) in members.enumerated() {
                        walk(member, pointer: at + "/\(index)", known: known, into: &findings, file: file, depth: depth + 1)
                    }
                } else {
                    walk(value, pointer: at, known: known, into: &findings, file: file, depth: depth + 1)
                }
            case .map:
                // `dependencies` mixes subschemas and name lists: only objects are schemas.
                for (name, member) in value.objectValue ?? JSONObject() {
                    walk(member, pointer: at + "/" + JSONPointer.escape(name), known: known, into: &findings,
                         file: file, depth: depth + 1)
                }
            case nil:
                continue
            }
        }
    }

    private func unknownMessage(_ keyword: String) -> String {
        var message = "unknown keyword \"\(keyword)\" for \(dialect.name): a JSON Schema checker ignores it, so the rule it meant is not applied"
        if let nearest = Self.nearest(to: keyword, among: known) {
            message += " (did you mean \"\(nearest)\"?)"
        }
        return message + "; annotations of your own start with \"x-\""
    }

    /// The candidate closest to `word` by edit distance, when it is close enough to be a typo of
    /// it: at most a third of the word's length, and at least 1, different (ties: the first in order).
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit && distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance: insertions, deletions and substitutions of one character each.
    static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left), b = Array(right)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
