import JSONCore
import SchemaCheck

/// Every schema of a contract set registered under its URI and compiled once: the envelope, one
/// schema per action version, and the result schema of each custom action version. Immutable, so one instance serves many threads.
public final class CompiledContracts: Sendable {
    public let contracts: ContractSet
    public let envelope: CompiledSchema
    /// Schema file name (e.g. "apply.v1.json") -> compiled schema.
    private let schemas: [String: CompiledSchema]
    /// (action, version) -> contract and schema, scanned in order: a handful of entries, cheaper
    /// per message than hashing the action name twice.
    private let dispatch: [DispatchEntry]
    /// Event name and version -> the schema of its page-bound message (built-in events included).
    private let eventSchemas: [EventKey: CompiledSchema]

    private struct EventKey: Hashable, Sendable {
        let event: String
        let version: Int
    }

    private struct DispatchEntry: Sendable {
        let actionUTF8: [UInt8]
        let version: Int64
        let contract: ActionContract
        let schema: CompiledSchema
    }

    public init(contracts: ContractSet, options: SchemaOptions = SchemaOptions()) throws(ContractError) {
        self.contracts = contracts
        let registry = SchemaRegistry(includeMetaSchemas: contracts.schemas.contains { Self.needsMetaSchemas($0.document) })
        for (file, document) in contracts.schemas {
            do {
                try registry.add(document, uri: contracts.schemaURI(file: file))
            } catch {
                throw ContractError(file: "schemas/\(file)", message: "cannot be registered: \(error)")
            }
        }
        for event in BuiltInEvents.all {
            for contract in event.versions {
                // A literal of BuiltInEvents, registered under its own URN.
                try? registry.add(BuiltInEvents.schema(file: contract.schema)!, uri: BuiltInEvents.schemaURI(file: contract.schema))
            }
        }
        // A contract may require format assertion; a caller may ask for it on top.
        var effectiveOptions = options
        effectiveOptions.assertFormat = options.assertFormat || contracts.manifest.assertFormat
        func compile(_ file: String, namedBy pointer: String) throws(ContractError) -> CompiledSchema {
            guard contracts.schema(file: file) != nil else {
                throw ContractError(file: "manifest.json", pointer: pointer, message: "names schemas/\(file), which does not exist")
            }
            do {
                return try registry.compile(uri: contracts.schemaURI(file: file), options: effectiveOptions)
            } catch {
                throw ContractError(file: "schemas/\(file)", message: "does not compile: \(error)")
            }
        }
        envelope = try compile(contracts.manifest.envelopeSchema, namedBy: "/envelopeSchema")
        var schemas: [String: CompiledSchema] = [:]
        for action in contracts.manifest.actions {
            for contract in action.versions where schemas[contract.schema] == nil {
                schemas[contract.schema] = try compile(
                    contract.schema, namedBy: "/actions/\(JSONPointer.escape(action.name))/versions/\(contract.version)/schema")
            }
        }
        for action in contracts.manifest.actions {
            for contract in action.versions {
                guard let result = contract.resultSchema, schemas[result] == nil else { continue }
                schemas[result] = try compile(
                    result, namedBy: "/actions/\(JSONPointer.escape(action.name))/versions/\(contract.version)/result")
            }
        }
        self.schemas = schemas
        var eventSchemas: [EventKey: CompiledSchema] = [:]
        for event in contracts.manifest.allEvents {
            for contract in event.versions {
                let key = EventKey(event: event.name, version: contract.version)
                if event.isBuiltIn {
                    do {
                        eventSchemas[key] = try registry.compile(uri: BuiltInEvents.schemaURI(file: contract.schema), options: effectiveOptions)
                    } catch {
                        throw ContractError(file: contract.schema, message: "the built-in event schema does not compile: \(error)")
                    }
                } else {
                    eventSchemas[key] = try compile(
                        contract.schema, namedBy: "/events/\(JSONPointer.escape(event.name))/versions/\(contract.version)/schema")
                }
            }
        }
        self.eventSchemas = eventSchemas
        dispatch = contracts.manifest.actions.flatMap { action in
            action.versions.map {
                DispatchEntry(actionUTF8: Array(action.name.utf8), version: Int64($0.version), contract: $0,
                              schema: schemas[$0.schema]!)
            }
        }
    }

    /// The compiled schema of an event version's page-bound message; nil when the contracts (and
    /// the built-in set) have no such event version.
    public func eventSchema(_ event: String, version: Int) -> CompiledSchema? {
        eventSchemas[EventKey(event: event, version: version)]
    }

    /// The compiled result schema of a custom action version; nil for a route-handled version.
    public func resultSchema(for contract: ActionContract) -> CompiledSchema? {
        contract.resultSchema.flatMap { schemas[$0] }
    }

    /// Whether a schema refers to an official meta-schema (`SchemaRegistry.needsMetaSchemas`).
    /// Registering the meta-schemas is a measurable part of a one-message `validate`, and
    /// contracts rarely need them.
    static func needsMetaSchemas(_ schema: JSONValue) -> Bool {
        SchemaRegistry.needsMetaSchemas(schema)
    }

    /// The compiled schema of one action version.
    public func schema(for contract: ActionContract) -> CompiledSchema {
        schemas[contract.schema]!
    }

    /// The fast boolean path alone: true exactly when `check` would say `.valid`, without
    /// building any error output (bulk validation asks this first, per line).
    public func isValid(_ message: JSONDocument) -> Bool {
        // Per line of a bulk run: the action's bytes are compared where they lie, no String made.
        guard let version = message.member("version")?.integerValue,
              let entry = message.withStringMember("action", { dispatchEntry(action: $0, version: version) }) ?? nil
        else { return false }
        return entry.schema.isValid(message)
    }

    private func entry(action name: String?, version: Int64?) -> (contract: ActionContract, schema: CompiledSchema)? {
        guard let name, let version, let entry = dispatchEntry(action: name.utf8, version: version) else { return nil }
        return (entry.contract, entry.schema)
    }

    /// Bytes, not String equality (which would also match canonically equivalent text), in
    /// `isValid` and `check` alike.
    private func dispatchEntry(action: some Sequence<UInt8>, version: Int64) -> DispatchEntry? {
        dispatch.first { $0.version == version && $0.actionUTF8.elementsEqual(action) }
    }

    /// What a parsed message is under the contracts, in the host's order: envelope, action,
    /// version, payload. The fast boolean path decides valid messages; full output units are
    /// computed only for a message that fails.
    public func check(_ message: JSONDocument) -> MessageVerdict {
        // Only the two members that pick the contract are converted: the whole message never
        // becomes a JSONValue, which bulk validation (`validate --ndjson`) would pay per line.
        let actionName = message.member("action")?.stringValue
        let versionNumber = message.member("version")?.integerValue
        if let entry = entry(action: actionName, version: versionNumber), entry.schema.isValid(message) {
            return .valid(entry.contract)
        }
        return failedVerdict(message, action: actionName, version: versionNumber)
    }

    /// `check` for a message that already failed `isValid`: the same verdict, without asking
    /// the fast path again (bulk validation asks `isValid` first).
    public func checkFailed(_ message: JSONDocument) -> MessageVerdict {
        failedVerdict(message, action: message.member("action")?.stringValue,
                      version: message.member("version")?.integerValue)
    }

    private func failedVerdict(_ message: JSONDocument, action actionName: String?, version versionNumber: Int64?)
        -> MessageVerdict
    {
        // Most failing messages have a sound envelope: the fast path says so without output.
        if envelope.check(message) != .valid {
            let envelopeResult = envelope.validate(message)
            if !envelopeResult.isValid { return .invalidEnvelope(envelopeResult) }
        }
        let name = actionName ?? ""
        guard let action = contracts.manifest.action(named: name) else {
            return .unknownAction(name, known: contracts.manifest.actions.map(\.name))
        }
        let version = Int(versionNumber ?? 0)
        guard let contract = action.contract(version: version) else {
            return .unsupportedVersion(action: name, version: version, supported: action.versions.map(\.version))
        }
        let result = schema(for: contract).validate(message)
        return result.isValid ? .valid(contract) : .invalidPayload(contract, result)
    }
}

/// The contract's verdict on one message.
public enum MessageVerdict: Sendable {
    case valid(ActionContract)
    /// The envelope itself is broken (reply code INVALID_MESSAGE).
    case invalidEnvelope(ValidationResult)
    case unknownAction(String, known: [String])
    case unsupportedVersion(action: String, version: Int, supported: [Int])
    /// The envelope is fine but the action's schema is not met (reply code INVALID_PARAMS).
    case invalidPayload(ActionContract, ValidationResult)

    public var isValid: Bool {
        if case .valid = self { return true }
        return false
    }

    /// The reply error code the host answers with, nil when valid.
    public var errorCode: String? {
        switch self {
        case .valid: return nil
        case .invalidEnvelope: return "INVALID_MESSAGE"
        case .unknownAction: return "UNKNOWN_ACTION"
        case .unsupportedVersion: return "UNSUPPORTED_VERSION"
        case .invalidPayload: return "INVALID_PARAMS"
        }
    }

    /// The schema errors, if the verdict came from a schema.
    public var units: [OutputUnit] {
        switch self {
        case .invalidEnvelope(let result), .invalidPayload(_, let result): return result.units
        default: return []
        }
    }

    /// One sentence for the verdicts that are not schema errors.
    public var summary: String {
        switch self {
        case .valid(let contract): return "valid (\(contract.action) v\(contract.version))"
        case .invalidEnvelope: return "the envelope does not match the contract"
        case .unknownAction(let name, let known):
            return "unknown action \"\(name)\" (known: \(known.joined(separator: ", ")))"
        case .unsupportedVersion(let action, let version, let supported):
            return "\(action) has no version \(version) (supported: \(supported.map(String.init).joined(separator: ", ")))"
        case .invalidPayload(let contract, _): return "does not match \(contract.action) v\(contract.version)"
        }
    }
}
