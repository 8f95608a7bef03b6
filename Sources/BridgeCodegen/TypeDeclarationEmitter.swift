import BridgeContracts
import JSONCore

/// bridge.d.ts: payload and message types converted from the JSON Schemas and one typed function
/// per action and version. The runtime's own types (BridgeError, BridgeResult, options) are
/// hand-written in js/src/bridge-runtime.d.ts and re-exported.
struct TypeDeclarationEmitter {
    let model: ShimModel
    let contracts: ContractSet
    let header: Header

    static let envelopeTypeName = "BridgeEnvelope"
    static let campaignTypeName = "CampaignMetadata"

    private func payloadName(_ action: ShimModel.Action, _ version: ShimModel.Version) -> String {
        TypeScriptNames.pascalCase(action.name) + "V\(version.version)Payload"
    }

    private func messageName(_ action: ShimModel.Action, _ version: ShimModel.Version) -> String {
        TypeScriptNames.pascalCase(action.name) + "V\(version.version)Message"
    }

    private func resultName(_ action: ShimModel.Action, _ version: ShimModel.Version) -> String {
        TypeScriptNames.pascalCase(action.name) + "V\(version.version)Result"
    }

    /// What a call of this version resolves with: the navigation result, or the custom action's
    /// result object exactly as the app replies it (no route, no url).
    private func resolvedType(_ action: ShimModel.Action, _ version: ShimModel.Version) -> String {
        if case .custom = version.answer { return resultName(action, version) }
        return "BridgeResult"
    }

    /// The resolved type of `send` and `offer`, which take any action: one of every version's.
    private var anyResolvedType: String {
        var types = ["BridgeResult"]
        for action in model.actions {
            for version in action.versions where !types.contains(resolvedType(action, version)) { types.append(resolvedType(action, version)) }
        }
        return types.joined(separator: " | ")
    }

    func text() throws(CodegenError) -> String {
        let plain = TypeScriptSchemaConverter(contracts: contracts)
        var names: [SchemaLocation: String] = [
            SchemaLocation(file: model.envelopeSchemaFile, pointer: ""): Self.envelopeTypeName,
            SchemaLocation(file: model.campaignSchemaFile, pointer: ""): Self.campaignTypeName,
        ]
        // Where each version's payload schema lives (its $ref target, or the property itself).
        var payloadLocations: [String: SchemaLocation] = [:]
        for action in model.actions {
            for version in action.versions {
                let location = try plain.referenceTarget(file: version.schemaFile, pointer: "/properties/payload")
                    ?? SchemaLocation(file: version.schemaFile, pointer: "/properties/payload")
                payloadLocations[payloadName(action, version)] = location
                names[location] = payloadName(action, version)
            }
        }
        let converter = TypeScriptSchemaConverter(contracts: contracts, namedLocations: names)

        let runtime = "./\(JavaScriptGenerator.runtimeFolder)/bridge-runtime.js"
        var out = header.comment(for: "bridge.d.ts") + "\n"
        out += "import type { BridgeCore, BridgeOptionsOf, BridgeResult, CallOptions, ContractTable, NotifyOptions, OfferedPayloads } from \"\(runtime)\";\n"
        out += "export type {\n  BridgeCore, BridgeErrorCode, BridgeErrorDetail, BridgeEvents, BridgeOptionsOf, BridgeResult, BridgeStats, CallOptions,\n"
        out += "  CampaignWarning, Capabilities, ContractTable, ContractVersion, EventMeta, NavigationCompletedPayload, NavigationOutcome,\n"
        out += "  NotifyOptions, OfferedPayloads,\n} from \"\(runtime)\";\n"
        out += "export { BridgeError, ERROR_CODES, encodeComponent } from \"\(runtime)\";\n\n"
        out += "// Types converted from the JSON Schemas. Constraints TypeScript cannot express are in the\n"
        out += "// JSDoc tags (@pattern, @maxLength, @minimum, @integer...); the app validates them.\n\n"
        out += try alias(Self.campaignTypeName, converter.render(file: model.campaignSchemaFile))
        out += try alias(Self.envelopeTypeName, converter.render(file: model.envelopeSchemaFile))
        for action in model.actions {
            for version in action.versions {
                let location = payloadLocations[payloadName(action, version)]!
                // Rendered at the payload's own location, so it is written out, not named.
                var payload = try plain.render(file: location.file, pointer: location.pointer)
                if payload.docs.isEmpty { payload.docs = ["Payload of \(action.name) v\(version.version) (\(action.title))."] }
                out += alias(payloadName(action, version), payload)
                var message = try converter.render(file: version.schemaFile)
                message.docs = ["The whole message of \(action.name) v\(version.version), as validated by schemas/\(version.schemaFile)."]
                out += alias(messageName(action, version), message)
                if case .custom(let resultFile, _) = version.answer {
                    var result = try plain.render(file: resultFile)
                    result.docs = ["What \(action.name) v\(version.version) resolves with: the app's result, as schemas/\(resultFile) allows it (the app checks it before replying)."]
                    out += alias(resultName(action, version), result)
                }
            }
        }
        out += try eventTypes(plain, runtime: runtime)
        out += "/** Payload types by action and version, for `bridge.send`. */\n"
        out += "export interface ActionPayloads {\n"
        for action in model.actions {
            let versions = action.versions.map { "\($0.version): \(payloadName(action, $0))" }.joined(separator: "; ")
            out += "  \(TypeScriptNames.propertyKey(action.name)): { \(versions) };\n"
        }
        out += "}\n\nexport type ActionName = keyof ActionPayloads;\n\n"
        // The versions that may go as a notification (their schema does not require an id), so
        // send and offer refuse { notify: true } for one that expects a reply.
        out += "/** The versions of each action that may be sent with { notify: true } (never: none). */\n"
        out += "export interface NotifiableVersions {\n"
        for action in model.actions {
            let versions = action.versions.filter { !$0.requiresId }.map { String($0.version) }
            out += "  \(TypeScriptNames.propertyKey(action.name)): \(versions.isEmpty ? "never" : versions.joined(separator: " | "));\n"
        }
        out += "}\n\n/** The actions that have a version that may be a notification. */\n"
        out += "export type NotifiableAction = { [A in ActionName]: [NotifiableVersions[A]] extends [never] ? never : A }[ActionName];\n\n"
        out += "/** Options of createBridge (campaign: this contract's campaign fields). */\n"
        out += "export type BridgeOptions = BridgeOptionsOf<keyof \(Self.campaignTypeName)>;\n\n"
        out += bridgeInterface(try payloadRequirement(plain, payloadLocations))
        out += functions
        return out
    }

    // MARK: events

    /// The contract's own events (the built-in ones are typed by the runtime's declarations).
    private var contractEvents: [ShimModel.Event] { model.events.filter { !$0.isBuiltIn } }

    /// "LoginStateChangedV1Payload" for a version, "LoginStateChangedPayload" for the union of all.
    private func eventPayloadName(_ event: ShimModel.Event, version: Int? = nil) -> String {
        TypeScriptNames.pascalCase(event.name) + (version.map { "V\($0)" } ?? "") + "Payload"
    }

    /// Each event version's payload type (from its schema's /properties/payload), their union per
    /// event, and the events added to the runtime's BridgeEvents, so bridge.on takes them typed.
    private func eventTypes(_ plain: TypeScriptSchemaConverter, runtime: String) throws(CodegenError) -> String {
        guard !contractEvents.isEmpty else { return "" }
        try checkEventTypeNames()
        var out = ""
        for event in contractEvents {
            for version in event.versions {
                let location = try plain.referenceTarget(file: version.schemaFile, pointer: "/properties/payload")
                    ?? SchemaLocation(file: version.schemaFile, pointer: "/properties/payload")
                var payload = try plain.render(file: location.file, pointer: location.pointer)
                if payload.docs.isEmpty { payload.docs = ["Payload of the app event \(event.name) v\(version.version) (\(event.title))."] }
                out += alias(eventPayloadName(event, version: version.version), payload)
            }
            let union = event.versions.map { eventPayloadName(event, version: $0.version) }.joined(separator: " | ")
            out += alias(eventPayloadName(event), .init(type: union, docs: ["What a bridge.on(\"\(event.name)\") handler gets: the payload of any version the app sends (meta.version says which)."]))
        }
        out += "// The contract's events join the built-in ones: bridge.on takes each with its payload type.\n"
        out += "declare module \"\(runtime)\" {\n  interface BridgeEvents {\n"
        for event in contractEvents {
            out += DocComment.lines(["\(event.title): schemas/" + event.versions.map(\.schemaFile).joined(separator: ", ")], indent: "    ").map { $0 + "\n" }.joined()
            out += "    \(TypeScriptNames.propertyKey(event.name)): \(eventPayloadName(event));\n"
        }
        out += "  }\n}\n\n"
        return out
    }

    /// An event's type names must be identifiers that no action's type (or another event's) has.
    private func checkEventTypeNames() throws(CodegenError) {
        var taken: Set<String> = [Self.envelopeTypeName, Self.campaignTypeName, "ActionPayloads", "ActionName", "NotifiableVersions",
                                  "NotifiableAction", "BridgeOptions", "Bridge", "NavigationCompletedPayload"]
        for action in model.actions {
            for version in action.versions { taken.formUnion([payloadName(action, version), messageName(action, version), resultName(action, version)]) }
        }
        for event in contractEvents {
            for name in [eventPayloadName(event)] + event.versions.map({ eventPayloadName(event, version: $0.version) }) {
                guard TypeScriptNames.isIdentifier(name), taken.insert(name).inserted else {
                    throw CodegenError(file: "manifest.json", pointer: "/events/" + JSONPointer.escape(event.name),
                                       message: "the event \"\(event.name)\" would declare the TypeScript type \(name), which is no identifier or is another action's or event's type: rename the event")
                }
            }
        }
    }

    private func payloadRequirement(_ converter: TypeScriptSchemaConverter, _ locations: [String: SchemaLocation]) throws(CodegenError) -> [String: Bool] {
        var required: [String: Bool] = [:]
        for (name, location) in locations {
            let keywords = try converter.effectiveKeywords(file: location.file, pointer: location.pointer)
            required[name] = !(keywords["required"]?.arrayValue ?? []).isEmpty
        }
        return required
    }

    private func alias(_ name: String, _ rendered: TypeScriptSchemaConverter.Rendered) -> String {
        DocComment.lines(rendered.docs, indent: "").map { $0 + "\n" }.joined() + "export type \(name) = \(rendered.type);\n\n"
    }

    private func bridgeInterface(_ payloadRequired: [String: Bool]) -> String {
        var out = "/** What createBridge returns: one function per action (latest version) and per version. */\n"
        out += "export interface Bridge extends BridgeCore<keyof \(Self.campaignTypeName)> {\n"
        for action in model.actions {
            for version in action.versions {
                let payload = payloadName(action, version)
                let parameter = payloadRequired[payload] == true ? "payload: \(payload)" : "payload?: \(payload)"
                var docs: [String]
                switch version.answer {
                case .route(let routeName, let pattern):
                    let route = contracts.route(named: routeName)
                    docs = ["\(action.title): \(action.name) v\(version.version). The app opens route \(routeName) (\(pattern))"
                        + (route?.requiresAuth == true ? ", after login when logged out (pendingLogin)." : ".")]
                case .custom:
                    docs = ["\(action.title): \(action.name) v\(version.version). Answered by the app's own code: resolves with its result;"
                        + " a failing handler rejects (INTERNAL, or the BridgeError code it threw)."]
                }
                docs += [
                    "Fails with TIMEOUT after \(version.timeoutMs) ms without a reply.",
                    version.fallback == .universalLink
                        ? "Outside the app, or in an app without \(action.name): opens its Universal Link and resolves with fallback: true."
                        : "Outside the app, or in an app without \(action.name): fails (UNAVAILABLE, UNSUPPORTED_VERSION; no fallback).",
                ]
                if action.versions.count > 1 {
                    docs.append("An app that takes only other versions of \(action.name): fails with UNSUPPORTED_VERSION (error.supportedVersions); offer older versions too with bridge.offer.")
                }
                docs.append(version.requiresId ? "Expects a reply: it cannot be sent as a notification." : "With { notify: true } it is sent without an id and resolves once posted.")
                var names = ["\(action.method)V\(version.version)"]
                if version.version == action.latest.version { names.insert(action.method, at: 0) }
                for name in names {
                    out += DocComment.lines(docs, indent: "  ").map { $0 + "\n" }.joined()
                    let resolved = resolvedType(action, version)
                    out += "  \(name)(\(parameter), options?: CallOptions): Promise<\(resolved)>;\n"
                    if !version.requiresId {
                        out += "  \(name)(payload: \(payload) | undefined, options: NotifyOptions): Promise<\(resolved) | undefined>;\n"
                    }
                }
            }
        }
        let anyResult = anyResolvedType
        out += """
          /** Sends any action and version of the contract (the typed functions above call it). */
          send<A extends ActionName, V extends keyof ActionPayloads[A] & number>(
            action: A, version: V, payload: ActionPayloads[A][V], options?: CallOptions
          ): Promise<\(anyResult)>;
          /** As a notification (no id, no reply): only a version whose schema does not require an id. */
          send<A extends NotifiableAction, V extends NotifiableVersions[A] & keyof ActionPayloads[A] & number>(
            action: A, version: V, payload: ActionPayloads[A][V], options: NotifyOptions
          ): Promise<undefined>;
          /**
           * Offers several versions of an action, each with its payload: sends the highest one the app takes
           * (bridge.offer("apply", { 2: payloadV2, 1: payloadV1 })). An app without the action gets the
           * fallback; an app with only other versions fails with UNSUPPORTED_VERSION, without posting.
           */
          offer<A extends ActionName>(action: A, payloads: OfferedPayloads<ActionPayloads[A]>, options?: CallOptions): Promise<\(anyResult)>;
          offer<A extends NotifiableAction>(
            action: A, payloads: OfferedPayloads<Pick<ActionPayloads[A], NotifiableVersions[A] & keyof ActionPayloads[A]>>, options: NotifyOptions
          ): Promise<undefined>;
          /** The Universal Link an action opens outside the app (with this page's campaign unless campaign: false); loads links.js on first use. */
          linkFor<A extends ActionName>(action: A, payload: ActionPayloads[A][keyof ActionPayloads[A]], options?: { version?: number; campaign?: boolean }): Promise<string>;
        }


        """
        return out
    }

    private var functions: String {
        """
        export declare const CONTRACT: ContractTable;
        export declare function createBridge(options?: BridgeOptions): Bridge;
        /** The Universal Link of an action's destination; with campaign, the campaign fields ride along. Loads links.js on first use. */
        export declare function buildUniversalLink<A extends ActionName>(
          action: A, version: number | undefined, payload: ActionPayloads[A][keyof ActionPayloads[A]],
          campaign?: \(Self.campaignTypeName) | null, contract?: ContractTable
        ): Promise<string>;

        """
    }
}

