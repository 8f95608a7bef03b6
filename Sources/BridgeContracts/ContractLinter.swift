import DeeplinkRouting
import JSONCore
import SchemaCheck

/// One problem `bridgectl lint` found, pointing at the file and the field.
public struct LintFinding: Sendable, Equatable, CustomStringConvertible {
    /// An error fails the lint; a warning is reported and does not.
    public enum Severity: String, Sendable {
        case error
        case warning
    }

    public let file: String
    public let pointer: String
    public let message: String
    public let severity: Severity

    public init(file: String, pointer: String, message: String, severity: Severity = .error) {
        self.file = file
        self.pointer = pointer
        self.message = message
        self.severity = severity
    }

    public var description: String {
        "\(file): \(pointer.isEmpty ? "(root)" : pointer): \(severity == .warning ? "warning: " : "")\(message)"
    }
}

/// Checks a contract set as a whole before anyone relies on it: every schema against its
/// dialect's official meta-schema, every manifest reference (schema file, route, JSON Pointer
/// mapping) resolves, the campaign schema can be applied to links as campaign rules, and every
/// action version has valid and invalid fixtures, and releases.json agrees with the manifest
/// (`ReleaseLinter`).
public struct ContractLinter {
    public let contracts: ContractSet

    public init(contracts: ContractSet) {
        self.contracts = contracts
    }

    static let metaSchemaURIs: [String: String] = [
        "https://json-schema.org/draft/2020-12/schema": "https://json-schema.org/draft/2020-12/schema",
        "https://json-schema.org/draft/2019-09/schema": "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema": "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-07/schema#": "http://json-schema.org/draft-07/schema#",
        "http://json-schema.org/draft-06/schema": "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-06/schema#": "http://json-schema.org/draft-06/schema#",
        "http://json-schema.org/draft-04/schema": "http://json-schema.org/draft-04/schema#",
        "http://json-schema.org/draft-04/schema#": "http://json-schema.org/draft-04/schema#",
    ]

    public func lint() -> [LintFinding] {
        var findings = metaSchemaFindings()
        findings += manifestFindings()
        findings += campaignRuleFindings()
        findings += UniversalLinkFilesCheck(contracts: contracts).findings()
        findings += fixtureFindings()
        findings += ReleaseLinter(contracts: contracts).lint()
        return findings
    }

    // MARK: schemas against their meta-schemas

    func metaSchemaFindings() -> [LintFinding] {
        var findings: [LintFinding] = []
        let registry = SchemaRegistry()
        var compiled: [String: CompiledSchema] = [:]
        for (file, document) in contracts.schemas {
            let path = "schemas/\(file)"
            let declared = document["$schema"]?.stringValue ?? "https://json-schema.org/draft/2020-12/schema"
            guard let metaURI = Self.metaSchemaURIs[declared] else {
                findings.append(LintFinding(file: path, pointer: "/$schema",
                    message: "unknown dialect \(declared) (use one of https://json-schema.org/draft/2020-12/schema, https://json-schema.org/draft/2019-09/schema, http://json-schema.org/draft-07/schema#, http://json-schema.org/draft-06/schema#, http://json-schema.org/draft-04/schema#)"))
                continue
            }
            if compiled[metaURI] == nil {
                do {
                    compiled[metaURI] = try registry.compile(uri: metaURI)
                } catch {
                    findings.append(LintFinding(file: path, pointer: "", message: "the meta-schema \(metaURI) does not compile: \(error)"))
                    continue
                }
            }
            let result = compiled[metaURI]!.validate(document)
            for unit in result.units {
                findings.append(LintFinding(file: path, pointer: unit.instanceLocation,
                    message: "\(unit.error) (\(unit.keyword), by the meta-schema at \(unit.keywordLocation))"))
            }
            if result.status == .incomplete && result.units.isEmpty {
                findings.append(LintFinding(file: path, pointer: "", message: "the meta-schema check could not finish"))
            }
            if let dialect = SchemaKeywordCheck.Dialect(metaSchemaURI: metaURI) {
                findings += SchemaKeywordCheck(dialect: dialect).findings(in: document, file: path)
            }
            if document["$id"]?.stringValue == nil {
                findings.append(LintFinding(file: path, pointer: "", message: "has no $id; contract schemas reference each other by $id"))
            }
        }
        if findings.isEmpty {
            do {
                let compiledContracts = try CompiledContracts(contracts: contracts)
                findings += loopWarnings(compiledContracts)
                findings += resultExampleFindings(compiledContracts)
                findings += eventFindings(compiledContracts)
            } catch {
                findings.append(LintFinding(file: error.file, pointer: error.pointer, message: error.message))
            }
        }
        return findings
    }

    /// A `$ref` loop with no property or item in between compiles, and fails only the
    /// messages that enter it (they cannot be checked): worth a warning before they arrive.
    func loopWarnings(_ compiled: CompiledContracts) -> [LintFinding] {
        let manifest = contracts.manifest
        var schemas = [(manifest.envelopeSchema, compiled.envelope)]
        for action in manifest.actions {
            for contract in action.versions where !schemas.contains(where: { $0.0 == contract.schema }) {
                schemas.append((contract.schema, compiled.schema(for: contract)))
            }
        }
        return schemas.compactMap { file, schema in
            schema.loopLocation.map {
                LintFinding(file: "schemas/\(file)", pointer: "",
                    message: "the schema at \($0) applies itself to the same value in a loop ($ref cycle with no property or item in between); a message that reaches it cannot be checked",
                    severity: .warning)
            }
        }
    }

    /// The mock host, `bridgectl simulate` and the web team's fake host answer a custom action with
    /// the first of its result schema's `examples`: it must be there and match the schema.
    func resultExampleFindings(_ compiled: CompiledContracts) -> [LintFinding] {
        var findings: [LintFinding] = []
        var seen: Set<String> = []
        for action in contracts.manifest.actions {
            for contract in action.versions {
                guard let file = contract.resultSchema, seen.insert(file).inserted,
                      let schema = compiled.resultSchema(for: contract) else { continue }
                guard let example = contracts.schema(file: file)?["examples"]?.arrayValue?.first else {
                    findings.append(LintFinding(file: "schemas/\(file)", pointer: "/examples",
                        message: "the result schema of custom action \(action.name) v\(contract.version) needs an example result (\"examples\": [...]): test hosts answer with the first"))
                    continue
                }
                for unit in schema.validate(example).units {
                    findings.append(LintFinding(file: "schemas/\(file)", pointer: "/examples/0" + unit.instanceLocation,
                        message: "the example result does not match its own schema: \(unit.error) (\(unit.keyword) at \(unit.keywordLocation))"))
                }
            }
        }
        return findings
    }

    // MARK: manifest references

    func manifestFindings() -> [LintFinding] {
        var findings: [LintFinding] = []
        let manifest = contracts.manifest
        if manifest.action(named: BridgeManifest.capabilitiesRequestAction) != nil {
            findings.append(LintFinding(file: "manifest.json", pointer: "/actions/" + BridgeManifest.capabilitiesRequestAction,
                message: "the action name \"\(BridgeManifest.capabilitiesRequestAction)\" is reserved for the built-in request that reads the capability manifest"))
        }
        if contracts.schema(file: manifest.envelopeSchema) == nil {
            findings.append(LintFinding(file: "manifest.json", pointer: "/envelopeSchema",
                message: "names schemas/\(manifest.envelopeSchema), which does not exist"))
        }
        for action in manifest.actions {
            for contract in action.versions {
                let base = "/actions/\(JSONPointer.escape(action.name))/versions/\(contract.version)"
                guard let schema = contracts.schema(file: contract.schema) else {
                    findings.append(LintFinding(file: "manifest.json", pointer: base + "/schema",
                        message: "names schemas/\(contract.schema), which does not exist"))
                    continue
                }
                guard let routeName = contract.route else {
                    if let result = contract.resultSchema, contracts.schema(file: result) == nil {
                        findings.append(LintFinding(file: "manifest.json", pointer: base + "/result",
                            message: "names schemas/\(result), which does not exist"))
                    }
                    continue
                }
                guard let route = contracts.route(named: routeName) else {
                    let known = contracts.routes.map(\.name).joined(separator: ", ")
                    findings.append(LintFinding(file: "manifest.json", pointer: base + "/route",
                        message: "names route \"\(routeName)\", which routes.json does not declare (routes: \(known))"))
                    continue
                }
                if !route.isEnabled(from: .bridge) {
                    findings.append(LintFinding(file: "manifest.json", pointer: base + "/route",
                        message: "names route \(route.name), which routes.json does not enable from bridge (enabledFrom: \(EntryChannel.names(route.enabledFrom))): every message would be refused"))
                }
                let resolver = SchemaPointerResolver(contracts: contracts)
                for mapping in contract.parameters + contract.query {
                    if !resolver.declares(pointer: mapping.pointer, in: schema, file: contract.schema) {
                        findings.append(LintFinding(file: "manifest.json",
                            pointer: base + (contract.parameters.contains(mapping) ? "/parameters/" : "/query/") + JSONPointer.escape(mapping.name),
                            message: "maps \(mapping.pointer), which schemas/\(contract.schema) does not declare"))
                    }
                }
                findings += nonScalarMappingFindings(contract, schema: schema, resolver: resolver, base: base)
                let mapped = Set(contract.parameters.map(\.name))
                for name in route.parameterNames where !mapped.contains(name) {
                    findings.append(LintFinding(file: "manifest.json", pointer: base + "/parameters",
                        message: "route \(route.name) needs path parameter \"\(name)\", which is not mapped"))
                }
                for mapping in contract.parameters where !route.parameterNames.contains(mapping.name) {
                    findings.append(LintFinding(file: "manifest.json", pointer: base + "/parameters/" + JSONPointer.escape(mapping.name),
                        message: "route \(route.name) (\(route.pattern)) has no path parameter \"\(mapping.name)\""))
                }
                let queryNames = Set(route.query.map(\.name))
                for mapping in contract.query where !queryNames.contains(mapping.name) {
                    findings.append(LintFinding(file: "manifest.json", pointer: base + "/query/" + JSONPointer.escape(mapping.name),
                        message: "route \(route.name) declares no query field \"\(mapping.name)\" in routes.json"))
                }
            }
        }
        findings += queriedSchemeFindings()
        for route in contracts.routes {
            if let list = route.list, contracts.route(named: list) == nil {
                findings.append(LintFinding(file: "routes.json", pointer: "/routes/\(contracts.routes.firstIndex(of: route)!)/list",
                    message: "names list route \"\(list)\", which is not declared"))
            }
        }
        return findings
    }

    /// A link parameter or query value is one piece of text: a field the schema lets be an array or
    /// an object cannot fill it, and the host would answer INTERNAL to the valid messages that
    /// carry one. The field must be typed as a scalar (string, number, integer, boolean; `null`
    /// too for a query value, which leaves it out).
    func nonScalarMappingFindings(_ contract: ActionContract, schema: JSONValue, resolver: SchemaPointerResolver,
                                  base: String) -> [LintFinding] {
        var findings: [LintFinding] = []
        let mappings = contract.parameters.map { ($0, "/parameters/", "route parameter", ["string", "number", "boolean"]) }
            + contract.query.map { ($0, "/query/", "query field", ["string", "number", "boolean", "null"]) }
        for (mapping, kind, role, scalars) in mappings where resolver.declares(pointer: mapping.pointer, in: schema, file: contract.schema) {
            let admitted = resolver.admittedTypes(pointer: mapping.pointer, in: schema)
            let others = admitted.map { $0.subtracting(scalars).sorted() } ?? ["array", "object"]
            guard !others.isEmpty else { continue }
            let problem = admitted == nil ? "declares no type there, so it may be an array or an object" : "lets it be \(others.joined(separator: " or "))"
            findings.append(LintFinding(file: "manifest.json", pointer: base + kind + JSONPointer.escape(mapping.name),
                message: "maps \(mapping.pointer) to \(role) \(mapping.name), but schemas/\(contract.schema) \(problem): a link value is one piece of text (type the field as \(scalars.joined(separator: ", ")))"))
        }
        return findings
    }

    /// Every scheme an external route hands to `canOpenURL` (its apps' and its fallbacks') must be
    /// declared: iOS answers no for an undeclared scheme even when the app is installed, so the
    /// map app would never open and every person would land on the fallback.
    func queriedSchemeFindings() -> [LintFinding] {
        var findings: [LintFinding] = []
        let declared = Set(contracts.manifest.queriedURLSchemes)
        for (index, route) in contracts.routes.enumerated() {
            guard let external = route.external else { continue }
            for provider in external.providers {
                let base = "/routes/\(index)/external/providers/\(JSONPointer.escape(provider.name))"
                for (key, template) in [("app", Optional(provider.app)), ("fallback", provider.fallback)] {
                    guard let template, !declared.contains(template.scheme) else { continue }
                    findings.append(LintFinding(file: "routes.json", pointer: base + "/" + key,
                        message: "provider \(provider.name) opens \(template.scheme): URLs, but manifest.json queriedURLSchemes does not list \"\(template.scheme)\": canOpenURL says no for it even when \(key == "app" ? "the app is installed" : "it can be opened") (Info.plist LSApplicationQueriesSchemes)"))
                }
            }
        }
        if contracts.manifest.queriedURLSchemes.count > 50 {
            findings.append(LintFinding(file: "manifest.json", pointer: "/queriedURLSchemes",
                message: "lists \(contracts.manifest.queriedURLSchemes.count) schemes; iOS reads at most 50 of LSApplicationQueriesSchemes"))
        }
        return findings
    }

    // MARK: campaign rules

    /// The link tools apply the campaign schema without a JSON Schema checker; a schema they cannot
    /// express faithfully is an error here, not an approximation at run time.
    func campaignRuleFindings() -> [LintFinding] {
        guard contracts.schema(file: contracts.manifest.envelopeSchema) != nil else { return [] }
        do {
            _ = try contracts.campaignRules()
            return []
        } catch {
            return [LintFinding(file: error.file, pointer: error.pointer, message: error.message)]
        }
    }

    // MARK: fixtures

    func fixtureFindings() -> [LintFinding] {
        var findings: [LintFinding] = []
        for action in contracts.manifest.actions {
            for contract in action.versions {
                let own = contracts.fixtures.filter { $0.action == action.name && $0.version == contract.version }
                let folder = "fixtures/\(action.name)/v\(contract.version)/"
                if !own.contains(where: { $0.expect.valid }) {
                    findings.append(LintFinding(file: folder, pointer: "", message: "no valid fixture for \(action.name) v\(contract.version)"))
                }
                if !own.contains(where: { !$0.expect.valid }) {
                    findings.append(LintFinding(file: folder, pointer: "", message: "no invalid fixture for \(action.name) v\(contract.version)"))
                }
            }
        }
        for fixture in contracts.fixtures {
            guard let source = fixture.source, !contracts.channels.knownSources.contains(where: { $0.rawValue == source }) else { continue }
            findings.append(LintFinding(file: fixture.path, pointer: "/source",
                message: "\(UnknownChannelError(name: source, known: contracts.channels.knownSources.map(\.rawValue)))"))
        }
        for fixture in contracts.fixtures where fixture.action == nil || fixture.version == nil {
            findings.append(LintFinding(file: fixture.path, pointer: "", message: "fixtures live in fixtures/<action>/v<version>/"))
        }
        return findings
    }
}

extension BridgeManifest {
    /// The built-in request every host answers with its capability manifest: no contract action
    /// may take the name.
    public static let capabilitiesRequestAction = "capabilities"
}

/// Answers whether a JSON Pointer into a message names a property the schema declares,
/// following `properties`, `$ref` (within the contract set) and `allOf`.
struct SchemaPointerResolver {
    let contracts: ContractSet

    func declares(pointer: String, in schema: JSONValue, file: String) -> Bool {
        guard let tokens = JSONPointer.tokens(of: pointer), !tokens.isEmpty else { return false }
        return declares(tokens[...], in: schema, root: schema, depth: 0)
    }

    private func declares(_ tokens: ArraySlice<String>, in schema: JSONValue, root: JSONValue, depth: Int) -> Bool {
        guard let first = tokens.first else { return true }
        guard depth < 32, let object = schema.objectValue else { return false }
        if let property = object["properties"]?[first] {
            let resolved = resolve(property, root: root)
            if declares(tokens.dropFirst(), in: resolved.schema, root: resolved.root, depth: depth + 1) { return true }
        }
        var branches: [(JSONValue, JSONValue)] = []
        if let reference = object["$ref"] {
            let resolved = resolve(["$ref": reference], root: root)
            branches.append((resolved.schema, resolved.root))
        }
        for member in object["allOf"]?.arrayValue ?? [] { branches.append((member, root)) }
        return branches.contains { declares(tokens, in: $0.0, root: $0.1, depth: depth + 1) }
    }

    /// The JSON types a value at `pointer` may have, read from the schemas that declare it (each
    /// through `$ref` and `allOf`, which narrow it): nil when nothing narrows it.
    func admittedTypes(pointer: String, in schema: JSONValue) -> Set<String>? {
        guard let tokens = JSONPointer.tokens(of: pointer), !tokens.isEmpty else { return nil }
        var targets: [(JSONValue, JSONValue)] = []
        collectTargets(tokens[...], in: schema, root: schema, depth: 0, into: &targets)
        return targets.reduce(nil) { narrowed, target in
            Self.intersect(narrowed, admittedTypes(of: target.0, root: target.1, depth: 0))
        }
    }

    private func collectTargets(_ tokens: ArraySlice<String>, in schema: JSONValue, root: JSONValue, depth: Int,
                                into targets: inout [(JSONValue, JSONValue)]) {
        guard depth < 32 else { return }
        guard let first = tokens.first else {
            targets.append((schema, root))
            return
        }
        guard let object = schema.objectValue else { return }
        if let property = object["properties"]?[first] {
            let resolved = resolve(property, root: root)
            collectTargets(tokens.dropFirst(), in: resolved.schema, root: resolved.root, depth: depth + 1, into: &targets)
        }
        if let reference = object["$ref"] {
            let resolved = resolve(["$ref": reference], root: root)
            collectTargets(tokens, in: resolved.schema, root: resolved.root, depth: depth + 1, into: &targets)
        }
        for member in object["allOf"]?.arrayValue ?? [] {
            collectTargets(tokens, in: member, root: root, depth: depth + 1, into: &targets)
        }
    }

    /// `type` (a name or a list; "integer" is a "number"), else the types of `const` / `enum`,
    /// narrowed by `$ref` and `allOf`.
    private func admittedTypes(of schema: JSONValue, root: JSONValue, depth: Int) -> Set<String>? {
        guard depth < 32, let object = schema.objectValue else { return nil }
        var types: Set<String>?
        if let name = object["type"]?.stringValue {
            types = [name]
        } else if let names = object["type"]?.arrayValue {
            types = Set(names.compactMap(\.stringValue))
        } else if let constant = object["const"] {
            types = [Self.typeName(of: constant)]
        } else if let values = object["enum"]?.arrayValue {
            types = Set(values.map(Self.typeName))
        }
        if let reference = object["$ref"] {
            let resolved = resolve(["$ref": reference], root: root)
            types = Self.intersect(types, admittedTypes(of: resolved.schema, root: resolved.root, depth: depth + 1))
        }
        for member in object["allOf"]?.arrayValue ?? [] {
            types = Self.intersect(types, admittedTypes(of: member, root: root, depth: depth + 1))
        }
        return types.map { Set($0.map { $0 == "integer" ? "number" : $0 }) }
    }

    private static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        default: return "number"
        }
    }

    private static func intersect(_ left: Set<String>?, _ right: Set<String>?) -> Set<String>? {
        guard let left else { return right }
        guard let right else { return left }
        let normal = { (types: Set<String>) in Set(types.map { $0 == "integer" ? "number" : $0 }) }
        return normal(left).intersection(normal(right))
    }

    /// Follows `$ref` chains: "other.json", "other.json#/$defs/x" or "#/$defs/x".
    private func resolve(_ schema: JSONValue, root: JSONValue) -> (schema: JSONValue, root: JSONValue) {
        var current = (schema: schema, root: root)
        for _ in 0..<16 {
            guard let reference = current.schema["$ref"]?.stringValue else { return current }
            let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            var document = current.root
            if let file = parts.first, !file.isEmpty {
                let name = String(file.split(separator: "/").last ?? file[...])
                guard let other = contracts.schema(file: name) else { return (.null, .null) }
                document = other
            }
            let fragment = parts.count > 1 ? String(parts[1]) : ""
            guard let target = document.value(at: fragment.removingPercentEncodingSafely) else { return (.null, .null) }
            current = (target, document)
        }
        return current
    }
}

extension String {
    /// `%XX` decoded to its byte; a `%` not followed by two hex digits is kept as written.
    fileprivate var removingPercentEncodingSafely: String {
        guard contains("%") else { return self }
        let input = Array(utf8)
        var bytes: [UInt8] = []
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count,
               let high = Self.hexValue(input[index + 1]), let low = Self.hexValue(input[index + 2]) {
                bytes.append(high << 4 | low)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
