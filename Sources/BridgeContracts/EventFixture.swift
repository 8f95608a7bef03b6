import JSONCore

/// A contract test of one event version: a file under event-fixtures/<event>/v<version>/ with a
/// page-bound message the app might send and whether its schema accepts it. `bridgectl check`
/// emits each through a mock host: a valid one must reach the page unchanged, an invalid one must
/// be refused with the errors it names, and nothing of it posted.
public struct EventFixture: Sendable {
    /// Path inside the contracts folder, e.g. "event-fixtures/login_state_changed/v1/valid-login.json".
    public let path: String
    public let description: String
    /// The whole page-bound message `{"v":1,"event","version","payload"}`.
    public let message: JSONValue
    public let valid: Bool
    /// For an invalid message: errors (instanceLocation, keyword when given) the refusal must name.
    public let errors: [Fixture.ExpectedError]

    /// "login_state_changed" for event-fixtures/login_state_changed/v1/...
    public var event: String? {
        let parts = path.split(separator: "/")
        return parts.count >= 4 ? String(parts[1]) : nil
    }

    public var version: Int? {
        let parts = path.split(separator: "/")
        guard parts.count >= 4, parts[2].hasPrefix("v") else { return nil }
        return Int(parts[2].dropFirst())
    }

    static let folder = "event-fixtures/"

    static func load(path: String, value: JSONValue) throws(ContractError) -> EventFixture {
        let reader = FieldReader(file: path, value: value)
        let expect = try reader.child("expect")
        let valid = try expect.child("valid").bool()
        var errors: [Fixture.ExpectedError] = []
        if let list = try expect.optionalChild("errors") {
            guard let items = list.value.arrayValue else { throw list.fail("expected an array") }
            for index in items.indices {
                let item = FieldReader(file: path, value: items[index], pointer: "\(list.pointer)/\(index)")
                errors.append(Fixture.ExpectedError(instanceLocation: try item.child("instanceLocation").string(),
                                                    keyword: try item.optionalChild("keyword")?.string()))
            }
        }
        if !valid && errors.isEmpty { throw expect.fail("an invalid event fixture names the errors its refusal must give", at: "errors") }
        return EventFixture(path: path, description: try reader.child("description").string(),
                            message: try reader.child("message").value, valid: valid, errors: errors)
    }
}
