import BridgeContracts
import JSONCore

/// validators.js and validators.d.ts: the contract schemas compiled to plain functions
/// (`ValidatorCompiler`), `validate(message)` that picks the contract by action and version as
/// the app does, and one function per action version. The dispatch itself is hand-written
/// (js/src/schema-runtime.js); this file fills in only what the schemas decide.
struct ValidatorEmitter {
    let model: ShimModel
    let contracts: ContractSet
    let header: Header

    /// Helpers of js/src/schema-runtime.js the compiled functions may call.
    private static let helpers = [
        "FORMATS", "codePointLength", "equal", "equalPair", "hasOwn", "includes", "isMultipleOf", "isObject", "jsonType",
        "pointerToken", "quote", "report",
    ]

    /// The keywords of a contract set the generator cannot compile, each with its JSON Pointer.
    static func problems(for contracts: ContractSet) -> [CodegenError] {
        var compiler = ValidatorCompiler(contracts: contracts)
        _ = compiler.root(file: contracts.manifest.envelopeSchema)
        for action in contracts.manifest.actions {
            for version in action.versions where contracts.schema(file: version.schema) != nil {
                _ = compiler.root(file: version.schema)
            }
        }
        for contract in contracts.manifest.events.flatMap(\.versions) where contracts.schema(file: contract.schema) != nil {
            _ = compiler.root(file: contract.schema)
        }
        return compiler.problems
    }

    private func functionName(_ action: ShimModel.Action, _ version: ShimModel.Version) -> String {
        "\(action.method)V\(version.version)"
    }

    func script() throws(CodegenError) -> String {
        var compiler = ValidatorCompiler(contracts: contracts)
        let envelope = compiler.root(file: model.envelopeSchemaFile)
        var roots: [String: String] = [:]
        for action in model.actions {
            for version in action.versions {
                roots[functionName(action, version)] = compiler.root(file: version.schemaFile)
            }
        }
        var eventRoots: [String: String] = [:]
        for event in model.events {
            for version in event.versions { eventRoots[Self.eventKey(event.name, version.version)] = compiler.root(file: version.schemaFile) }
        }
        if let first = compiler.problems.first {
            let more = compiler.problems.count - 1
            throw CodegenError(file: first.file, pointer: first.pointer,
                               message: first.message + (more > 0 ? " (and \(more) more; bridgectl lint lists them)" : ""))
        }
        let code = compiler.functions.joined(separator: "\n\n")
        let used = Self.helpers.filter { code.contains($0 + "(") || code.contains($0 + "[") }
        var out = header.comment(for: "validators.js")
        out += "//\n"
        out += "// Plain code from the schemas: no eval, no new Function (it runs under a strict Content Security\n"
        out += "// Policy), nothing loaded at run time. A page loads this module only when it asks for\n"
        out += "// validation (createBridge({ validate: true })); the fake host uses it by default.\n\n"
        out += "import { " + (["checkWhole", "validateMessage"] + used).sorted().joined(separator: ", ")
        out += " } from \"./\(JavaScriptGenerator.runtimeFolder)/schema-runtime.js\";\n\n"
        if !compiler.constants.isEmpty { out += compiler.constants.joined(separator: "\n") + "\n\n" }
        out += code + "\n\n"
        out += "/** The compiled schema of each action version, by action name and version. */\n"
        out += "const ACTIONS = {\n"
        out += model.actions.map { action in
            let versions = action.versions.map { "\"\($0.version)\": \(roots[functionName(action, $0)]!)" }.joined(separator: ", ")
            return "  \(ValidatorCompiler.literal(action.name)): { \(versions) }"
        }.joined(separator: ",\n")
        out += "\n};\n\n"
        out += """
        /**
         * Validates a whole message as the app does: the contract of its action and version, and when
         * that fails, the envelope first (INVALID_MESSAGE), then the action (UNKNOWN_ACTION), the
         * version (UNSUPPORTED_VERSION) and the action's schema (INVALID_PARAMS). Returns
         * {valid, errors: [{instanceLocation, keywordLocation, absoluteKeywordLocation, keyword, error}]},
         * and for an invalid message the reply code and a sentence.
         */
        export function validate(message) {
          return validateMessage(\(envelope), ACTIONS, message);
        }

        /** The message against schemas/\(model.envelopeSchemaFile) alone. */
        export function envelope(message) {
          return checkWhole(\(envelope), message);
        }

        """
        out += eventValidators(eventRoots)
        for action in model.actions {
            for version in action.versions {
                out += "\n/** \(action.name) v\(version.version) (\(action.title)): the whole message against schemas/\(version.schemaFile). */\n"
                out += "export function \(functionName(action, version))(message) {\n"
                out += "  return checkWhole(\(roots[functionName(action, version)]!), message);\n}\n"
            }
        }
        return out
    }

    /// "event:NAME@N": the key the runtime's events.js looks a check up by.
    static func eventKey(_ name: String, _ version: Int) -> String {
        "event:\(name)@\(version)"
    }

    /// Where an event version's schema is, for a comment: schemas/FILE, or the built-in one.
    private static func eventSchemaName(_ event: ShimModel.Event, _ file: String) -> String {
        event.isBuiltIn ? "the built-in schema " + BuiltInEvents.schemaURI(file: file) : "schemas/" + file
    }

    /// `eventValidators`: one check per event version, of the whole page-bound message.
    private func eventValidators(_ roots: [String: String]) -> String {
        var out = "\n/**\n * The app's events, by \"event:NAME@N\": each checks the whole page-bound message\n"
        out += " * ({v, event, version, payload}) against its event version's schema. With validation on, the\n"
        out += " * bridge drops an event its check rejects (stats.invalidEvents).\n */\n"
        out += "export const eventValidators = Object.freeze({\n"
        out += model.events.flatMap { event in
            event.versions.map { version in
                let key = Self.eventKey(event.name, version.version)
                let doc = DocComment.lines(["\(event.name) v\(version.version) (\(event.title)): \(Self.eventSchemaName(event, version.schemaFile))."], indent: "  ")
                return doc.joined(separator: "\n") + "\n  \(ValidatorCompiler.literal(key)): function (message) { return checkWhole(\(roots[key]!), message); }"
            }
        }.joined(separator: ",\n")
        out += "\n});\n"
        return out
    }

    var declarations: String {
        var out = header.comment(for: "validators.d.ts") + "\n"
        out += "import type { ValidationResult } from \"./\(JavaScriptGenerator.runtimeFolder)/schema-runtime.js\";\n"
        out += "export type { ValidationError, ValidationResult } from \"./\(JavaScriptGenerator.runtimeFolder)/schema-runtime.js\";\n\n"
        out += "/** Validates a whole message as the app does (contract by action and version, envelope first). */\n"
        out += "export declare function validate(message: unknown): ValidationResult;\n"
        out += "/** The message against schemas/\(model.envelopeSchemaFile) alone. */\n"
        out += "export declare function envelope(message: unknown): ValidationResult;\n"
        out += "/** The app's events, by \"event:NAME@N\": each checks the whole page-bound message {v, event, version, payload}. */\n"
        out += "export declare const eventValidators: {\n"
        for event in model.events {
            for version in event.versions {
                out += DocComment.lines(["\(event.name) v\(version.version): \(Self.eventSchemaName(event, version.schemaFile))."], indent: "  ").map { $0 + "\n" }.joined()
                out += "  readonly \(ValidatorCompiler.literal(Self.eventKey(event.name, version.version))): (message: unknown) => ValidationResult;\n"
            }
        }
        out += "};\n"
        for action in model.actions {
            for version in action.versions {
                out += "/** \(action.name) v\(version.version): the whole message against schemas/\(version.schemaFile). */\n"
                out += "export declare function \(functionName(action, version))(message: unknown): ValidationResult;\n"
            }
        }
        return out
    }
}
