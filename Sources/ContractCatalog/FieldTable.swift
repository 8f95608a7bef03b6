import BridgeContracts
import JSONCore

/// One row of an action page's field table: a field of the message, in plain words.
struct FieldRow: Equatable {
    /// "payload.slug".
    let path: String
    let type: String
    let required: Bool
    /// Constraints in plain English, each HTML-safe text (escaped when the page is written).
    let constraints: [String]
    let description: String?
    /// An anchor on the index this field is explained at (the campaign rules), if any.
    let seeAlso: String?
}

/// Reads the fields of a message out of its schema for people: follows `$ref` (to `$defs` and to
/// other schemas of the contract set, as the envelope is reached) and `allOf`, merges what applies
/// to the same field, and describes each keyword in words. Keywords it has no words for are shown
/// as they are written, never left out.
struct FieldTable {
    let contracts: ContractSet
    /// The campaign schema's file: its field is shown as one row pointing at the campaign rules.
    let campaignFile: String?

    /// A schema seen through its references: the properties of every part, in order of first
    /// appearance (the referenced envelope's first), and every other keyword with where it came from.
    struct View {
        var properties: [(name: String, parts: [(schema: JSONValue, file: String)])] = []
        var required: Set<String> = []
        var keywords: [(key: String, value: JSONValue)] = []
        var description: String?
        var files: Set<String> = []
    }

    static let annotations: Set<String> = ["$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly", "$defs", "$anchor"]

    func rows(file: String) -> [FieldRow] {
        guard let schema = document(file) else { return [] }
        var rows: [FieldRow] = []
        collect(view([(schema, file)]), prefix: "", into: &rows, depth: 0)
        return rows
    }

    private func collect(_ view: View, prefix: String, into rows: inout [FieldRow], depth: Int) {
        for (name, parts) in view.properties {
            let path = prefix.isEmpty ? name : prefix + "." + name
            let child = self.view(parts)
            let required = view.required.contains(name)
            if let campaignFile, child.files.contains(campaignFile) {
                rows.append(FieldRow(path: path, type: "object", required: required,
                                     constraints: ["the campaign fields; each follows the campaign rules"],
                                     description: child.description, seeAlso: "campaign-rules"))
                continue
            }
            rows.append(FieldRow(path: path, type: Self.typeWords(child), required: required,
                                 constraints: Self.constraintWords(child), description: child.description, seeAlso: nil))
            if depth < 4 && !child.properties.isEmpty { collect(child, prefix: path, into: &rows, depth: depth + 1) }
        }
    }

    /// The merged view of schemas that all apply to one place.
    func view(_ parts: [(schema: JSONValue, file: String)]) -> View {
        var view = View()
        var pending = parts
        var seen = 0
        while !pending.isEmpty && seen < 64 {
            let (schema, file) = pending.removeFirst()
            seen += 1
            view.files.insert(file)
            guard let object = schema.objectValue else { continue }
            if view.description == nil { view.description = object["description"]?.stringValue }
            // The referenced schema first, so the envelope's fields come before the action's.
            var referenced: [(JSONValue, String)] = []
            if let reference = object["$ref"]?.stringValue, let target = resolve(reference, from: file) { referenced.append(target) }
            for member in object["allOf"]?.arrayValue ?? [] { referenced.append((member, file)) }
            for target in referenced {
                let inner = self.view([target])
                merge(inner, into: &view)
            }
            for (name, property) in object["properties"]?.objectValue ?? JSONObject() {
                if let index = view.properties.firstIndex(where: { $0.name == name }) {
                    view.properties[index].parts.append((property, file))
                } else {
                    view.properties.append((name, [(property, file)]))
                }
            }
            for name in object["required"]?.arrayValue ?? [] { if let name = name.stringValue { view.required.insert(name) } }
            for (key, value) in object where !Self.annotations.contains(key) && !["$ref", "allOf", "properties", "required"].contains(key) {
                view.keywords.append((key, value))
            }
        }
        return view
    }

    private func merge(_ inner: View, into view: inout View) {
        for (name, parts) in inner.properties {
            if let index = view.properties.firstIndex(where: { $0.name == name }) {
                view.properties[index].parts += parts
            } else {
                view.properties.append((name, parts))
            }
        }
        view.required.formUnion(inner.required)
        view.keywords += inner.keywords
        view.files.formUnion(inner.files)
        if view.description == nil { view.description = inner.description }
    }

    /// A `$ref` from `file`: "#/$defs/x", "other.json", "other.json#/$defs/x", or an absolute URI.
    func resolve(_ reference: String, from file: String) -> (JSONValue, String)? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        var targetFile = file
        if let document = parts.first, !document.isEmpty {
            let base = contracts.schemaURI(file: file)
            let absolute: String
            if document.contains("://") {
                absolute = String(document)
            } else if let slash = base.lastIndex(of: "/") {
                absolute = String(base[...slash]) + document
            } else {
                absolute = String(document)
            }
            guard let found = contracts.schemas.first(where: { contracts.schemaURI(file: $0.file) == absolute }) else { return nil }
            targetFile = found.file
        }
        guard let root = document(targetFile) else { return nil }
        let pointer = parts.count > 1 ? String(parts[1]) : ""
        guard let target = root.value(at: pointer) else { return nil }
        return (target, targetFile)
    }

    /// A schema of the contract set, or a built-in event's (named "builtin/...").
    private func document(_ file: String) -> JSONValue? {
        contracts.schema(file: file) ?? BuiltInEvents.schema(file: file)
    }

    // MARK: words

    static func typeWords(_ view: View) -> String {
        var types: [String] = []
        for (key, value) in view.keywords where key == "type" {
            if let name = value.stringValue { types.append(name) }
            for name in value.arrayValue ?? [] { if let name = name.stringValue { types.append(name) } }
        }
        if types.isEmpty, let constant = view.keywords.first(where: { $0.key == "const" })?.value {
            return kind(of: constant)
        }
        if types.isEmpty, let values = view.keywords.first(where: { $0.key == "enum" })?.value.arrayValue, let first = values.first {
            let kinds = Set(values.map(kind))
            return kinds.count == 1 ? kind(of: first) : "any"
        }
        var unique: [String] = []
        for type in types where !unique.contains(type) { unique.append(type) }
        return unique.isEmpty ? "any" : unique.joined(separator: " or ")
    }

    static func kind(of value: JSONValue) -> String {
        switch value {
        case .string: return "string"
        case .integer: return "integer"
        case .number: return "number"
        case .bool: return "boolean"
        case .null: return "null"
        case .array: return "array"
        case .object: return "object"
        }
    }

    static func constraintWords(_ view: View) -> [String] {
        var words: [String] = []
        var handled: Set<String> = ["type"]
        let keywords = Dictionary(view.keywords.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        if let constant = keywords["const"] {
            words.append("always " + constant.serialized())
            handled.insert("const")
        }
        if let values = keywords["enum"]?.arrayValue {
            words.append("one of: " + values.map { $0.serialized() }.joined(separator: ", "))
            handled.insert("enum")
        }
        let minLength = keywords["minLength"]?.integerValue
        let maxLength = keywords["maxLength"]?.integerValue
        if let length = range(minLength, maxLength, unit: "character") { words.append(length) }
        handled.formUnion(["minLength", "maxLength"])
        if let pattern = keywords["pattern"]?.stringValue {
            words.append("matches " + pattern + (PatternWords.summary(pattern).map { " (\($0))" } ?? ""))
            handled.insert("pattern")
        }
        let minimum = keywords["minimum"]?.serializedNumber
        let maximum = keywords["maximum"]?.serializedNumber
        switch (minimum, maximum) {
        case (let low?, let high?): words.append("\(low) to \(high)")
        case (let low?, nil): words.append("at least \(low)")
        case (nil, let high?): words.append("at most \(high)")
        case (nil, nil): break
        }
        if let low = keywords["exclusiveMinimum"]?.serializedNumber { words.append("greater than \(low)") }
        if let high = keywords["exclusiveMaximum"]?.serializedNumber { words.append("less than \(high)") }
        if let step = keywords["multipleOf"]?.serializedNumber { words.append("a multiple of \(step)") }
        handled.formUnion(["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"])
        if let format = keywords["format"]?.stringValue {
            words.append(format == "date-time" ? "a date and time (RFC 3339, e.g. 2026-11-29T12:00:00Z)" : "format " + format)
            handled.insert("format")
        }
        if let items = range(keywords["minItems"]?.integerValue, keywords["maxItems"]?.integerValue, unit: "item") { words.append(items) }
        handled.formUnion(["minItems", "maxItems"])
        if keywords["uniqueItems"] == .bool(true) { words.append("no item twice") }
        handled.insert("uniqueItems")
        if keywords["additionalProperties"] == .bool(false) || keywords["unevaluatedProperties"] == .bool(false) {
            words.append("no other fields")
        }
        handled.formUnion(["additionalProperties", "unevaluatedProperties"])
        // Whatever has no words yet is shown as written.
        for (key, value) in view.keywords where !handled.contains(key) {
            words.append(key + ": " + value.serialized())
            handled.insert(key)
        }
        return words
    }

    static func range(_ low: Int64?, _ high: Int64?, unit: String) -> String? {
        func plural(_ count: Int64) -> String { count == 1 ? unit : unit + "s" }
        switch (low, high) {
        case (let low?, let high?) where low == high: return "exactly \(low) \(plural(low))"
        case (let low?, let high?) where low > 0: return "\(low) to \(high) \(plural(high))"
        case (_, let high?): return "at most \(high) \(plural(high))"
        case (let low?, nil) where low > 0: return "at least \(low) \(plural(low))"
        default: return nil
        }
    }
}

extension JSONValue {
    /// A number as JSON writes it ("1", "2.5"), or nil for anything else.
    fileprivate var serializedNumber: String? {
        switch self {
        case .integer, .number: return serialized()
        default: return nil
        }
    }
}
