import SchemaCheck

/// A contract set that cannot be used: says which file and which field.
public struct ContractError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let pointer: String
    public let message: String

    public init(file: String, pointer: String = "", message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        pointer.isEmpty ? "\(file): \(message)" : "\(file): \(pointer): \(message)"
    }
}

/// Reads typed fields out of a JSONValue, with errors that name the file and the pointer.
struct FieldReader {
    let file: String
    let value: JSONValue
    let pointer: String

    init(file: String, value: JSONValue, pointer: String = "") {
        self.file = file
        self.value = value
        self.pointer = pointer
    }

    func fail(_ message: String, at key: String? = nil) -> ContractError {
        ContractError(file: file, pointer: key.map { pointer + "/" + JSONPointer.escape($0) } ?? pointer, message: message)
    }

    func object() throws(ContractError) -> JSONObject {
        guard let object = value.objectValue else { throw fail("expected an object") }
        return object
    }

    func child(_ key: String) throws(ContractError) -> FieldReader {
        guard let member = try object()[key] else { throw fail("missing required field \"\(key)\"", at: key) }
        return FieldReader(file: file, value: member, pointer: pointer + "/" + JSONPointer.escape(key))
    }

    func optionalChild(_ key: String) throws(ContractError) -> FieldReader? {
        guard let member = try object()[key] else { return nil }
        return FieldReader(file: file, value: member, pointer: pointer + "/" + JSONPointer.escape(key))
    }

    func string() throws(ContractError) -> String {
        guard let text = value.stringValue else { throw fail("expected a string") }
        return text
    }

    func bool() throws(ContractError) -> Bool {
        guard let flag = value.boolValue else { throw fail("expected true or false") }
        return flag
    }

    func integer() throws(ContractError) -> Int {
        guard let number = value.integerValue, let small = Int(exactly: number) else { throw fail("expected an integer") }
        return small
    }

    func strings() throws(ContractError) -> [String] {
        guard let items = value.arrayValue else { throw fail("expected an array of strings") }
        var result: [String] = []
        for (index, item) in items.enumerated() {
            guard let text = item.stringValue else {
                throw ContractError(file: file, pointer: "\(pointer)/\(index)", message: "expected a string")
            }
            result.append(text)
        }
        return result
    }

    /// The members of an object whose values are strings, in their order.
    func stringMap() throws(ContractError) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        for (key, member) in try object() {
            guard let text = member.stringValue else { throw fail("expected a string", at: key) }
            result.append((key, text))
        }
        return result
    }
}
