/// A field of a configuration file that is missing or has the wrong type, by JSON Pointer.
public struct JSONFieldError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where, e.g. "/routes/2/pattern"; "" is the document itself.
    public let pointer: String
    public let message: String

    public init(pointer: String, message: String) {
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        pointer.isEmpty ? message : "\(pointer): \(message)"
    }
}

/// Reads typed fields out of a JSON value (a configuration file such as routes.json or a
/// contract manifest), each error naming the JSON Pointer of the field it is about.
public struct JSONFieldReader: Sendable {
    public let value: JSONValue
    /// Where `value` sits in its document.
    public let pointer: String

    public init(_ value: JSONValue, pointer: String = "") {
        self.value = value
        self.pointer = pointer
    }

    /// An error about this field, or about its member `key`.
    public func fail(_ message: String, at key: String? = nil) -> JSONFieldError {
        JSONFieldError(pointer: key.map { pointer + "/" + JSONPointer.escape($0) } ?? pointer, message: message)
    }

    public func object() throws(JSONFieldError) -> JSONObject {
        guard let object = value.objectValue else { throw fail("expected an object") }
        return object
    }

    public func child(_ key: String) throws(JSONFieldError) -> JSONFieldReader {
        guard let member = try object()[key] else { throw fail("missing required field \"\(key)\"", at: key) }
        return JSONFieldReader(member, pointer: pointer + "/" + JSONPointer.escape(key))
    }

    public func optionalChild(_ key: String) throws(JSONFieldError) -> JSONFieldReader? {
        guard let member = try object()[key] else { return nil }
        return JSONFieldReader(member, pointer: pointer + "/" + JSONPointer.escape(key))
    }

    /// The items of an array, each with its own pointer.
    public func items() throws(JSONFieldError) -> [JSONFieldReader] {
        guard let items = value.arrayValue else { throw fail("expected an array") }
        return items.indices.map { JSONFieldReader(items[$0], pointer: "\(pointer)/\($0)") }
    }

    public func string() throws(JSONFieldError) -> String {
        guard let text = value.stringValue else { throw fail("expected a string") }
        return text
    }

    public func bool() throws(JSONFieldError) -> Bool {
        guard let flag = value.boolValue else { throw fail("expected true or false") }
        return flag
    }

    /// An integer, including a whole-number real such as `2.0`.
    public func integer() throws(JSONFieldError) -> Int {
        guard let number = value.integerValue, let small = Int(exactly: number) else { throw fail("expected an integer") }
        return small
    }

    public func strings() throws(JSONFieldError) -> [String] {
        guard let items = value.arrayValue else { throw fail("expected an array of strings") }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                throw JSONFieldError(pointer: "\(pointer)/\(index)", message: "expected a string")
            }
            result.append(text)
        }
        return result
    }

    /// The members of an object whose values are strings, in their order.
    public func stringMap() throws(JSONFieldError) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        for (key, member) in try object() {
            guard let text = member.stringValue else { throw fail("expected a string", at: key) }
            result.append((key, text))
        }
        return result
    }
}
