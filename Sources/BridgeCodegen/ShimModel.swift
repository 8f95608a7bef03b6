import BridgeContracts
import JSONCore
import DeeplinkRouting

/// Everything the generated shim needs from a contract set, checked once. The JS data table,
/// the TypeScript declarations and the fake host are all written from this one model.
struct ShimModel {
    struct Field: Equatable {
        let name: String
        /// JSON Pointer into the message, e.g. "/payload/slug".
        let pointer: String
        /// The route's parameter type (routes.json), "string" when the route does not declare one.
        let type: ParameterType
    }

    struct Version {
        /// Who answers the message: the navigator (a route) or the app's own code (a result).
        enum Answer {
            case route(name: String, pattern: String)
            /// The result schema file, and its first example: what test hosts answer with.
            case custom(resultSchema: String, example: JSONValue?)
        }

        let version: Int
        let schemaFile: String
        let answer: Answer
        let parameters: [Field]
        let query: [Field]
        let timeoutMs: Int
        let fallback: ActionContract.Fallback
        let allowFrames: Bool
        /// The action schema requires an `id`: the call expects a reply and cannot be a notification.
        let requiresId: Bool
        /// The route is a destination outside the app (routes.json `external`): which field names
        /// the provider, and each provider's app scheme and whether it has a fallback. The fake host
        /// answers from its installed apps with it.
        let external: ExternalRoute?
    }

    struct Action {
        let name: String
        let title: String
        /// camelCase function name on the bridge object.
        let method: String
        /// Ascending.
        let versions: [Version]
        var latest: Version { versions[versions.count - 1] }
    }

    /// An app event the page may subscribe to: the built-in ones, then the contract's own.
    struct Event {
        let name: String
        let title: String
        /// Versions ascending, each with the schema file of its whole page-bound message.
        let versions: [(version: Int, schemaFile: String)]
        /// Built into every host (its schema is `BuiltInEvents`', its type the runtime's own).
        let isBuiltIn: Bool
        var latest: Int { versions[versions.count - 1].version }
    }

    let bridge: String
    let envelopeVersion: Int
    /// The manifest's double-tap window: the fake host answers DUPLICATE inside it, as the app does.
    let duplicateWindowMs: Int
    let webBaseURL: String
    let envelopeSchemaFile: String
    let campaignSchemaFile: String
    /// The campaign schema as the rules every link tool applies (BridgeContracts derives them).
    let campaignRules: CampaignRules
    let actions: [Action]
    /// manifest.allEvents: the built-in events first.
    let events: [Event]

    /// Global names the native side uses, derived from the bridge name (documented in the header).
    var receiveFunction: String { bridge + "Receive" }
    var capabilitiesGlobal: String { bridge + "Capabilities" }
    var androidInterface: String { bridge + "Android" }

    /// Members of the bridge object that an action's function name must not shadow.
    static let reservedMembers: Set<String> = [
        "send", "offer", "supports", "isSupported", "capabilities", "campaign", "campaignWarnings", "stats", "linkFor", "dispose",
        "constructor", "prototype", "__proto__", "toString", "valueOf", "hasOwnProperty",
    ]

    init(contracts: ContractSet) throws(CodegenError) {
        let manifest = contracts.manifest
        bridge = manifest.bridge
        guard TypeScriptNames.isIdentifier(bridge) else {
            throw CodegenError(file: "manifest.json", pointer: "/bridge", message: "\"\(bridge)\" is not a JavaScript identifier, so window.\(bridge)Receive cannot exist")
        }
        envelopeVersion = manifest.envelopeVersion
        duplicateWindowMs = manifest.limits.duplicateWindowMs
        webBaseURL = manifest.webBaseURL.hasSuffix("/") ? String(manifest.webBaseURL.dropLast()) : manifest.webBaseURL
        envelopeSchemaFile = manifest.envelopeSchema
        guard contracts.schema(file: envelopeSchemaFile) != nil else {
            throw CodegenError(file: "manifest.json", pointer: "/envelopeSchema", message: "schemas/\(envelopeSchemaFile) is missing")
        }
        let converter = TypeScriptSchemaConverter(contracts: contracts)

        // The campaign schema is whatever the envelope's "campaign" property refers to.
        let campaign = try converter.effectiveKeywords(file: envelopeSchemaFile, pointer: "/properties/campaign")
        guard let target = try converter.referenceTarget(file: envelopeSchemaFile, pointer: "/properties/campaign"), target.pointer.isEmpty else {
            throw CodegenError(file: envelopeSchemaFile, pointer: "/properties/campaign", message: "expected a $ref to the campaign schema document")
        }
        let campaignFile = target.file
        campaignSchemaFile = campaignFile
        guard campaign["properties"]?.objectValue != nil else {
            throw CodegenError(file: campaignFile, pointer: "/properties", message: "the campaign schema lists its fields under properties")
        }
        do {
            campaignRules = try contracts.campaignRules()
        } catch {
            throw CodegenError(file: error.file, pointer: error.pointer, message: error.message)
        }

        let envelopeRequired = contracts.schema(file: envelopeSchemaFile)?["required"]?.arrayValue ?? []
        var actions: [Action] = []
        var methods: [String: String] = [:]
        for action in manifest.actions {
            let method = TypeScriptNames.camelCase(action.name)
            let actionPointer = "/actions/" + JSONPointer.escape(action.name)
            guard TypeScriptNames.isIdentifier(method), !Self.reservedMembers.contains(method) else {
                throw CodegenError(file: "manifest.json", pointer: actionPointer, message: "action \"\(action.name)\" would become the function \"\(method)\", which is not a usable JavaScript name")
            }
            if let other = methods[method] {
                throw CodegenError(file: "manifest.json", pointer: actionPointer, message: "actions \"\(other)\" and \"\(action.name)\" both become the function \"\(method)\"")
            }
            methods[method] = action.name
            guard !action.versions.isEmpty else {
                throw CodegenError(file: "manifest.json", pointer: actionPointer + "/versions", message: "an action needs at least one version")
            }
            var versions: [Version] = []
            for contract in action.versions {
                let at = actionPointer + "/versions/\(contract.version)"
                guard let schema = contracts.schema(file: contract.schema) else {
                    throw CodegenError(file: "manifest.json", pointer: at + "/schema", message: "schemas/\(contract.schema) is missing")
                }
                let required = (schema["required"]?.arrayValue ?? []) + envelopeRequired
                if let resultFile = contract.resultSchema {
                    // App code answers with a result; there is no route, mapping or link (fallback none).
                    guard contracts.schema(file: resultFile) != nil else {
                        throw CodegenError(file: "manifest.json", pointer: at + "/result", message: "schemas/\(resultFile) is missing")
                    }
                    versions.append(Version(
                        version: contract.version, schemaFile: contract.schema,
                        answer: .custom(resultSchema: resultFile, example: contracts.exampleResult(for: contract)),
                        parameters: [], query: [], timeoutMs: contract.timeoutMs, fallback: contract.fallback,
                        allowFrames: contract.allowFrames, requiresId: required.contains(.string("id")),
                        external: nil
                    ))
                    continue
                }
                guard let routeName = contract.route else {
                    throw CodegenError(file: "manifest.json", pointer: at + "/route", message: "\(action.name) v\(contract.version) names no route")
                }
                guard let route = contracts.route(named: routeName) else {
                    throw CodegenError(file: "manifest.json", pointer: at + "/route", message: "no route \"\(routeName)\" in routes.json")
                }
                for name in route.parameterNames where !contract.parameters.contains(where: { $0.name == name }) {
                    throw CodegenError(file: "manifest.json", pointer: at + "/parameters", message: "route \(route.name) (\(route.pattern)) needs parameter \"\(name)\", which this version does not map")
                }
                let parameters = try contract.parameters.map { mapping throws(CodegenError) -> Field in
                    guard let type = route.parameters[mapping.name] else {
                        throw CodegenError(file: "manifest.json", pointer: at + "/parameters/" + JSONPointer.escape(mapping.name), message: "route \(route.name) has no parameter \"\(mapping.name)\"")
                    }
                    return Field(name: mapping.name, pointer: mapping.pointer, type: type)
                }
                let query = contract.query.map { mapping in
                    Field(name: mapping.name, pointer: mapping.pointer, type: route.query.first { $0.name == mapping.name }?.type ?? .string)
                }
                versions.append(Version(
                    version: contract.version, schemaFile: contract.schema, answer: .route(name: route.name, pattern: route.pattern),
                    parameters: parameters, query: query, timeoutMs: contract.timeoutMs, fallback: contract.fallback,
                    allowFrames: contract.allowFrames, requiresId: required.contains(.string("id")),
                    external: route.external
                ))
            }
            // applyV1, applyV2... must not collide with another action's function name.
            for version in versions where methods["\(method)V\(version.version)"] != nil {
                throw CodegenError(file: "manifest.json", pointer: actionPointer, message: "\(method)V\(version.version) collides with another action's function")
            }
            actions.append(Action(name: action.name, title: action.title, method: method, versions: versions))
        }
        self.actions = actions
        events = try Self.events(contracts)
    }

    /// The events of manifest.allEvents, each version's schema present (a built-in one always is).
    private static func events(_ contracts: ContractSet) throws(CodegenError) -> [Event] {
        var events: [Event] = []
        for event in contracts.manifest.allEvents {
            for contract in event.versions where contracts.eventSchema(contract) == nil {
                throw CodegenError(file: "manifest.json", pointer: "/events/\(JSONPointer.escape(event.name))/versions/\(contract.version)/schema",
                                   message: "schemas/\(contract.schema) is missing")
            }
            events.append(Event(name: event.name, title: event.title, versions: event.versions.map { ($0.version, $0.schema) },
                                isBuiltIn: event.isBuiltIn))
        }
        return events
    }

    /// The frozen data table at the top of bridge.js: the contract facts the runtime reads.
    var table: JSONValue {
        var root = JSONObject()
        root["bridge"] = .string(bridge)
        root["envelope"] = .integer(Int64(envelopeVersion))
        root["webBaseURL"] = .string(webBaseURL)
        root["receiveFunction"] = .string(receiveFunction)
        root["capabilitiesGlobal"] = .string(capabilitiesGlobal)
        root["androidInterface"] = .string(androidInterface)
        root["campaignRules"] = CampaignRulesTable.json(campaignRules)
        var actionsTable = JSONObject()
        for action in actions {
            var entry = JSONObject()
            entry["title"] = .string(action.title)
            entry["method"] = .string(action.method)
            entry["latest"] = .integer(Int64(action.latest.version))
            var versionsTable = JSONObject()
            for version in action.versions {
                var item = JSONObject()
                item["schema"] = .string(version.schemaFile)
                switch version.answer {
                case .route(let name, let pattern):
                    item["route"] = .string(name)
                    item["pattern"] = .string(pattern)
                    item["parameters"] = .array(version.parameters.map(Self.fieldValue))
                    item["query"] = .array(version.query.map(Self.fieldValue))
                case .custom(let resultSchema, _):
                    item["handler"] = .string("custom")
                    item["result"] = .string(resultSchema)
                }
                item["timeoutMs"] = .integer(Int64(version.timeoutMs))
                item["fallback"] = .string(version.fallback.rawValue)
                item["requiresId"] = .bool(version.requiresId)
                if let external = version.external {
                    var providers = JSONObject()
                    for provider in external.providers {
                        providers[provider.name] = .object(JSONObject([("app", .string(provider.app.scheme)),
                                                                       ("fallback", .bool(provider.fallback != nil))]))
                    }
                    item["external"] = .object(JSONObject([("providerField", .string(external.providerField)),
                                                           ("providers", .object(providers))]))
                }
                versionsTable[String(version.version)] = .object(item)
            }
            entry["versions"] = .object(versionsTable)
            actionsTable[action.name] = .object(entry)
        }
        root["actions"] = .object(actionsTable)
        root["events"] = eventsTable
        return .object(root)
    }

    /// What events.js reads: {NAME: {versions: {N: true}, latest: N}} for each of the contract's own
    /// events. Not the built-in ones: the runtime has those (BUILT_IN_EVENTS), and every byte of
    /// this table is in the shim a page loads.
    private var eventsTable: JSONValue {
        var table = JSONObject()
        for event in events where !event.isBuiltIn {
            var versions = JSONObject()
            for version in event.versions { versions[String(version.version)] = .bool(true) }
            table[event.name] = .object(JSONObject([("versions", .object(versions)), ("latest", .integer(Int64(event.latest)))]))
        }
        return .object(table)
    }

    /// The first example result of each custom action version, by action and version: the fake
    /// host's default answer (testing/fake-host.js; never in the page's shim). Nil when no action is custom.
    var exampleResults: JSONValue? {
        var table = JSONObject()
        for action in actions {
            var versions = JSONObject()
            for version in action.versions {
                if case .custom(_, let example?) = version.answer { versions[String(version.version)] = example }
            }
            if !versions.isEmpty { table[action.name] = .object(versions) }
        }
        return table.isEmpty ? nil : .object(table)
    }

    private static func fieldValue(_ field: Field) -> JSONValue {
        .array([.string(field.name), .string(field.pointer), .string(field.type.rawValue)])
    }
}
