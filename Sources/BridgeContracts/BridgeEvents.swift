import JSONCore

/// One version of an app-to-page event: the schema of the whole page-bound message
/// `{"v":1,"event":NAME,"version":N,"payload":{...}}` that the app sends unprompted.
public struct EventContract: Sendable, Equatable {
    public let event: String
    public let version: Int
    /// The schema file inside schemas/ (e.g. "login_state_changed.v1.json"); for a built-in event,
    /// the name `BuiltInEvents` registers its schema under.
    public let schema: String

    public init(event: String, version: Int, schema: String) {
        self.event = event
        self.version = version
        self.schema = schema
    }
}

/// An event the app sends to its pages, in every version the contracts declare.
public struct BridgeEvent: Sendable, Equatable {
    public let name: String
    public let title: String
    /// Versions in ascending order.
    public let versions: [EventContract]
    /// Part of the bridge's own set (like the `capabilities` request), not of a contract set.
    public let isBuiltIn: Bool

    public init(name: String, title: String, versions: [EventContract], isBuiltIn: Bool = false) {
        self.name = name
        self.title = title
        self.versions = versions.sorted { $0.version < $1.version }
        self.isBuiltIn = isBuiltIn
    }

    public func contract(version: Int) -> EventContract? {
        versions.first { $0.version == version }
    }
}

/// The events every host sends, whatever the contracts: `navigation_completed`, which tells a
/// page how a navigation it asked for ended when that came after the request's reply (it waited
/// for login or for the app to be ready, or took a slow step).
public enum BuiltInEvents {
    public static let navigationCompleted = "navigation_completed"
    /// The envelope version of every page-bound message.
    public static let envelopeVersion = 1

    public static let all: [BridgeEvent] = [
        BridgeEvent(name: navigationCompleted, title: "A navigation the page asked for ended",
                    versions: [EventContract(event: navigationCompleted, version: 1, schema: navigationCompletedV1File)],
                    isBuiltIn: true),
    ]

    static let navigationCompletedV1File = "builtin/navigation_completed.v1.json"

    /// The built-in schemas by file name, with the URI each is registered under.
    public static func schema(file: String) -> JSONValue? {
        // Not a ternary: JSONValue takes a nil literal (as null), which would never be nil.
        guard file == navigationCompletedV1File else { return nil }
        return navigationCompletedV1
    }

    public static func schemaURI(file: String) -> String {
        "urn:bridgekit:" + file
    }

    /// The outcomes are the audit log's names (`EnvelopeOutcome.name`) of the outcomes that end a
    /// navigation.
    static let navigationCompletedV1: JSONValue = {
        let text = """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "urn:bridgekit:builtin/navigation_completed.v1.json",
          "title": "navigation_completed v1",
          "description": "A navigation that a request started ended after the request's reply: it waited for login or for the app to be ready, took a slow step, or was given up.",
          "type": "object",
          "required": ["v", "event", "version", "payload"],
          "additionalProperties": false,
          "properties": {
            "v": {"const": 1},
            "event": {"const": "navigation_completed"},
            "version": {"const": 1},
            "payload": {
              "type": "object",
              "required": ["requestId", "route", "outcome"],
              "additionalProperties": false,
              "properties": {
                "requestId": {"type": "string", "minLength": 1, "maxLength": 128, "description": "The id of the request whose navigation ended."},
                "route": {"type": "string", "minLength": 1, "description": "The route the request was mapped to."},
                "outcome": {
                  "enum": ["navigated", "opened_app", "opened_fallback", "failed", "refused", "duplicate", "replaced_while_pending", "cancelled_by_logout", "cancelled"],
                  "description": "How it ended, in the audit log's names."
                },
                "reason": {"type": "string", "minLength": 1, "description": "Why it failed or was refused (the failure's code), when it did."}
              }
            }
          },
          "examples": [
            {"v": 1, "event": "navigation_completed", "version": 1, "payload": {"requestId": "7c0e2f1a-3b7d-4c55-9e2a-1f4b8d6a9c01", "route": "applyForm", "outcome": "navigated"}},
            {"v": 1, "event": "navigation_completed", "version": 1, "payload": {"requestId": "5d1f6b2e-8a4c-4e1b-b7d3-0c9e2a6f4b12", "route": "vehicleDetail", "outcome": "failed", "reason": "step_timeout"}}
          ]
        }
        """
        // A literal of this file: it parses, and the tests compile it.
        return try! JSONValue(parsing: text)
    }()
}

extension BridgeManifest {
    /// The event name reserved for the built-in event.
    public static var reservedEventNames: [String] { BuiltInEvents.all.map(\.name) }

    /// The events a host of these contracts sends: the built-in ones, then the manifest's.
    public var allEvents: [BridgeEvent] { BuiltInEvents.all + events }

    public func event(named name: String) -> BridgeEvent? {
        allEvents.first { $0.name == name }
    }

    /// `"events": {NAME: {"title", "versions": {"N": {"schema"}}}}`; a name of the built-in set is refused.
    static func loadEvents(_ reader: FieldReader?) throws(ContractError) -> [BridgeEvent] {
        guard let reader else { return [] }
        var events: [BridgeEvent] = []
        for (name, _) in try reader.object() where name != "$comment" {
            guard !reservedEventNames.contains(name) else {
                throw reader.fail("the event name \"\(name)\" is reserved for the bridge's built-in event", at: name)
            }
            let entry = try reader.child(name)
            let versionsReader = try entry.child("versions")
            var versions: [EventContract] = []
            for (key, _) in try versionsReader.object() {
                guard let version = Int(key), version >= 1, String(version) == key else {
                    throw versionsReader.fail("version keys must be positive integers", at: key)
                }
                versions.append(EventContract(event: name, version: version, schema: try versionsReader.child(key).child("schema").string()))
            }
            guard !versions.isEmpty else { throw entry.fail("an event needs at least one version", at: "versions") }
            events.append(BridgeEvent(name: name, title: try entry.optionalChild("title")?.string() ?? name, versions: versions))
        }
        return events
    }
}

extension ContractSet {
    /// The schema document of an event version: a file of the set, or a built-in one.
    public func eventSchema(_ contract: EventContract) -> JSONValue? {
        BuiltInEvents.schema(file: contract.schema) ?? schema(file: contract.schema)
    }

    /// The examples of an event version's schema: whole page-bound messages.
    public func eventExamples(_ contract: EventContract) -> [JSONValue] {
        eventSchema(contract)?["examples"]?.arrayValue ?? []
    }
}
