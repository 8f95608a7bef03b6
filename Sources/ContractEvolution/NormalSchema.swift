import SchemaCheck
import JSONCore

/// The kinds of JSON value a schema can accept, split so that set operations are exact:
/// `integer` is the whole numbers, `fraction` the other numbers (JSON Schema's "number" is both).
enum TypeAtom: String, Sendable, CaseIterable, Comparable {
    case null, boolean, integer, fraction, string, array, object

    static func < (lhs: TypeAtom, rhs: TypeAtom) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The atoms a `type` keyword name stands for.
    static func atoms(ofTypeName name: String) -> Set<TypeAtom>? {
        switch name {
        case "null": return [.null]
        case "boolean": return [.boolean]
        case "integer": return [.integer]
        case "number": return [.integer, .fraction]
        case "string": return [.string]
        case "array": return [.array]
        case "object": return [.object]
        default: return nil
        }
    }

    static func of(_ value: JSONValue) -> TypeAtom {
        switch value {
        case .null: return .null
        case .bool: return .boolean
        case .integer: return .integer
        case .number: return value.integerValue != nil ? .integer : .fraction
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// JSON Schema's words for a set of atoms, e.g. "number", "string or null".
    static func describe(_ atoms: Set<TypeAtom>) -> String {
        if atoms.isEmpty { return "nothing" }
        var names: [String] = []
        let readingOrder: [TypeAtom] = [.string, .integer, .fraction, .boolean, .array, .object, .null]
        for atom in readingOrder where atoms.contains(atom) {
            switch atom {
            case .integer: names.append(atoms.contains(.fraction) ? "number" : "integer")
            case .fraction: if !atoms.contains(.integer) { names.append("non-integer number") }
            default: names.append(atom.rawValue)
            }
        }
        return names.count <= 2 ? names.joined(separator: " or ")
            : names.dropLast().joined(separator: ", ") + " or " + names.last!
    }
}

/// A recursive member stored out of line, so `NormalSchema` can hold schemas of its own type
/// and stay a value.
struct Child: Sendable, Equatable {
    private let storage: [NormalSchema]
    init(_ schema: NormalSchema) { storage = [schema] }
    var schema: NormalSchema { storage[0] }
}

/// A named subschema: a property (name) or a pattern property (pattern).
struct NamedSchema: Sendable, Equatable {
    var name: String
    var schema: NormalSchema
}

/// A schema after `$ref` was followed and `allOf` merged where that is exact: one set of
/// constraints per keyword family, so two schemas that accept the same messages through
/// different refactorings look the same. What could not be merged stays as applicators.
/// The normal form mirrors the instance: `properties/x` is member x, `items` are items.
struct NormalSchema: Sendable, Equatable {
    /// nil: any type. Empty: nothing is accepted (`false`, or contradictory constraints).
    var types: Set<TypeAtom>?
    /// The types came from merging `anyOf`/`oneOf` branches (a null branch, typically).
    var typesFromBranches = false
    /// `enum`/`const`: the only values accepted (canonical numbers), nil when unrestricted.
    var values: [JSONValue]?
    var valuesFromConst = false

    // Strings
    var minLength: Int?
    var maxLength: Int?
    /// Every pattern must match (merged from several places).
    var patterns: [String] = []
    var formats: [String] = []

    // Numbers
    var minimum: Double?
    var exclusiveMinimum: Double?
    var maximum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: [Double] = []

    // Arrays
    var prefixItems: [NormalSchema] = []
    /// Items after the prefix; nil accepts anything.
    var items: Child?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false

    // Objects
    var properties: [NamedSchema] = []
    var required: [String] = []
    /// Members that no property or pattern names; nil: open (anything).
    var additional: Child?
    /// Which keyword closed the object, for messages.
    var additionalFromUnevaluated = false
    var patternProperties: [NamedSchema] = []
    var propertyNames: Child?
    var minProperties: Int?
    var maxProperties: Int?
    var dependentRequired: [String: [String]] = [:]

    // What stays an applicator
    var anyOf: [[NormalSchema]] = []
    var oneOf: [[NormalSchema]] = []
    var not: [NormalSchema] = []
    /// `allOf` members that could not be merged exactly.
    var allOf: [NormalSchema] = []
    /// Assertion keywords this engine does not model (if/then/else, dependentSchemas, contains,
    /// unevaluatedItems, $dynamicRef ...), as written; compared by equality.
    var other: [String: JSONValue] = [:]
    /// A `$ref` back into a schema that is being expanded (recursion), by its URI.
    var recursiveReference: String?

    /// title, description, default, examples, deprecated, $comment ...: no effect on validation.
    var annotations: [String: JSONValue] = [:]
    /// The schema document (base URI) this part was written in, when all of it comes from one:
    /// a difference in the envelope shows up in every action, and is reported once, for the envelope.
    var source: String? {
        get { provenance.uri }
        set { provenance.uri = newValue }
    }
    private var provenance = Provenance()

    static let anything = NormalSchema()
    static var nothing: NormalSchema {
        var schema = NormalSchema()
        schema.types = []
        return schema
    }

    var acceptsNothing: Bool { effectiveTypes.isEmpty }

    /// Accepts every value: no constraint at all.
    var acceptsEverything: Bool { withoutAnnotations == NormalSchema.anything }

    /// The types a value may have, with `enum`/`const` taken into account.
    var effectiveTypes: Set<TypeAtom> {
        var atoms = types ?? Set(TypeAtom.allCases)
        if let values { atoms.formIntersection(Set(values.map(TypeAtom.of))) }
        return atoms
    }

    func property(_ name: String) -> NormalSchema? {
        properties.first { $0.name == name }?.schema
    }

    var propertyNamesList: [String] { properties.map(\.name) }

    /// The schema of item `index` (prefixItems, then items).
    func itemSchema(at index: Int) -> NormalSchema {
        index < prefixItems.count ? prefixItems[index] : (items?.schema ?? .anything)
    }

    /// The same schema with every annotation removed, recursively: what validation sees.
    var withoutAnnotations: NormalSchema {
        var copy = self
        copy.annotations = [:]
        copy.typesFromBranches = false
        copy.valuesFromConst = false
        copy.additionalFromUnevaluated = false
        copy.prefixItems = prefixItems.map(\.withoutAnnotations)
        copy.items = items.map { Child($0.schema.withoutAnnotations) }
        copy.properties = properties.map { NamedSchema(name: $0.name, schema: $0.schema.withoutAnnotations) }
        copy.additional = additional.map { Child($0.schema.withoutAnnotations) }
        copy.patternProperties = patternProperties.map { NamedSchema(name: $0.name, schema: $0.schema.withoutAnnotations) }
        copy.propertyNames = propertyNames.map { Child($0.schema.withoutAnnotations) }
        copy.anyOf = anyOf.map { $0.map(\.withoutAnnotations) }
        copy.oneOf = oneOf.map { $0.map(\.withoutAnnotations) }
        copy.not = not.map(\.withoutAnnotations)
        copy.allOf = allOf.map(\.withoutAnnotations)
        return copy
    }

    /// Whether two schemas have the same constraints (annotations aside).
    func sameConstraints(as other: NormalSchema) -> Bool {
        withoutAnnotations == other.withoutAnnotations
    }

    /// The subschema a member or item of an instance is checked against, following the
    /// instance path (nil when this engine cannot tell, e.g. a name only a pattern matches).
    func child(for token: PathToken, patternMatches: (String, String) -> Bool) -> NormalSchema {
        switch token {
        case .key(let name):
            if let schema = property(name) { return schema }
            if let pattern = patternProperties.first(where: { patternMatches($0.name, name) }) { return pattern.schema }
            return additional?.schema ?? .anything
        case .index(let index):
            return itemSchema(at: index)
        }
    }
}

/// Where a schema part was written. It never makes two schemas different: equality is about
/// what they accept and say.
struct Provenance: Sendable, Equatable {
    var uri: String?

    static func == (_: Provenance, _: Provenance) -> Bool { true }
}

/// One step of an instance path.
enum PathToken: Sendable, Equatable, Hashable {
    case key(String)
    case index(Int)

    static func pointer(_ path: [PathToken]) -> String {
        path.map {
            switch $0 {
            case .key(let name): return "/" + JSONPointer.escape(name)
            case .index(let index): return "/\(index)"
            }
        }.joined()
    }
}

extension JSONValue {
    /// Whole reals as integers, recursively: 1.0 and 1 are the same JSON number.
    var canonicalNumbers: JSONValue {
        switch self {
        case .number(let real):
            if let whole = integerValue { return .integer(whole) }
            return .number(real)
        case .array(let items): return .array(items.map(\.canonicalNumbers))
        case .object(let object): return .object(JSONObject(object.map { ($0.key, $0.value.canonicalNumbers) }))
        default: return self
        }
    }

    /// The value as a Double, for bounds.
    var numberValue: Double? {
        switch self {
        case .integer(let number): return Double(number)
        case .number(let real): return real
        default: return nil
        }
    }

    /// The value at an instance path, nil when something along it is missing.
    func value(at path: [PathToken]) -> JSONValue? {
        var current = self
        for token in path {
            switch (token, current) {
            case (.key(let name), .object(let object)):
                guard let next = object[name] else { return nil }
                current = next
            case (.index(let index), .array(let items)):
                guard index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}
