import JSONCore
import BridgeContracts
import SchemaCheck

/// The contract schemas as the host uses them: compiled once (`CompiledContracts`, every schema
/// registered under its `$id`), checked on the fast boolean path, and turned into reply details
/// (every output unit) only for a message that fails.
struct ContractSchemas {
    let compiled: CompiledContracts
    let anyActionAllowsFrames: Bool

    init(compiled: CompiledContracts) {
        self.compiled = compiled
        anyActionAllowsFrames = compiled.contracts.manifest.actions.contains { $0.versions.contains(where: \.allowFrames) }
    }

    /// True when the message is valid for `contract` as a whole. The action schemas include the
    /// envelope, so this one fast check also clears the envelope step for the common valid message.
    func isValid(_ message: ParsedMessage, for contract: ActionContract) -> Bool {
        compiled.schema(for: contract).isValid(message.document)
    }

    func envelopeErrors(_ message: ParsedMessage) -> [JSONValue] {
        Self.errors(compiled.envelope, message)
    }

    func actionErrors(_ message: ParsedMessage, contract: ActionContract) -> [JSONValue] {
        Self.errors(compiled.schema(for: contract), message)
    }

    private static func errors(_ schema: CompiledSchema, _ message: ParsedMessage) -> [JSONValue] {
        if schema.isValid(message.document) { return [] }
        let result = schema.validate(message.document)
        guard !result.units.isEmpty else {
            return [["instanceLocation": "", "keywordLocation": "", "keyword": "", "error": "validation could not finish"]]
        }
        return result.units.map(\.json)
    }
}
