import JSONCore

/// routes.json, the deep link configurations every link channel shares (push, AlimTalk,
/// Universal Links, web CTAs): `{"routes": [{"name", "pattern", "requiresAuth", "parameters",
/// "query", "tab", "list", "screen", "presentation", "enabledFrom"}, ...]}`. Reading it needs nothing but
/// JSONCore, so an app that only routes links carries no JSON Schema checker.
public enum RoutesFile {
    /// The routes of a routes.json text, in declaration order. `file` names the source in errors.
    public static func routes(fromJSON text: String, file: String = "routes.json") throws(RoutesFileError) -> [RouteDefinition] {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: text)
        } catch {
            throw RoutesFileError(file: file, pointer: "", message: "not valid JSON: \(error)")
        }
        return try routes(from: document, file: file)
    }

    /// The routes of an already parsed routes.json document.
    public static func routes(from document: JSONValue, file: String = "routes.json") throws(RoutesFileError) -> [RouteDefinition] {
        do throws(JSONFieldError) {
            let entries = try JSONFieldReader(document).child("routes")
            guard entries.value.arrayValue != nil else { throw entries.fail("expected an array of routes") }
            var routes: [RouteDefinition] = []
            for entry in try entries.items() {
                let route = try definition(entry)
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

    private static func definition(_ reader: JSONFieldReader) throws(JSONFieldError) -> RouteDefinition {
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
        var enabledFrom = Set(EntryChannel.allCases)
        if let declared = try reader.optionalChild("enabledFrom") {
            enabledFrom = []
            for (index, channelName) in try declared.strings().enumerated() {
                guard let channel = EntryChannel(rawValue: channelName) else {
                    throw declared.fail("unknown channel \"\(channelName)\" (one of: \(EntryChannel.allCases.map(\.rawValue).joined(separator: ", ")))",
                                        at: String(index))
                }
                guard enabledFrom.insert(channel).inserted else {
                    throw declared.fail("channel \"\(channelName)\" is listed twice", at: String(index))
                }
            }
        }
        return RouteDefinition(
            name: name, pattern: pattern,
            requiresAuth: try reader.child("requiresAuth").bool(),
            parameters: parameters, query: query,
            tab: try reader.child("tab").string(),
            list: try reader.optionalChild("list")?.string(),
            screen: try reader.optionalChild("screen")?.string() ?? name,
            presentation: presentation,
            enabledFrom: enabledFrom
        )
    }

    private static func parameterType(_ name: String, _ reader: JSONFieldReader, _ key: String) throws(JSONFieldError) -> ParameterType {
        guard let type = ParameterType(rawValue: name) else {
            throw reader.fail("unknown parameter type \"\(name)\" (one of: string, int, uuid, slug)", at: key)
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
