#if VendoredC
import CJanssonVendored
#else
import CJansson
#endif
import CSchemaCheck
import JSONCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ParseLimits {
    /// The limits as `sc_parse` takes them (zero: no limit).
    var cValue: sc_parse_limits {
        sc_parse_limits(
            max_bytes: Self.size(maxBytes), max_depth: Self.size(maxDepth),
            max_string_length: Self.size(maxStringLength), max_properties: Self.size(maxProperties),
            max_array_length: Self.size(maxArrayLength))
    }

    private static func size(_ value: Int) -> Int { value > 0 ? value : 0 }
}

extension JSONParseError.Kind {
    /// The C parser's code: parse errors, limits and allocation failures are all it reports.
    init(_ code: sc_error_code) {
        switch code {
        case SC_ERROR_OUT_OF_MEMORY: self = .outOfMemory
        case SC_ERROR_LIMIT: self = .limitExceeded
        default: self = .parse
        }
    }
}

/// A parsed JSON document held as jansson's `json_t`, so it can be validated without
/// converting it. Immutable once created, hence safe to share between threads.
public final class JSONDocument: @unchecked Sendable {
    /// The owned jansson value. Never mutated after init.
    let raw: UnsafeMutablePointer<json_t>

    /// Parses bytes with duplicate keys rejected, NUL kept, invalid UTF-8 and trailing data refused.
    public init(bytes: some Collection<UInt8>, limits: ParseLimits = .bridgeMessage) throws(JSONParseError) {
        var result: Result<UnsafeMutablePointer<json_t>, JSONParseError>
        if let direct = bytes.withContiguousStorageIfAvailable({ Self.parse($0, limits: limits) }) {
            result = direct
        } else {
            let copy = Array(bytes)
            result = copy.withUnsafeBufferPointer { Self.parse($0, limits: limits) }
        }
        switch result {
        case .success(let value): raw = value
        case .failure(let error): throw error
        }
    }

    public convenience init(_ data: Data, limits: ParseLimits = .bridgeMessage) throws(JSONParseError) {
        try self.init(bytes: data, limits: limits)
    }

    public convenience init(_ text: String, limits: ParseLimits = .bridgeMessage) throws(JSONParseError) {
        try self.init(bytes: Array(text.utf8), limits: limits)
    }

    /// Builds the jansson form of a value (for validating values made in Swift).
    public init(_ value: JSONValue) {
        raw = Self.make(value)
    }

    /// False once `MessageArena` has taken back the value (it frees it with the arena).
    var ownsValue = true

    deinit {
        if ownsValue { json_decref(raw) }
    }

    /// Takes over a value this module parsed (`MessageArena`).
    init(owning raw: UnsafeMutablePointer<json_t>) {
        self.raw = raw
    }

    /// Parses with `sc_parse`, or into `arena` (`sc_parse_in_arena`) when one is given.
    static func parse(_ buffer: UnsafeBufferPointer<UInt8>, limits: ParseLimits, arena: OpaquePointer? = nil)
        -> Result<UnsafeMutablePointer<json_t>, JSONParseError>
    {
        var cLimits = limits.cValue
        var error = sc_error()
        let pointer = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        let value = withUnsafePointer(to: &cLimits) { limitsPointer in
            arena.map { sc_parse_in_arena($0, pointer, buffer.count, limitsPointer, &error) }
                ?? sc_parse(pointer, buffer.count, limitsPointer, &error)
        }
        guard let value else {
            let message = withUnsafeBytes(of: error.text) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            return .failure(JSONParseError(
                message: message, line: Int(error.line), column: Int(error.column), position: error.position,
                kind: JSONParseError.Kind(error.code)))
        }
        return .success(value)
    }

    /// The document as a Swift value. Whole-number reals stay `.number` (as jansson read them).
    public var value: JSONValue {
        Self.convert(raw)
    }

    /// Serialized compact JSON (jansson's encoder), members in document order.
    public var text: String {
        guard let dumped = json_dumps(raw, Int(JSON_COMPACT | JSON_ENCODE_ANY)) else { return "" }
        defer { free(dumped) }
        return String(cString: dumped)
    }

    // MARK: - conversions

    static func string(_ pointer: UnsafePointer<CChar>?, length: Int) -> String {
        guard let pointer, length > 0 else { return "" }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    private static func isASCII(_ pointer: UnsafePointer<CChar>?, length: Int) -> Bool {
        guard let pointer else { return true }
        for offset in 0..<length where pointer[offset] < 0 { return false }  // CChar is signed: bytes >= 0x80
        return true
    }

    static func convert(_ value: UnsafeMutablePointer<json_t>) -> JSONValue {
        switch value.pointee.type {
        case JSON_NULL: return .null
        case JSON_TRUE: return .bool(true)
        case JSON_FALSE: return .bool(false)
        case JSON_INTEGER: return .integer(Int64(json_integer_value(value)))
        case JSON_REAL: return .number(json_real_value(value))
        case JSON_STRING: return .string(string(json_string_value(value), length: json_string_length(value)))
        case JSON_ARRAY:
            let count = json_array_size(value)
            var items: [JSONValue] = []
            items.reserveCapacity(count)
            for index in 0..<count {
                if let item = json_array_get(value, index) { items.append(convert(item)) }
            }
            return .array(items)
        case JSON_OBJECT:
            var object = JSONObject()
            object.reserveCapacity(json_object_size(value))
            // jansson's keys are distinct as bytes; distinct ASCII keys are distinct Strings too, so
            // they need no search. Once a key is not ASCII (Swift equates canonically equivalent
            // keys, and "\u{212A}" equals "K"), every later key is set through the search.
            var allASCII = true
            var iterator = json_object_iter(value)
            while let current = iterator {
                let keyBytes = json_object_iter_key(current)
                let keyLength = json_object_iter_key_len(current)
                let key = string(keyBytes, length: keyLength)
                allASCII = allASCII && isASCII(keyBytes, length: keyLength)
                if let member = json_object_iter_value(current) {
                    if allASCII {
                        object.append(uniqueKey: key, convert(member))
                    } else {
                        object[key] = convert(member)
                    }
                }
                iterator = json_object_iter_next(value, current)
            }
            return .object(object)
        default:
            return .null
        }
    }

    static func make(_ value: JSONValue) -> UnsafeMutablePointer<json_t> {
        let made: UnsafeMutablePointer<json_t>?
        switch value {
        case .null: made = json_null()
        case .bool(let flag): made = flag ? json_true() : json_false()
        case .integer(let number): made = json_integer(json_int_t(number))
        case .number(let real): made = real.isFinite ? json_real(real) : json_null()
        case .string(let text):
            var utf8 = Array(text.utf8)
            utf8.append(0)
            made = utf8.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    json_stringn_nocheck($0, buffer.count - 1)
                }
            }
        case .array(let items):
            let array = json_array()
            if let array {
                for item in items { json_array_append_new(array, make(item)) }
            }
            made = array
        case .object(let object):
            let container = json_object()
            if let container {
                for (key, member) in object {
                    var utf8 = Array(key.utf8)
                    utf8.append(0)
                    utf8.withUnsafeBufferPointer { buffer in
                        buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                            _ = json_object_setn_new_nocheck(container, $0, buffer.count - 1, make(member))
                        }
                    }
                }
            }
            made = container
        }
        guard let made else { fatalError("jansson could not allocate a value (out of memory)") }
        return made
    }
}
