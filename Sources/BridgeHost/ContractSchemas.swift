import SchemaCheck
import BridgeContracts

/// Every schema of the contract set registered under its `$id` and compiled once, when the host
/// is created: the envelope and one schema per action version. Validation never recompiles.
struct ContractSchemas {
    let envelope: CompiledSchema
    /// "apply.v1.json" -> compiled.
    let actions: [String: CompiledSchema]
    let anyActionAllowsFrames: Bool

    init(contracts: ContractSet) throws(BridgeHostSetupError) {
        let registry = SchemaRegistry()
        do {
            for (file, document) in contracts.schemas {
                try registry.add(document, uri: contracts.schemaURI(file: file))
            }
        } catch {
            throw BridgeHostSetupError(message: "cannot register the contract schemas: \(error)")
        }
        func compile(_ file: String) throws(BridgeHostSetupError) -> CompiledSchema {
            guard contracts.schema(file: file) != nil else {
                throw BridgeHostSetupError(message: "schemas/\(file) is named by the manifest but missing")
            }
            do {
                return try registry.compile(uri: contracts.schemaURI(file: file))
            } catch {
                throw BridgeHostSetupError(message: "schemas/\(file) does not compile: \(error)")
            }
        }
        envelope = try compile(contracts.manifest.envelopeSchema)
        var actions: [String: CompiledSchema] = [:]
        var frames = false
        for action in contracts.manifest.actions {
            for contract in action.versions {
                if actions[contract.schema] == nil { actions[contract.schema] = try compile(contract.schema) }
                frames = frames || contract.allowFrames
            }
        }
        self.actions = actions
        anyActionAllowsFrames = frames
    }

    func envelopeErrors(_ message: ParsedMessage) -> [JSONValue] {
        Self.errors(envelope, message)
    }

    func actionErrors(_ message: ParsedMessage, contract: ActionContract) -> [JSONValue] {
        guard let schema = actions[contract.schema] else {
            return [["error": .string("no compiled schema \(contract.schema)")]]
        }
        return Self.errors(schema, message)
    }

    /// The fast boolean path first; the full output units only for a message that fails.
    private static func errors(_ schema: CompiledSchema, _ message: ParsedMessage) -> [JSONValue] {
        if schema.isValid(message.document) { return [] }
        let units = schema.validate(message.document)
        guard !units.isEmpty else {
            return [["instanceLocation": "", "keywordLocation": "", "error": "validation could not finish"]]
        }
        return units.map { unit in
            [
                "instanceLocation": .string(unit.instanceLocation),
                "keywordLocation": .string(unit.keywordLocation),
                "absoluteKeywordLocation": .string(unit.absoluteKeywordLocation),
                "keyword": .string(unit.keyword),
                "error": .string(unit.error),
            ]
        }
    }
}
