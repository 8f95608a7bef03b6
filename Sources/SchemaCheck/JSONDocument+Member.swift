#if VendoredC
import CJanssonVendored
#else
import CJansson
#endif
import JSONCore

extension JSONDocument {
    /// One top-level member of an object document, converted alone; nil when the document is
    /// not an object or has no such member. A hash lookup (json_object_getn), so the hot path
    /// of bulk validation reads `action` and `version` without converting the whole message.
    public func member(_ key: String) -> JSONValue? {
        guard raw.pointee.type == JSON_OBJECT else { return nil }
        return Self.child(of: raw, token: key).map(Self.convert)
    }

    /// The value at a JSON Pointer already split into its unescaped tokens
    /// (`JSONPointer.tokens(of:)`), converted alone: the bridge maps a few payload fields out of a
    /// message without converting the rest. Keys match byte for byte, as the schema checker's do.
    public func value(atTokens tokens: [String]) -> JSONValue? {
        var current = raw
        for token in tokens {
            guard let next = Self.child(of: current, token: token) else { return nil }
            current = next
        }
        return Self.convert(current)
    }

    /// An object's member, or an array's item at a pointer index; nil for anything else.
    private static func child(of node: UnsafeMutablePointer<json_t>, token: String) -> UnsafeMutablePointer<json_t>? {
        switch node.pointee.type {
        case JSON_OBJECT:
            // The key's bytes read in place (a copy of the string would be a reference count
            // taken and dropped); a bridged string without contiguous UTF-8 is copied.
            func member(_ utf8: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<json_t>? {
                utf8.withMemoryRebound(to: CChar.self) { chars in
                    // An empty buffer may have no base address; jansson needs a pointer either way.
                    chars.isEmpty ? json_object_getn(node, "", 0) : json_object_getn(node, chars.baseAddress, chars.count)
                }
            }
            if let found = token.utf8.withContiguousStorageIfAvailable(member) { return found }
            var key = token
            return key.withUTF8(member)
        case JSON_ARRAY:
            guard let index = JSONPointer.arrayIndex(token), index < json_array_size(node) else { return nil }
            return json_array_get(node, index)
        default:
            return nil
        }
    }

    /// The UTF-8 bytes of the top-level string member `key`, handed to `body` without making a
    /// Swift String (bulk validation compares the action name per line); nil when the document
    /// is not an object or the member is missing or not a string.
    public func withStringMember<Result>(_ key: StaticString, _ body: (UnsafeRawBufferPointer) -> Result) -> Result? {
        guard raw.pointee.type == JSON_OBJECT else { return nil }
        let found = key.utf8Start.withMemoryRebound(to: CChar.self, capacity: key.utf8CodeUnitCount) {
            json_object_getn(raw, $0, key.utf8CodeUnitCount)
        }
        guard let found, found.pointee.type == JSON_STRING else { return nil }
        return body(UnsafeRawBufferPointer(start: json_string_value(found), count: json_string_length(found)))
    }
}
