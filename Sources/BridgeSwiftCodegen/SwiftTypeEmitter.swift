import JSONCore
import BridgeContracts

/// Writes the Swift source of the models `SwiftSchemaReader` built. Every struct spells out its
/// CodingKeys, `init(from:)` and `encode(to:)`: constants are checked when decoding and written
/// when encoding, optional members are left out when nil, so a valid message re-encodes to an
/// equivalent one.
enum SwiftTypeEmitter {
    static func message(_ model: SwiftStructModel, contract: ActionContract) -> String {
        var extra: [String] = []
        let constants = Set(model.properties.filter { $0.constant != nil }.map(\.swiftName))
        if !constants.contains("action") { extra.append("public static let action = \(literal(.string(contract.action)))") }
        if !constants.contains("version") { extra.append("public static let version = \(contract.version)") }
        return structure(model, conformance: "BridgeMessage", extraStatics: extra, level: 0)
    }

    static func event(_ model: SwiftStructModel, contract: EventContract) -> String {
        var extra: [String] = []
        let constants = Set(model.properties.filter { $0.constant != nil }.map(\.swiftName))
        if !constants.contains("event") { extra.append("public static let event = \(literal(.string(contract.event)))") }
        if !constants.contains("version") { extra.append("public static let version = \(contract.version)") }
        return structure(model, conformance: "BridgeEventMessage", extraStatics: extra, level: 0)
    }

    static func shared(_ model: SwiftStructModel) -> String {
        structure(model, conformance: "Codable, Sendable, Equatable", extraStatics: [], level: 0)
    }

    /// What every message type conforms to, and the one helper the generated decoders call.
    static let support = """
        /// A message type generated from one action version's schema: the envelope's members and the
        /// action's, with `action` and `version` as constants. Decode one from a message the checker
        /// accepted; encoding it gives an equivalent message.
        public protocol BridgeMessage: Codable, Sendable, Equatable {
            static var action: String { get }
            static var version: Int { get }
        }

        /// A message type generated from one event version's schema: the page-bound message the app
        /// sends, with `event` and `version` as constants and the payload. `BridgeHost.emit` sends
        /// one once it also conforms to `PageEventPayload` (`extension T: PageEventPayload {}`).
        public protocol BridgeEventMessage: Codable, Sendable, Equatable {
            static var event: String { get }
            static var version: Int { get }
        }

        extension KeyedDecodingContainer {
            /// Decodes a `const` member and fails unless it has the schema's value.
            public func decodeConstant<Value: Decodable & Equatable>(_ expected: Value, forKey key: Key) throws {
                let found = try decode(Value.self, forKey: key)
                guard found == expected else {
                    throw DecodingError.dataCorruptedError(forKey: key, in: self,
                        debugDescription: "\\(key.stringValue) is \\(found), the schema's constant is \\(expected)")
                }
            }
        }

        """

    static func registry(_ names: [String], events: [String]) -> String {
        var out = "/// Every generated message type, in manifest order.\n"
        out += "public enum ContractTypes {\n"
        out += "    public static let all: [any BridgeMessage.Type] = [\n"
        for name in names { out += "        \(name).self,\n" }
        out += "    ]\n\n"
        out += "    /// The type of one action version, if the contracts define it.\n"
        out += "    public static func type(action: String, version: Int) -> (any BridgeMessage.Type)? {\n"
        out += "        all.first { $0.action == action && $0.version == version }\n"
        out += "    }\n\n"
        out += "    /// Every generated event message type (what the app sends its pages), in manifest order.\n"
        out += "    public static let events: [any BridgeEventMessage.Type] = [\n"
        for name in events { out += "        \(name).self,\n" }
        out += "    ]\n"
        out += "}\n"
        return out
    }

    private static func indent(_ level: Int) -> String { String(repeating: "    ", count: level) }

    private static func documentation(_ text: String?, level: Int) -> String {
        guard let text, !text.isEmpty else { return "" }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { indent(level) + "/// " + $0 }.joined(separator: "\n") + "\n"
    }

    private static func literal(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): return JSONValue.string(text).serialized()
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        default: return value.serialized()
        }
    }

    private static func structure(_ model: SwiftStructModel, conformance: String, extraStatics: [String], level: Int) -> String {
        let pad = indent(level)
        let inner = indent(level + 1)
        let body = indent(level + 2)
        var out = documentation(model.documentation, level: level)
        out += "\(pad)public struct \(model.name): \(conformance) {\n"
        var statics: [String] = []
        for property in model.properties {
            guard let constant = property.constant else { continue }
            statics.append(documentation(property.documentation, level: level + 1)
                           + "\(inner)public static let \(property.swiftName) = \(literal(constant))\n")
        }
        statics += extraStatics.map { inner + $0 + "\n" }
        if !statics.isEmpty { out += statics.joined() + "\n" }

        let stored = model.properties.filter { $0.constant == nil }
        for property in stored {
            out += documentation(property.documentation, level: level + 1)
            out += "\(inner)public var \(property.swiftName): \(property.type.swiftName)\(property.required ? "" : "?")\n"
        }
        if !stored.isEmpty { out += "\n" }

        // Memberwise initialiser: optional members default to nil.
        let parameters = stored.map { "\(bare($0.swiftName)): \($0.type.swiftName)\($0.required ? "" : "? = nil")" }
        out += "\(inner)public init(\(parameters.joined(separator: ", "))) {\n"
        for property in stored { out += "\(body)self.\(bare(property.swiftName)) = \(property.swiftName)\n" }
        out += "\(inner)}\n\n"

        out += "\(inner)enum CodingKeys: String, CodingKey {\n"
        for property in model.properties {
            let name = property.swiftName
            out += bare(name) == property.jsonName ? "\(body)case \(name)\n" : "\(body)case \(name) = \(literal(.string(property.jsonName)))\n"
        }
        out += "\(inner)}\n\n"

        out += "\(inner)public init(from decoder: any Decoder) throws {\n"
        out += "\(body)let container = try decoder.container(keyedBy: CodingKeys.self)\n"
        for property in model.properties {
            let key = "." + bare(property.swiftName)
            if property.constant != nil {
                out += "\(body)try container.decodeConstant(Self.\(property.swiftName), forKey: \(key))\n"
            } else {
                let call = property.required ? "decode" : "decodeIfPresent"
                out += "\(body)\(property.swiftName) = try container.\(call)(\(property.type.swiftName).self, forKey: \(key))\n"
            }
        }
        out += "\(inner)}\n\n"

        out += "\(inner)public func encode(to encoder: any Encoder) throws {\n"
        out += "\(body)var container = encoder.container(keyedBy: CodingKeys.self)\n"
        for property in model.properties {
            let key = "." + bare(property.swiftName)
            if property.constant != nil {
                out += "\(body)try container.encode(Self.\(property.swiftName), forKey: \(key))\n"
            } else {
                let call = property.required ? "encode" : "encodeIfPresent"
                out += "\(body)try container.\(call)(\(property.swiftName), forKey: \(key))\n"
            }
        }
        out += "\(inner)}\n"

        for nested in nestedTypes(of: stored) {
            out += "\n"
            switch nested {
            case .structure(let child):
                out += structure(child, conformance: "Codable, Sendable, Equatable", extraStatics: [], level: level + 1)
            case .enumeration(let name, let values):
                out += enumeration(name, values: values, level: level + 1)
            default:
                break
            }
        }
        out += "\(pad)}\n"
        return out
    }

    /// The nested structs and enums the members use, each once, in member order.
    private static func nestedTypes(of properties: [SwiftPropertyModel]) -> [SwiftSchemaType] {
        var found: [SwiftSchemaType] = []
        func visit(_ type: SwiftSchemaType) {
            switch type {
            case .structure, .enumeration:
                if !found.contains(where: { $0.swiftName == type.swiftName }) { found.append(type) }
            case .array(let element):
                visit(element)
            default:
                break
            }
        }
        for property in properties { visit(property.type) }
        return found
    }

    private static func enumeration(_ name: String, values: [String], level: Int) -> String {
        var out = "\(indent(level))public enum \(name): String, Codable, Sendable, CaseIterable {\n"
        for value in values {
            let caseName = SwiftNames.enumCase(value)
            out += bare(caseName) == value
                ? "\(indent(level + 1))case \(caseName)\n"
                : "\(indent(level + 1))case \(caseName) = \(literal(.string(value)))\n"
        }
        out += "\(indent(level))}\n"
        return out
    }

    /// A name without its backticks (`default` -> default), for labels and `self.` access.
    private static func bare(_ name: String) -> String {
        name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
    }
}
