import JSONCore

/// routes.json, the deep link configurations every link channel shares (push, messengers,
/// Universal Links, web CTAs): `{"channels": {...}, "routes": [{"name", "pattern", "requiresAuth",
/// "parameters", "query", "tab", "list", "screen", "presentation", "enabledFrom"}, ...]}`
/// (`channels`: see `ChannelRules`). Reading it needs nothing but
/// JSONCore, so an app that only routes links carries no JSON Schema checker.
public enum RoutesFile {
    /// The routes of a routes.json text, in declaration order. `file` names the source in errors.
    public static func routes(fromJSON text: String, file: String = "routes.json") throws(RoutesFileError) -> [RouteDefinition] {
        try routes(from: parse(text, file: file), file: file)
    }

    private static func parse(_ text: String, file: String) throws(RoutesFileError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch {
            throw RoutesFileError(file: file, pointer: "", message: "not valid JSON: \(error)")
        }
    }

    /// The channels a routes.json text declares (`"channels"`), in declaration order.
    public static func channels(fromJSON text: String, file: String = "routes.json") throws(RoutesFileError) -> ChannelRules {
        try channels(from: parse(text, file: file), file: file)
    }

    /// The channels of an already parsed routes.json document.
    public static func channels(from document: JSONValue, file: String = "routes.json") throws(RoutesFileError) -> ChannelRules {
        do throws(JSONFieldError) {
            return try ChannelRules.read(try JSONFieldReader(document).optionalChild("channels"))
        } catch {
            throw RoutesFileError(file: file, pointer: error.pointer, message: error.message)
        }
    }

    /// The routes of an already parsed routes.json document. `enabledFrom` may name the built-in
    /// channels and those the document declares; a route without it is enabled from all of them.
    public static func routes(from document: JSONValue, file: String = "routes.json") throws(RoutesFileError) -> [RouteDefinition] {
        let channels = try channels(from: document, file: file)
        do throws(JSONFieldError) {
            let entries = try JSONFieldReader(document).child("routes")
            guard entries.value.arrayValue != nil else { throw entries.fail("expected an array of routes") }
            var routes: [RouteDefinition] = []
            for entry in try entries.items() {
                let route = try definition(entry, channels: channels)
                if routes.contains(where: { $0.name == route.name }) {
                    throw entry.fail("duplicate route name \"\(route.name)\"", at: "name")
                }
                routes.append(route)
            }
            return routes
        } catch {
            throw RoutesFileError(file: file, pointer: error.pointer, message: error.message)
        }
    }

    private static func definition(_ reader: JSONFieldReader, channels: ChannelRules) throws(JSONFieldError) -> RouteDefinition {
        let name = try reader.child("name").string()
        let pattern = try reader.child("pattern").string()
        guard pattern.hasPrefix("/") else { throw reader.fail("pattern must start with \"/\"", at: "pattern") }
        var parameters: [String: ParameterType] = [:]
        if let declared = try reader.optionalChild("parameters") {
            for (key, typeName) in try declared.stringMap() {
                parameters[key] = try parameterType(typeName, declared, key)
            }
        }
        var query: [RouteDefinition.QueryField] = []
        if let declared = try reader.optionalChild("query") {
            for (key, typeName) in try declared.stringMap() {
                query.append(.init(name: key, type: try parameterType(typeName, declared, key)))
            }
        }
        // An undeclared path parameter is a plain string; a declared one must be in the pattern.
        let parameterNames = pattern.split(separator: "/").filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) }
        for declared in parameters.keys.sorted() where !parameterNames.contains(declared) {
            throw reader.fail("parameter \"\(declared)\" is not in pattern \(pattern)", at: "parameters")
        }
        for used in parameterNames where parameters[used] == nil {
            parameters[used] = .string
        }
        let presentationName = try reader.optionalChild("presentation")?.string() ?? "push"
        guard let presentation = Presentation(rawValue: presentationName) else {
            throw reader.fail("presentation must be push or modal", at: "presentation")
        }
        var enabledFrom = Set(channels.known)
        if let declared = try reader.optionalChild("enabledFrom") {
            enabledFrom = []
            for (index, channelName) in try declared.strings().enumerated() {
                guard let channel = channels.channel(named: channelName) else {
                    throw declared.fail("unknown channel \"\(channelName)\" (one of: \(channels.known.map(\.rawValue).joined(separator: ", ")); declare others in \"channels\")",
                                        at: String(index))
                }
                guard enabledFrom.insert(channel).inserted else {
                    throw declared.fail("channel \"\(channelName)\" is listed twice", at: String(index))
                }
            }
        }
        var external: ExternalRoute?
        if let declared = try reader.optionalChild("external") {
            let fields = Set(parameterNames + query.map(\.name))
            external = try externalRoute(declared, fields: fields)
            for key in ["tab", "list", "presentation"] where try reader.optionalChild(key) != nil {
                throw reader.fail("an external route is opened outside the app: it has no \(key)", at: key)
            }
        }
        return RouteDefinition(
            name: name, pattern: pattern,
            requiresAuth: try reader.child("requiresAuth").bool(),
            parameters: parameters, query: query,
            tab: external == nil ? try reader.child("tab").string() : "",
            list: try reader.optionalChild("list")?.string(),
            screen: try reader.optionalChild("screen")?.string() ?? name,
            presentation: presentation,
            enabledFrom: enabledFrom,
            external: external
        )
    }

    /// `"external": {"providerField": "provider", "providers": {"mapsapp": {"app": "mapsapp://...",
    /// "fallback": "https://..."}, ...}}`. Every placeholder must be a field of the route.
    private static func externalRoute(_ reader: JSONFieldReader, fields: Set<String>) throws(JSONFieldError) -> ExternalRoute {
        let providerField = try reader.child("providerField").string()
        guard fields.contains(providerField) else {
            throw reader.fail("\"\(providerField)\" is not a path parameter or query field of the route", at: "providerField")
        }
        let declared = try reader.child("providers")
        var providers: [ExternalProvider] = []
        for (name, _) in try declared.object() {
            guard !name.isEmpty else { throw declared.fail("a provider needs a name", at: name) }
            let entry = try declared.child(name)
            func template(_ key: String) throws(JSONFieldError) -> ExternalURLTemplate? {
                guard let field = try entry.optionalChild(key) else { return nil }
                let text = try field.string()
                let parsed: ExternalURLTemplate
                do throws(ExternalTemplateError) {
                    parsed = try ExternalURLTemplate(text)
                } catch {
                    throw entry.fail(error.description, at: key)
                }
                for placeholder in parsed.fields where !fields.contains(placeholder) {
                    throw entry.fail("{\(placeholder)} is not a path parameter or query field of the route", at: key)
                }
                return parsed
            }
            guard let app = try template("app") else { throw entry.fail("missing required field \"app\"", at: "app") }
            providers.append(ExternalProvider(name: name, app: app, fallback: try template("fallback")))
        }
        guard !providers.isEmpty else { throw declared.fail("an external route needs at least one provider") }
        return ExternalRoute(providerField: providerField, providers: providers)
    }

    private static func parameterType(_ name: String, _ reader: JSONFieldReader, _ key: String) throws(JSONFieldError) -> ParameterType {
        guard let type = ParameterType(rawValue: name) else {
            throw reader.fail("unknown parameter type \"\(name)\" (one of: \(ParameterType.allCases.map(\.rawValue).joined(separator: ", ")))", at: key)
        }
        return type
    }
}

/// A routes.json that cannot be read: which file, which field (a JSON Pointer), what is wrong.
public struct RoutesFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    /// e.g. "/routes/2/pattern"; "" when the file as a whole is wrong (not JSON).
    public let pointer: String
    public let message: String

    public init(file: String, pointer: String, message: String) {
        self.file = file
        self.pointer = pointer
        self.message = message
    }

    public var description: String {
        pointer.isEmpty ? "\(file): \(message)" : "\(file): \(pointer): \(message)"
    }
}
