import BridgeContracts
import JSONCore

/// A schema the TypeScript converter cannot turn into a type: says which file, where, and why.
public struct CodegenError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let pointer: String
    public let message: String

    public init(file: String, pointer: String = "", message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        pointer.isEmpty ? "\(file): \(message)" : "\(file)#\(pointer): \(message)"
    }
}

/// A place inside the contract set's schemas: a file and a JSON Pointer into it.
struct SchemaLocation: Hashable, Sendable {
    let file: String
    let pointer: String

    func appending(_ tokens: String...) -> SchemaLocation {
        SchemaLocation(file: file, pointer: pointer + JSONPointer.join(tokens))
    }
}

/// Converts JSON Schemas into TypeScript type expressions: a type that admits every valid value
/// (and, where TypeScript cannot say more, some invalid ones: the generated validators and the
/// app decide those).
///
/// Shapes: `type` (a name or a list of names), `enum` and `const` (literal types, objects and
/// arrays included), `properties`, `required`, `additionalProperties` (`false` closes an object;
/// `true`, a schema, or `patternProperties` add an `[key: string]: unknown` index signature),
/// `items` (one schema; with `prefixItems` the array is `unknown[]`), `$ref` to a whole document or
/// to a JSON Pointer inside one of the contract set's schemas (with sibling keywords it becomes an
/// intersection), `allOf` (an intersection), `anyOf` and `oneOf` (a union), and boolean schemas.
/// Keywords that only narrow values go into JSDoc tags on the property: `pattern`,
/// `minLength`/`maxLength` (code points), `minimum`/`maximum`, `exclusiveMinimum`/
/// `exclusiveMaximum`, `multipleOf`, `format`, array and object size limits, `uniqueItems`,
/// `contains`, `not`, `if`/`then`/`else`, `dependentRequired`/`dependentSchemas`/`dependencies`,
/// `propertyNames`, integer-ness; `title`/`description` become the doc text.
///
/// Not covered, and rejected with an error naming the keyword and its location rather than
/// silently producing a wrong type: `unevaluated*`, `$dynamicRef`/`$recursiveRef`, anchors
/// (`$ref: "#name"`), nested `$id`, refs outside the contract set, and any keyword this
/// converter does not know.
struct TypeScriptSchemaConverter {
    /// Schema file name -> document.
    let documents: [String: JSONValue]
    /// Schemas that have a TypeScript name of their own: a $ref to them uses the name.
    let namedLocations: [SchemaLocation: String]

    private static let annotationKeywords: Set<String> = [
        "$schema", "$id", "$comment", "$defs", "definitions", "title", "description", "default",
        "examples", "deprecated", "readOnly", "writeOnly",
    ]
    /// Keywords that narrow values without changing the type's shape: they go into JSDoc.
    private static let constraintKeywords: [String] = [
        "pattern", "format", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "minProperties",
        "maxProperties", "contains", "minContains", "maxContains", "not", "if", "then", "else",
        "dependentRequired", "dependentSchemas", "dependencies", "propertyNames",
    ]
    private static let shapeKeywords: Set<String> = [
        "type", "enum", "const", "properties", "required", "additionalProperties", "patternProperties", "items",
        "prefixItems", "$ref", "allOf", "anyOf", "oneOf",
    ]

    init(contracts: ContractSet, namedLocations: [SchemaLocation: String] = [:]) {
        var documents: [String: JSONValue] = [:]
        for (file, document) in contracts.schemas { documents[file] = document }
        // The built-in events' schemas, under their BuiltInEvents names ("builtin/...").
        for contract in BuiltInEvents.all.flatMap(\.versions) {
            documents[contract.schema] = BuiltInEvents.schema(file: contract.schema)
        }
        self.documents = documents
        self.namedLocations = namedLocations
    }

    /// Where the `$ref` of the schema at `pointer` leads, when that schema is a reference.
    func referenceTarget(file: String, pointer: String) throws(CodegenError) -> SchemaLocation? {
        let location = SchemaLocation(file: file, pointer: pointer)
        guard let reference = try lookup(location)["$ref"]?.stringValue else { return nil }
        return try resolve(reference, from: location)
    }

    /// A TypeScript type and the doc lines that describe the value beyond its type.
    struct Rendered {
        var type: String
        var docs: [String]
    }

    /// The document at `file`, as a type (for `export type Name = ...`).
    func render(file: String, indent: String = "") throws(CodegenError) -> Rendered {
        let location = SchemaLocation(file: file, pointer: "")
        return try render(try lookup(location), at: location, indent: indent, visiting: [])
    }

    /// The schema at a pointer inside `file` (resolving a `$ref` found there).
    func render(file: String, pointer: String, indent: String = "") throws(CodegenError) -> Rendered {
        let location = SchemaLocation(file: file, pointer: pointer)
        return try render(try lookup(location), at: location, indent: indent, visiting: [])
    }

    private func lookup(_ location: SchemaLocation) throws(CodegenError) -> JSONValue {
        guard let document = documents[location.file] else {
            throw CodegenError(file: location.file, message: "no such schema in the contract set")
        }
        guard let value = document.value(at: location.pointer) else {
            throw CodegenError(file: location.file, pointer: location.pointer, message: "nothing at this JSON Pointer")
        }
        return value
    }

    private func render(
        _ schema: JSONValue, at location: SchemaLocation, indent: String, visiting: [SchemaLocation]
    ) throws(CodegenError) -> Rendered {
        if let flag = schema.boolValue { return Rendered(type: flag ? "unknown" : "never", docs: []) }
        guard let object = schema.objectValue else {
            throw CodegenError(file: location.file, pointer: location.pointer, message: "a schema is an object or a boolean")
        }
        for (keyword, _) in object {
            if Self.shapeKeywords.contains(keyword) || Self.annotationKeywords.contains(keyword)
                || Self.constraintKeywords.contains(keyword) { continue }
            throw CodegenError(
                file: location.file, pointer: location.pointer + "/" + JSONPointer.escape(keyword),
                message: "keyword \"\(keyword)\" is not supported by the TypeScript generator (it may change the type's shape); "
                    + "supported: \(Self.shapeKeywords.sorted().joined(separator: ", ")) and value constraints")
        }
        if object["$id"] != nil && !location.pointer.isEmpty {
            throw CodegenError(file: location.file, pointer: location.pointer + "/$id", message: "a nested $id is not supported")
        }

        var docs = Self.ownDocs(object)
        var parts: [String] = []
        var refDocs: [String] = []
        if let ref = object["$ref"] {
            guard let text = ref.stringValue else {
                throw CodegenError(file: location.file, pointer: location.pointer + "/$ref", message: "$ref must be a string")
            }
            let target = try resolve(text, from: location)
            if let name = namedLocations[target] {
                parts.append(name)
            } else {
                if visiting.contains(target) || target == location {
                    // A recursive schema: the inner occurrence is typed unknown (the validators check it).
                    parts.append("unknown")
                } else {
                    let rendered = try render(try lookup(target), at: target, indent: indent, visiting: visiting + [location, target])
                    parts.append(rendered.type)
                    refDocs = rendered.docs
                }
            }
        }
        let combined = object["allOf"] != nil || object["anyOf"] != nil || object["oneOf"] != nil
        if let local = try localType(object, at: location, indent: indent, visiting: visiting, partOfIntersection: !parts.isEmpty || combined) {
            parts.append(local)
        }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            guard let value = object[keyword] else { continue }
            guard let branches = value.arrayValue, !branches.isEmpty else {
                throw CodegenError(file: location.file, pointer: location.pointer + "/" + keyword, message: "\(keyword) must be a non-empty array of schemas")
            }
            var types: [String] = []
            for index in branches.indices {
                let branch = location.appending(keyword, String(index))
                let rendered = try render(branches[index], at: branch, indent: indent, visiting: visiting)
                if !types.contains(rendered.type) { types.append(rendered.type) }
            }
            if keyword == "allOf" {
                parts += types
            } else {
                parts.append(types.count == 1 ? types[0] : types.map { Self.isTopLevelUnion($0) ? "(\($0))" : $0 }.joined(separator: " | "))
            }
        }
        docs = refDocs.filter { !docs.contains($0) } + docs
        switch parts.count {
        case 0: return Rendered(type: "unknown", docs: docs)
        case 1: return Rendered(type: parts[0], docs: docs)
        default: return Rendered(type: parts.map { Self.isTopLevelUnion($0) ? "(\($0))" : $0 }.joined(separator: " & "), docs: docs)
        }
    }

    /// Whether a type expression is a union outside any braces or string literal, so it needs
    /// parentheses inside an intersection.
    static func isTopLevelUnion(_ type: String) -> Bool {
        var depth = 0
        var inString = false
        var escaped = false
        for character in type {
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{", "(", "[", "<": depth += 1
            case "}", ")", "]", ">": depth -= 1
            case "|" where depth == 0: return true
            default: break
            }
        }
        return false
    }

    /// The type the schema's own keywords (not its $ref) describe, or nil when they describe none.
    private func localType(
        _ object: JSONObject, at location: SchemaLocation, indent: String, visiting: [SchemaLocation], partOfIntersection: Bool
    ) throws(CodegenError) -> String? {
        if let constant = object["const"] {
            return try literal(constant, at: location.appending("const"))
        }
        if let choices = object["enum"] {
            guard let items = choices.arrayValue, !items.isEmpty else {
                throw CodegenError(file: location.file, pointer: location.pointer + "/enum", message: "enum must be a non-empty array")
            }
            var literals: [String] = []
            for (index, item) in items.enumerated() {
                let text = try literal(item, at: location.appending("enum", String(index)))
                if !literals.contains(text) { literals.append(text) }
            }
            return literals.joined(separator: " | ")
        }
        let typeNames = try declaredTypes(object, at: location)
        let looksLikeObject = object["properties"] != nil || object["required"] != nil || object["additionalProperties"] != nil
            || object["patternProperties"] != nil
        if typeNames.isEmpty {
            // Object keywords without "type" (as in an action schema next to its envelope $ref).
            return looksLikeObject ? try objectType(object, at: location, indent: indent, visiting: visiting, partOfIntersection: partOfIntersection) : nil
        }
        var alternatives: [String] = []
        for name in typeNames {
            switch name {
            case "string": alternatives.append("string")
            case "integer", "number": if !alternatives.contains("number") { alternatives.append("number") }
            case "boolean": alternatives.append("boolean")
            case "null": alternatives.append("null")
            case "object": alternatives.append(try objectType(object, at: location, indent: indent, visiting: visiting, partOfIntersection: partOfIntersection))
            case "array": alternatives.append(try arrayType(object, at: location, indent: indent, visiting: visiting))
            default:
                throw CodegenError(file: location.file, pointer: location.pointer + "/type", message: "unknown type \"\(name)\"")
            }
        }
        return alternatives.joined(separator: " | ")
    }

    private func declaredTypes(_ object: JSONObject, at location: SchemaLocation) throws(CodegenError) -> [String] {
        guard let type = object["type"] else { return [] }
        if let single = type.stringValue { return [single] }
        if let list = type.arrayValue {
            var names: [String] = []
            for item in list {
                guard let name = item.stringValue else {
                    throw CodegenError(file: location.file, pointer: location.pointer + "/type", message: "type must be a string or an array of strings")
                }
                names.append(name)
            }
            return names
        }
        throw CodegenError(file: location.file, pointer: location.pointer + "/type", message: "type must be a string or an array of strings")
    }

    private func objectType(
        _ object: JSONObject, at location: SchemaLocation, indent: String, visiting: [SchemaLocation], partOfIntersection: Bool
    ) throws(CodegenError) -> String {
        var required: [String] = []
        if let list = object["required"] {
            guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw CodegenError(file: location.file, pointer: location.pointer + "/required", message: "required must be an array of strings")
            }
            required = items.compactMap(\.stringValue)
        }
        // additionalProperties false closes the object, unless patternProperties lets more in; a
        // schema there types the extra members as unknown (the validators check them).
        let closed = object["additionalProperties"]?.boolValue == false && object["patternProperties"] == nil
        var properties: [(String, JSONValue)] = []
        if let declared = object["properties"] {
            guard let members = declared.objectValue else {
                throw CodegenError(file: location.file, pointer: location.pointer + "/properties", message: "properties must be an object")
            }
            properties = members.map { ($0.key, $0.value) }
        }
        let inner = indent + "  "
        var lines: [String] = []
        for (name, propertySchema) in properties {
            let propertyLocation = location.appending("properties", name)
            let rendered = try render(propertySchema, at: propertyLocation, indent: inner, visiting: visiting)
            lines += DocComment.lines(rendered.docs, indent: inner)
            let optional = required.contains(name) ? "" : "?"
            lines.append("\(inner)\(TypeScriptNames.propertyKey(name))\(optional): \(rendered.type);")
        }
        // A required name with no property schema here (e.g. an action schema requiring the
        // envelope's "id"): intersected with the envelope's `id?: string` it becomes `id: string`.
        for name in required where !properties.contains(where: { $0.0 == name }) {
            lines.append("\(inner)\(TypeScriptNames.propertyKey(name)): unknown;")
        }
        // Beside a $ref the referenced type decides about extra members; adding an index
        // signature here would open a closed envelope.
        if !closed && !partOfIntersection {
            lines.append("\(inner)[key: string]: unknown;")
        }
        if lines.isEmpty { return "{}" }
        return "{\n" + lines.joined(separator: "\n") + "\n\(indent)}"
    }

    private func arrayType(_ object: JSONObject, at location: SchemaLocation, indent: String, visiting: [SchemaLocation]) throws(CodegenError) -> String {
        guard let items = object["items"], object["prefixItems"] == nil else { return "unknown[]" }
        if items.arrayValue != nil {
            throw CodegenError(file: location.file, pointer: location.pointer + "/items", message: "items as an array (tuple form) is not supported; use one schema")
        }
        let rendered = try render(items, at: location.appending("items"), indent: indent, visiting: visiting)
        let type = rendered.type
        return type.contains(" ") || type.contains("\n") ? "Array<\(type)>" : "\(type)[]"
    }

    private func literal(_ value: JSONValue, at location: SchemaLocation) throws(CodegenError) -> String {
        switch value {
        case .string, .integer, .bool, .null: return value.serialized(escapeForScript: true)
        case .number(let real): return real.isFinite ? value.serialized() : "number"
        case .array(let items):
            var elements: [String] = []
            for (index, item) in items.enumerated() { elements.append(try literal(item, at: location.appending(String(index)))) }
            return "[" + elements.joined(separator: ", ") + "]"
        case .object(let members):
            var fields: [String] = []
            for (key, item) in members {
                fields.append(TypeScriptNames.propertyKey(key) + ": " + (try literal(item, at: location.appending(key))))
            }
            return fields.isEmpty ? "{}" : "{ " + fields.joined(separator: "; ") + " }"
        }
    }

    /// The keywords that apply at a location, following `$ref` chains: the referring schema's own
    /// keywords win over the referenced ones (used to read a field's constraints for the shim).
    func effectiveKeywords(file: String, pointer: String) throws(CodegenError) -> JSONObject {
        var location = SchemaLocation(file: file, pointer: pointer)
        var merged = JSONObject()
        var seen: Set<SchemaLocation> = []
        while true {
            guard seen.insert(location).inserted else {
                throw CodegenError(file: location.file, pointer: location.pointer, message: "$ref cycle")
            }
            guard let object = try lookup(location).objectValue else { return merged }
            for (keyword, value) in object where merged[keyword] == nil && keyword != "$ref" {
                merged[keyword] = value
            }
            guard let reference = object["$ref"]?.stringValue else { return merged }
            location = try resolve(reference, from: location)
        }
    }

    /// Resolves a `$ref` against the schema's document: "other.json", "other.json#/$defs/x",
    /// "#/$defs/x", or an absolute URI equal to a document's `$id`.
    func resolve(_ reference: String, from location: SchemaLocation) throws(CodegenError) -> SchemaLocation {
        let hash = reference.firstIndex(of: "#")
        let documentPart = hash.map { String(reference[..<$0]) } ?? reference
        let fragment = hash.map { String(reference[reference.index(after: $0)...]) } ?? ""
        guard fragment.isEmpty || fragment.hasPrefix("/") else {
            throw CodegenError(file: location.file, pointer: location.pointer + "/$ref", message: "anchor references (\"#\(fragment)\") are not supported")
        }
        guard let pointer = fragment.removingPercentEncodingForPointer() else {
            throw CodegenError(file: location.file, pointer: location.pointer + "/$ref", message: "bad percent-encoding in $ref \"\(reference)\"")
        }
        var file = location.file
        if !documentPart.isEmpty {
            guard let found = documentFile(for: documentPart, relativeTo: location.file) else {
                throw CodegenError(file: location.file, pointer: location.pointer + "/$ref", message: "$ref \"\(reference)\" is not a schema of this contract set")
            }
            file = found
        }
        guard documents[file]?.value(at: pointer) != nil else {
            throw CodegenError(file: location.file, pointer: location.pointer + "/$ref", message: "$ref \"\(reference)\" points at nothing")
        }
        return SchemaLocation(file: file, pointer: pointer)
    }

    private func documentFile(for reference: String, relativeTo file: String) -> String? {
        var absolute = reference
        if !reference.contains("://"), let base = documents[file]?["$id"]?.stringValue, let slash = base.lastIndex(of: "/") {
            absolute = String(base[...slash]) + reference
        }
        for name in documents.keys.sorted() where documents[name]?["$id"]?.stringValue == absolute {
            return name
        }
        return documents[reference] != nil ? reference : nil
    }

    /// Doc lines from a schema's own annotations and constraints.
    private static func ownDocs(_ object: JSONObject) -> [String] {
        var lines: [String] = []
        if let description = object["description"]?.stringValue {
            lines.append(description)
        } else if let title = object["title"]?.stringValue {
            lines.append(title)
        }
        if object["type"]?.stringValue == "integer" { lines.append("@integer") }
        for keyword in constraintKeywords {
            guard let value = object[keyword] else { continue }
            let text = value.stringValue ?? value.serialized()
            switch keyword {
            case "minLength", "maxLength": lines.append("@\(keyword) \(text) (Unicode code points)")
            default: lines.append("@\(keyword) \(text)")
            }
        }
        if object["deprecated"]?.boolValue == true { lines.append("@deprecated") }
        return lines
    }
}

extension String {
    /// Percent-decoding for the fragment of a `$ref` (RFC 6901 section 6); nil when malformed.
    fileprivate func removingPercentEncodingForPointer() -> String? {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
