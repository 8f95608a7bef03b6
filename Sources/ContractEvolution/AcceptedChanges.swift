import SchemaCheck
import JSONCore
import BridgeContracts

/// One entry of contracts/accepted-changes.json: a finding that was looked at and let through,
/// with the reason and the date the acceptance ends.
public struct AcceptedChange: Sendable, Equatable {
    public let kind: FindingKind
    public let subject: Subject
    public let schemaPointer: String
    public let reason: String
    /// YYYY-MM-DD; after this day the entry fails the diff instead of accepting anything.
    public let expires: String
    /// Where it is in the file, for messages: "/accepted/0".
    public let pointer: String

    func matches(_ finding: Finding) -> Bool {
        finding.kind == kind && finding.subject == subject && finding.schemaPointer == schemaPointer
    }
}

/// contracts/accepted-changes.json:
/// `{"accepted": [{"kind", "action" | "event", "version" | "schema" | "route", "schemaPointer", "reason", "expires"}]}`.
public struct AcceptedChanges: Sendable {
    public static let fileName = "accepted-changes.json"
    public let entries: [AcceptedChange]

    public static let none = AcceptedChanges(entries: [])

    public init(entries: [AcceptedChange]) {
        self.entries = entries
    }

    /// Reads the file's text; a malformed entry is an error naming the file and the field.
    public init(text: String) throws(ContractError) {
        let file = Self.fileName
        let root: JSONValue
        do {
            root = try JSONDocument(text, limits: .unlimited).value
        } catch {
            throw ContractError(file: file, message: "not valid JSON: \(error)")
        }
        guard let list = root["accepted"]?.arrayValue else {
            throw ContractError(file: file, pointer: "/accepted", message: "expected an array of accepted changes")
        }
        var entries: [AcceptedChange] = []
        for (index, entry) in list.enumerated() {
            let at = "/accepted/\(index)"
            func text(_ key: String, required: Bool = true) throws(ContractError) -> String? {
                guard let value = entry[key] else {
                    if required { throw ContractError(file: file, pointer: at, message: "missing \"\(key)\"") }
                    return nil
                }
                guard let string = value.stringValue else {
                    throw ContractError(file: file, pointer: "\(at)/\(key)", message: "expected a string")
                }
                return string
            }
            guard entry.objectValue != nil else { throw ContractError(file: file, pointer: at, message: "expected an object") }
            let kindName = try text("kind")!
            guard let kind = FindingKind(rawValue: kindName) else {
                throw ContractError(file: file, pointer: "\(at)/kind", message: "unknown finding kind \"\(kindName)\" (the kinds are listed in docs/contracts.md)")
            }
            func version() throws(ContractError) -> Int? {
                guard let version = entry["version"] else { return nil }
                guard let number = version.integerValue, number >= 1 else {
                    throw ContractError(file: file, pointer: "\(at)/version", message: "expected a version number")
                }
                return Int(number)
            }
            let subject: Subject
            if let action = try text("action", required: false) {
                subject = try version().map { .actionVersion(action: action, version: $0) } ?? .action(action)
            } else if let event = try text("event", required: false) {
                subject = try version().map { .eventVersion(event: event, version: $0) } ?? .event(event)
            } else if let schema = try text("schema", required: false) {
                subject = .schema(file: schema)
            } else if let route = try text("route", required: false) {
                subject = .route(route)
            } else {
                subject = .manifest
            }
            let expires = try text("expires")!
            guard Self.isDate(expires) else {
                throw ContractError(file: file, pointer: "\(at)/expires", message: "\"\(expires)\" is not a date YYYY-MM-DD")
            }
            let reason = try text("reason")!
            guard !reason.allSatisfy(\.isWhitespace) else {
                throw ContractError(file: file, pointer: "\(at)/reason", message: "say why the change is accepted")
            }
            entries.append(AcceptedChange(kind: kind, subject: subject, schemaPointer: try text("schemaPointer", required: false) ?? "",
                                          reason: reason, expires: expires, pointer: at))
        }
        self.entries = entries
    }

    /// Whether the text is a date YYYY-MM-DD.
    public static func isDate(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let month = Int(parts[1]), let day = Int(parts[2]), Int(parts[0]) != nil else { return false }
        return (1...12).contains(month) && (1...31).contains(day)
    }
}
