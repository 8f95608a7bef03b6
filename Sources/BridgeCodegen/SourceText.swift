import JSONCore

/// Names in generated JavaScript and TypeScript.
enum TypeScriptNames {
    /// "view_vehicles" -> "viewVehicles".
    static func camelCase(_ name: String) -> String {
        let words = name.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard let first = words.first else { return name }
        return first + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// "view_vehicles" -> "ViewVehicles".
    static func pascalCase(_ name: String) -> String {
        let camel = camelCase(name)
        return camel.prefix(1).uppercased() + camel.dropFirst()
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first == "$" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0 == "$" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    /// A property name as written in an object type: bare when it is an identifier, quoted otherwise.
    static func propertyKey(_ name: String) -> String {
        isIdentifier(name) ? name : JSONValue.string(name).serialized(escapeForScript: true)
    }
}

/// JSDoc blocks. Text from the contracts may contain "*/", which would end the comment early.
enum DocComment {
    static func lines(_ docs: [String], indent: String) -> [String] {
        let cleaned = docs.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            .map { $0.replacing("*/", with: "*\\/") }
        switch cleaned.count {
        case 0: return []
        case 1: return ["\(indent)/** \(cleaned[0]) */"]
        default: return ["\(indent)/**"] + cleaned.map { $0.isEmpty ? "\(indent) *" : "\(indent) * \($0)" } + ["\(indent) */"]
        }
    }
}

/// Writes a JSONValue as a JavaScript literal: JSON (valid JavaScript when U+2028/U+2029 are
/// escaped), two-space indented, members in their order. Short arrays of scalars stay on one line.
enum JavaScriptLiteral {
    static func write(_ value: JSONValue, indent: String = "") -> String {
        switch value {
        case .array(let items):
            if items.isEmpty { return "[]" }
            if items.allSatisfy(isScalar) {
                let line = "[" + items.map { $0.serialized(escapeForScript: true) }.joined(separator: ", ") + "]"
                if line.count <= 80 { return line }
            }
            let inner = indent + "  "
            return "[\n" + items.map { inner + write($0, indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let object):
            if object.isEmpty { return "{}" }
            let inner = indent + "  "
            let members = object.map { member in
                JSONValue.string(member.key).serialized(escapeForScript: true) + ": " + write(member.value, indent: inner)
            }
            return "{\n" + members.map { inner + $0 }.joined(separator: ",\n") + "\n\(indent)}"
        default:
            return value.serialized(escapeForScript: true)
        }
    }

    /// The value as a one-line JavaScript expression.
    static func inline(_ value: JSONValue) -> String {
        value.serialized(escapeForScript: true)
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: return false
        default: return true
        }
    }
}
