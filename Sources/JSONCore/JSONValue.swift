/// A JSON value as every layer sees it: parsed by `JSONValue(parsing:)` (pure Swift) or read from
/// jansson by SchemaCheck's `JSONDocument`, written back for replies and records. Integers stay
/// integers (a whole-number real such as `2.0` is still `.number`; JSON Schema treats both as
/// integers where it matters). Object members keep their order so output is stable and reads
/// like the input.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let flag) = self { return flag }
        return nil
    }

    /// The value as an integer when it is one, including whole-number reals such as `1.0`.
    public var integerValue: Int64? {
        switch self {
        case .integer(let number): return number
        case .number(let real):
            guard real.rounded() == real, abs(real) < 9.2e18 else { return nil }
            return Int64(real)
        default: return nil
        }
    }

    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// Resolves an RFC 6901 JSON Pointer such as `/payload/slug`; "" is the value itself.
    public func value(at pointer: String) -> JSONValue? {
        guard let tokens = JSONPointer.tokens(of: pointer) else { return nil }
        return value(atTokens: tokens)
    }

    /// The value at a pointer already split into its unescaped tokens (`JSONPointer.tokens(of:)`).
    public func value(atTokens tokens: [String]) -> JSONValue? {
        var current = self
        for token in tokens {
            switch current {
            case .object(let object):
                guard let next = object[token] else { return nil }
                current = next
            case .array(let items):
                guard let index = JSONPointer.arrayIndex(token), index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}


extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(nilLiteral: ()) { self = .null }
}

