import JSONCore
import BridgeContracts

/// The Swift shape of a contract schema, as `SwiftTypesGenerator` writes it: structs for objects,
/// string enums for `enum`s of strings, constants for `const`, optionals for members that are not
/// required. What JSON Schema can say and a Codable struct cannot is an `UnsupportedSchema`, named
/// with its file and JSON Pointer (`bridgectl lint` lists them).
indirect enum SwiftSchemaType: Equatable {
    case string, integer, number, boolean
    case array(SwiftSchemaType)
    /// A nested `enum Name: String`.
    case enumeration(name: String, values: [String])
    /// A nested struct.
    case structure(SwiftStructModel)
    /// A top-level type shared by several messages (a schema file of its own, e.g. CampaignV1).
    case shared(name: String)

    var swiftName: String {
        switch self {
        case .string: return "String"
        case .integer: return "Int"
        case .number: return "Double"
        case .boolean: return "Bool"
        case .array(let element): return "[\(element.swiftName)]"
        case .enumeration(let name, _): return name
        case .structure(let model): return model.name
        case .shared(let name): return name
        }
    }
}

struct SwiftPropertyModel: Equatable {
    let jsonName: String
    let swiftName: String
    let type: SwiftSchemaType
    let required: Bool
    /// A `const` member: not stored; checked when decoding, written when encoding.
    let constant: JSONValue?
    let documentation: String?
}

struct SwiftStructModel: Equatable {
    let name: String
    let documentation: String?
    let properties: [SwiftPropertyModel]
}

/// A part of a schema the generator cannot express as Swift.
public struct UnsupportedSchema: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// JSON Pointer into the file, e.g. "/$defs/payload/properties/kind/oneOf".
    public let pointer: String
    public let reason: String

    public var description: String { pointer.isEmpty ? "\(file): \(reason)" : "\(file)#\(pointer): \(reason)" }
}

/// Reads schemas into Swift models: one contract set, every problem collected (not only the first).
struct SwiftSchemaReader {
    let contracts: ContractSet
    private(set) var problems: [UnsupportedSchema] = []
    /// Shared types met on the way, by schema file (e.g. campaign.v1.json -> CampaignV1).
    private(set) var shared: [(file: String, model: SwiftStructModel)] = []

    /// Keywords that only describe or constrain a value (the checker enforces them; a Swift type
    /// need not say them).
    static let annotationKeywords: Set<String> = [
        "$schema", "$id", "$comment", "title", "description", "default", "examples", "deprecated", "readOnly",
        "writeOnly", "pattern", "minLength", "maxLength", "format", "minimum", "maximum", "exclusiveMinimum",
        "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems", "$defs", "contentMediaType",
        "contentEncoding",
    ]
    static let structuralKeywords: Set<String> = ["type", "properties", "required", "additionalProperties", "enum", "const", "items", "$ref"]

    init(contracts: ContractSet) {
        self.contracts = contracts
    }

    mutating func fail(_ file: String, _ pointer: String, _ reason: String) {
        problems.append(UnsupportedSchema(file: file, pointer: pointer, reason: reason))
    }

    /// The message struct of one action version: the envelope's members with the action schema's
    /// members over them (`"$ref": "envelope.v1.json"` plus properties), required from both.
    mutating func message(_ contract: ActionContract, typeName: String) -> SwiftStructModel? {
        let envelopeFile = contracts.manifest.envelopeSchema
        guard let schema = contracts.schema(file: contract.schema) else {
            fail(contract.schema, "", "the schema file is missing")
            return nil
        }
        guard let envelope = contracts.schema(file: envelopeFile) else {
            fail(envelopeFile, "", "the envelope schema file is missing")
            return nil
        }
        checkKeywords(schema, file: contract.schema, pointer: "", allowed: ["$ref", "properties", "required", "type", "additionalProperties"])
        if let reference = schema["$ref"]?.stringValue, reference != envelopeFile {
            fail(contract.schema, "/$ref", "an action schema must refer to the envelope (\(envelopeFile)), not \(reference)")
        }
        var members: [(name: String, file: String, pointer: String, schema: JSONValue)] = []
        for (name, member) in envelope["properties"]?.objectValue ?? JSONObject() {
            members.append((name, envelopeFile, "/properties/" + JSONPointer.escape(name), member))
        }
        for (name, member) in schema["properties"]?.objectValue ?? JSONObject() {
            let entry = (name: name, file: contract.schema, pointer: "/properties/" + JSONPointer.escape(name), schema: member)
            if let index = members.firstIndex(where: { $0.name == name }) { members[index] = entry } else { members.append(entry) }
        }
        if envelope["additionalProperties"] != .bool(false) {
            fail(envelopeFile, "/additionalProperties", "the envelope must be closed (additionalProperties: false) for a struct to round-trip it")
        }
        let required = Set((envelope["required"]?.arrayValue ?? []) + (schema["required"]?.arrayValue ?? []))
            .compactMap(\.stringValue)
        let documentation = [schema["title"]?.stringValue, schema["description"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
        let properties = members.map { member in
            property(member.name, schema: member.schema, required: required.contains(member.name), file: member.file, pointer: member.pointer)
        }
        return SwiftStructModel(name: typeName, documentation: documentation.isEmpty ? nil : documentation, properties: properties)
    }

    /// The message struct of one event version: its schema describes the whole page-bound
    /// message, `v`, `event` and `version` as constants and the payload.
    mutating func event(_ contract: EventContract, typeName: String) -> SwiftStructModel? {
        guard let schema = contracts.schema(file: contract.schema) else {
            fail(contract.schema, "", "the schema file is missing")
            return nil
        }
        checkKeywords(schema, file: contract.schema, pointer: "", allowed: ["type", "properties", "required", "additionalProperties"])
        let model = structure(schema, file: contract.schema, pointer: "", name: typeName)
        let documentation = [schema["title"]?.stringValue, schema["description"]?.stringValue].compactMap { $0 }.joined(separator: ": ")
        return SwiftStructModel(name: typeName, documentation: documentation.isEmpty ? nil : documentation, properties: model.properties)
    }

    private mutating func property(_ name: String, schema: JSONValue, required: Bool, file: String, pointer: String) -> SwiftPropertyModel {
        let swiftName = SwiftNames.property(name)
        if let constant = schema["const"] {
            checkKeywords(schema, file: file, pointer: pointer, allowed: ["const"])
            if !required { fail(file, pointer + "/const", "a const member that is not required (its absence could not be re-encoded)") }
            let type: SwiftSchemaType
            switch constant {
            case .string: type = .string
            case .integer: type = .integer
            case .bool: type = .boolean
            default:
                fail(file, pointer + "/const", "only string, integer and boolean constants are supported")
                type = .string
            }
            return SwiftPropertyModel(jsonName: name, swiftName: swiftName, type: type, required: true, constant: constant,
                                      documentation: schema["description"]?.stringValue)
        }
        let type = self.type(of: schema, file: file, pointer: pointer, suggestedName: SwiftNames.type(name))
        return SwiftPropertyModel(jsonName: name, swiftName: swiftName, type: type, required: required, constant: nil,
                                  documentation: resolvedDescription(schema, file: file))
    }

    private func resolvedDescription(_ schema: JSONValue, file: String) -> String? {
        if let text = schema["description"]?.stringValue { return text }
        if let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/"),
           let target = contracts.schema(file: file)?.value(at: String(reference.dropFirst())) {
            return target["description"]?.stringValue
        }
        return nil
    }

    mutating func type(of schema: JSONValue, file: String, pointer: String, suggestedName: String) -> SwiftSchemaType {
        guard case .object = schema else {
            fail(file, pointer, "a boolean schema has no Swift type")
            return .string
        }
        checkKeywords(schema, file: file, pointer: pointer, allowed: Self.structuralKeywords)
        if let reference = schema["$ref"]?.stringValue {
            if schema.objectValue!.keys.contains(where: { Self.structuralKeywords.contains($0) && $0 != "$ref" }) {
                fail(file, pointer, "$ref next to other structural keywords")
            }
            return referenced(reference, file: file, pointer: pointer + "/$ref", suggestedName: suggestedName)
        }
        if let values = schema["enum"] {
            let strings = values.arrayValue?.compactMap(\.stringValue) ?? []
            guard let count = values.arrayValue?.count, count > 0, strings.count == count else {
                fail(file, pointer + "/enum", "only an enum of strings is supported")
                return .string
            }
            if let type = schema["type"], type != "string" {
                fail(file, pointer + "/type", "an enum of strings must have type string")
            }
            return .enumeration(name: suggestedName, values: strings)
        }
        if schema["const"] != nil {
            fail(file, pointer + "/const", "a const is supported only as an object member")
            return .string
        }
        guard let type = schema["type"] else {
            fail(file, pointer, "no type (a Swift type needs one)")
            return .string
        }
        guard let name = type.stringValue else {
            fail(file, pointer + "/type", "a list of types (\(type)) has no single Swift type")
            return .string
        }
        switch name {
        case "string": return .string
        case "integer": return .integer
        case "number": return .number
        case "boolean": return .boolean
        case "array":
            guard let items = schema["items"] else {
                fail(file, pointer, "an array without items has no element type")
                return .array(.string)
            }
            return .array(self.type(of: items, file: file, pointer: pointer + "/items", suggestedName: SwiftNames.element(suggestedName)))
        case "object":
            return .structure(structure(schema, file: file, pointer: pointer, name: suggestedName))
        default:
            fail(file, pointer + "/type", "type \(name) has no Swift type")
            return .string
        }
    }

    private mutating func structure(_ schema: JSONValue, file: String, pointer: String, name: String) -> SwiftStructModel {
        if schema["additionalProperties"] != .bool(false) {
            fail(file, pointer, "an open object (additionalProperties is not false) cannot round-trip as a struct")
        }
        let required = Set((schema["required"]?.arrayValue ?? []).compactMap(\.stringValue))
        var properties: [SwiftPropertyModel] = []
        for (member, memberSchema) in schema["properties"]?.objectValue ?? JSONObject() {
            properties.append(property(member, schema: memberSchema, required: required.contains(member), file: file,
                                       pointer: pointer + "/properties/" + JSONPointer.escape(member)))
        }
        return SwiftStructModel(name: name, documentation: schema["description"]?.stringValue, properties: properties)
    }

    private mutating func referenced(_ reference: String, file: String, pointer: String, suggestedName: String) -> SwiftSchemaType {
        if reference.hasPrefix("#/") {
            guard let target = contracts.schema(file: file)?.value(at: String(reference.dropFirst())) else {
                fail(file, pointer, "\(reference) does not resolve")
                return .string
            }
            return type(of: target, file: file, pointer: String(reference.dropFirst()), suggestedName: suggestedName)
        }
        guard !reference.contains("#"), let target = contracts.schema(file: reference) else {
            fail(file, pointer, "only a local #/... pointer or a whole schema file of the contracts is supported (\(reference))")
            return .string
        }
        let name = SwiftNames.sharedType(file: reference)
        if !shared.contains(where: { $0.file == reference }) {
            guard case .structure(let model) = type(of: target, file: reference, pointer: "", suggestedName: name) else {
                fail(reference, "", "a schema file referred to as a type must be an object")
                return .string
            }
            shared.append((reference, model))
        }
        return .shared(name: name)
    }

    private mutating func checkKeywords(_ schema: JSONValue, file: String, pointer: String, allowed: Set<String>) {
        for keyword in schema.objectValue?.keys ?? [] where !allowed.contains(keyword) && !Self.annotationKeywords.contains(keyword) {
            fail(file, pointer + "/" + JSONPointer.escape(keyword), "\(keyword) has no Swift counterpart in the generated types")
        }
    }
}
