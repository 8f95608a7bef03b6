import BridgeContracts
import JSONCore
import SchemaCheck

/// The verdict of `validate` on one document, in the form both output formats print.
struct CheckOutcome: Sendable {
    var valid: Bool
    /// e.g. "valid (apply v1)" or "unknown action ..." ; printed when there are no units.
    var summary: String
    var action: String?
    var version: Int?
    /// The host's reply code for this message (contract mode only).
    var code: String?
    var units: [OutputUnit]
    /// --schema: the check could not finish (a loop it enters, a limit); exit 2, not 1.
    var couldNotFinish = false
}

/// What `validate` checks documents against: the contracts (picked by action and version), or
/// one schema file given with --schema. Immutable and Sendable so --ndjson can share it across threads.
protocol MessageChecker: Sendable {
    var parseLimits: ParseLimits { get }
    func check(_ document: JSONDocument) -> CheckOutcome
}

struct ContractChecker: MessageChecker {
    let compiled: CompiledContracts

    var parseLimits: ParseLimits {
        let limits = compiled.contracts.manifest.limits
        return ParseLimits(maxBytes: limits.maxMessageBytes, maxDepth: limits.maxDepth)
    }

    func check(_ document: JSONDocument) -> CheckOutcome {
        let verdict = compiled.check(document)
        // Only two members are read: the message is never converted as a whole.
        return CheckOutcome(
            valid: verdict.isValid,
            summary: verdict.summary,
            action: document.member("action")?.stringValue,
            version: document.member("version")?.integerValue.flatMap { Int(exactly: $0) },
            code: verdict.errorCode,
            units: verdict.units
        )
    }
}

struct SchemaFileChecker: MessageChecker {
    let schema: CompiledSchema
    let parseLimits: ParseLimits

    func check(_ document: JSONDocument) -> CheckOutcome {
        if schema.isValid(document) {
            return CheckOutcome(valid: true, summary: "valid", units: [])
        }
        let result = schema.validate(document)
        let incomplete = result.status == .incomplete
        return CheckOutcome(valid: result.isValid, summary: incomplete ? "validation could not finish" : "invalid",
                            units: result.units, couldNotFinish: incomplete)
    }
}

extension CheckOutcome {
    /// Text lines: `file: /payload/slug: "New Promo" does not match ... (pattern)`.
    func textLines(name: String) -> [String] {
        if valid || units.isEmpty { return ["\(name): \(summary)"] }
        return units.map { unit in
            let location = unit.instanceLocation.isEmpty ? "(root)" : unit.instanceLocation
            return "\(name): \(location): \(unit.error) (\(unit.keyword))"
        }
    }

    func json(name: String) -> JSONValue {
        var object = JSONObject()
        object["file"] = .string(name)
        object["valid"] = .bool(valid)
        if let action { object["action"] = .string(action) }
        if let version { object["version"] = .integer(Int64(version)) }
        if let code { object["code"] = .string(code) }
        object["message"] = .string(summary)
        object["errors"] = .array(units.map(\.json))
        return .object(object)
    }
}
