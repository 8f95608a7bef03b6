import BridgeCodegen
import BridgeContracts
import DeeplinkRouting
import JSONCore

/// The catalog's link-builder.js: the shim's own link code (js/src/link-rules.js and
/// js/src/link-builder.js, as built into this bridgectl), the routes and campaign rules of the
/// contracts as data, and the page's form wiring (catalog/assets/link-builder-page.js), in one
/// classic script. A page opened from file:// cannot load ES modules (browsers refuse module
/// scripts from a file: origin), so the modules are joined into one function scope: their
/// `import` of link-rules.js is dropped (it is in scope) and `export` is taken off their
/// declarations. Any other form of import or export is refused rather than guessed at.
enum LinkBuilderScript {
    static let modules = ["src/link-rules.js", "src/link-builder.js"]

    static func text(contracts: ContractSet, rules: CampaignRules, header: String) throws(CatalogError) -> String {
        var text = header
        text += "(function () {\n\"use strict\";\n\n"
        for module in modules {
            guard let file = JavaScriptGenerator.runtimeFiles.first(where: { $0.path == module }) else {
                throw CatalogError("js/\(module) is not built into this bridgectl")
            }
            text += "// ---- js/\(module), as built into bridgectl\n"
            text += try classic(file.contents, name: "js/\(module)")
            text += "\n"
        }
        text += "// ---- the routes and campaign rules of the contracts\n"
        text += "const LINK_TABLE = " + table(contracts: contracts, rules: rules).prettyPrinted() + ";\n\n"
        guard let page = BundledCatalogAssets.files["link-builder-page.js"] else {
            throw CatalogError("catalog/assets/link-builder-page.js is not built into this bridgectl")
        }
        text += "// ---- catalog/assets/link-builder-page.js\n" + page
        text += "})();\n"
        return text
    }

    /// An ES module of js/src as a part of one function's body.
    static func classic(_ source: String, name: String) throws(CatalogError) -> String {
        var lines: [Substring] = []
        var inImport = false
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if inImport {
                if line.hasSuffix("from \"./link-rules.js\";") { inImport = false }
                continue
            }
            if line.hasPrefix("import ") {
                if line.hasSuffix("from \"./link-rules.js\";") { continue }
                if line.hasPrefix("import {") && !line.contains("}") { inImport = true; continue }
                throw CatalogError("\(name):\(index + 1): only `import {...} from \"./link-rules.js\"` can be joined into the catalog's script")
            }
            if line.hasPrefix("export ") {
                let rest = line.dropFirst("export ".count)
                guard ["function ", "const ", "class ", "let "].contains(where: { rest.hasPrefix($0) }) else {
                    throw CatalogError("\(name):\(index + 1): only `export function|const|class|let` declarations can be joined into the catalog's script")
                }
                lines.append(rest)
                continue
            }
            lines.append(line)
        }
        if inImport { throw CatalogError("\(name): an import statement does not end") }
        return lines.joined(separator: "\n")
    }

    /// The link table link-builder.js reads: what `bridgectl link build` knows.
    static func table(contracts: ContractSet, rules: CampaignRules) -> JSONValue {
        let routes: [JSONValue] = contracts.routes.map { route in
            var parameters = JSONObject()
            for name in route.parameterNames { parameters[name] = .string((route.parameters[name] ?? .string).rawValue) }
            return .object(JSONObject([
                ("name", .string(route.name)),
                ("pattern", .string(route.pattern)),
                ("parameters", .object(parameters)),
                ("query", .array(route.query.map { .array([.string($0.name), .string($0.type.rawValue)]) })),
                // Already in the order `link build` names them in its channel warning.
                ("enabledFrom", .string(EntryChannel.names(route.enabledFrom))),
                ("enabledChannels", .array(route.enabledFrom.map(\.rawValue).sorted().map(JSONValue.string))),
            ]))
        }
        let links = contracts.manifest.links
        // The channels `link build --source` takes, in its order; a declared one with the utm
        // values the picker fills in (its first source and medium) and all it is recognised by.
        let declared = Dictionary(uniqueKeysWithValues: contracts.channels.channels.map { ($0.name, $0) })
        let channels: [JSONValue] = contracts.channels.knownSources.map { source in
            let channel = declared[source.rawValue]
            return .object(JSONObject([
                ("name", .string(source.rawValue)),
                ("utmSources", .array((channel?.utmSources ?? []).map(JSONValue.string))),
                ("utmMedia", .array((channel?.utmMedia ?? []).map(JSONValue.string))),
            ]))
        }
        return .object(JSONObject([
            ("webBaseURL", .string(links.webBaseURL)),
            ("customScheme", .string(links.customScheme)),
            ("routes", .array(routes)),
            ("campaignRules", CampaignRulesTable.json(rules)),
            ("channels", .array(channels)),
            ("urlCharacterLimit", .integer(Int64(PreSendChecks.urlCharacterLimit))),
        ]))
    }
}

/// Why the catalog cannot be written: one line.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
