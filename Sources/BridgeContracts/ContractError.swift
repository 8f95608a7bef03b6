import JSONCore

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

/// Reads typed fields out of a JSONValue (JSONCore's `JSONFieldReader`), with errors that name
/// the file as well as the pointer.
struct FieldReader {
    let file: String
    private let fields: JSONFieldReader

    init(file: String, value: JSONValue, pointer: String = "") {
        self.init(file: file, fields: JSONFieldReader(value, pointer: pointer))
    }

    private init(file: String, fields: JSONFieldReader) {
        self.file = file
        self.fields = fields
    }

    var value: JSONValue { fields.value }
    var pointer: String { fields.pointer }

    func fail(_ message: String, at key: String? = nil) -> ContractError {
        located(fields.fail(message, at: key))
    }

    func object() throws(ContractError) -> JSONObject {
        do { return try fields.object() } catch { throw located(error) }
    }

    func child(_ key: String) throws(ContractError) -> FieldReader {
        do { return FieldReader(file: file, fields: try fields.child(key)) } catch { throw located(error) }
    }

    func optionalChild(_ key: String) throws(ContractError) -> FieldReader? {
        do { return try fields.optionalChild(key).map { FieldReader(file: file, fields: $0) } } catch { throw located(error) }
    }

    func string() throws(ContractError) -> String {
        do { return try fields.string() } catch { throw located(error) }
    }

    func bool() throws(ContractError) -> Bool {
        do { return try fields.bool() } catch { throw located(error) }
    }

    func integer() throws(ContractError) -> Int {
        do { return try fields.integer() } catch { throw located(error) }
    }

    func strings() throws(ContractError) -> [String] {
        do { return try fields.strings() } catch { throw located(error) }
    }

    /// The members of an object whose values are strings, in their order.
    func stringMap() throws(ContractError) -> [(key: String, value: String)] {
        do { return try fields.stringMap() } catch { throw located(error) }
    }

    private func located(_ error: JSONFieldError) -> ContractError {
        ContractError(file: file, pointer: error.pointer, message: error.message)
    }
}
