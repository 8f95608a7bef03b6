#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeeplinkRouting
import JSONCore
import SchemaCheck

/// A loaded contracts/ folder: manifest, routes, schema documents and fixtures. No set is
/// compiled into the library: a tool loads a folder, an app its own embedded files.
public struct ContractSet: Sendable {
    public let manifest: BridgeManifest
    public let routes: [RouteDefinition]
    /// The channels routes.json declares beside the built-in ones.
    public let channels: ChannelRules
    /// Schema file name (e.g. "apply.v1.json") -> parsed document, in name order.
    public let schemas: [(file: String, document: JSONValue)]
    public let fixtures: [Fixture]
    /// The event fixtures (event-fixtures/<event>/v<version>/), in path order.
    public let eventFixtures: [EventFixture]
    /// Where it came from, for messages: a folder path, or what the caller named.
    public let origin: String
    /// The text of releases.json (the app builds in the field), nil when the set has none; read
    /// on demand by `releaseCatalog()`, so a message check never parses it.
    public let releasesText: String?
    /// The texts it was read from, by relative path (for `digest`).
    public let files: [String: String]

    /// Loads a contracts folder from disk. `includingFixtures: false` skips parsing fixtures
    /// (empty `fixtures`): `validate` needs none, and they were a tenth of its start-up.
    public static func load(directory: String) throws(ContractError) -> ContractSet {
        try load(directory: directory, includingFixtures: true)
    }

    public static func load(directory: String, includingFixtures: Bool) throws(ContractError) -> ContractSet {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        guard FileSystem.status(atPath: root.path)?.isDirectory == true else {
            throw ContractError(file: directory, message: "not a contracts folder (no such directory)")
        }
        // Symbolic links are listed, not followed (a linked root lists nothing), as before.
        let subpaths: [String]
        do {
            subpaths = try FileManager.default.subpathsOfDirectory(atPath: root.path)
        } catch {
            throw ContractError(file: directory, message: "cannot be listed: \(FileSystem.describe(error))")
        }
        var files: [String: String] = [:]
        for relative in subpaths where URL(filePath: relative, directoryHint: .notDirectory).pathExtension == "json" {
            guard let data = FileManager.default.contents(atPath: root.path + "/" + relative),
                  // Not String(data:encoding:), which drops a byte-order mark that other readers choke on.
                  let text = String(validating: data, as: UTF8.self) else {
                throw ContractError(file: relative, message: "cannot be read as UTF-8 text")
            }
            files[relative] = text
        }
        return try ContractSet(files: files, origin: root.path, includingFixtures: includingFixtures)
    }

    /// Builds a set from relative path -> JSON text; fixtures are left out (not even parsed)
    /// with `includingFixtures: false`.
    public init(files: [String: String], origin: String) throws(ContractError) {
        try self.init(files: files, origin: origin, includingFixtures: true)
    }

    public init(files: [String: String], origin: String, includingFixtures: Bool) throws(ContractError) {
        self.origin = origin
        self.files = files
        guard let manifestText = files["manifest.json"] else {
            throw ContractError(file: "manifest.json", message: "missing in \(origin)")
        }
        manifest = try BridgeManifest.load(from: FieldReader(file: "manifest.json", value: try Self.parse(manifestText, file: "manifest.json")))
        guard let routesText = files["routes.json"] else {
            throw ContractError(file: "routes.json", message: "missing in \(origin)")
        }
        // routes.json is the routing layer's file: read by its loader, with JSONCore's parser.
        try Self.refuseByteOrderMark(routesText, file: "routes.json")
        let document: JSONValue
        do {
            document = try JSONValue(parsing: routesText)
        } catch {
            throw ContractError(file: "routes.json", message: "not valid JSON: \(error)")
        }
        do throws(RoutesFileError) {
            channels = try RoutesFile.channels(from: document, file: "routes.json")
            routes = try RoutesFile.routes(from: document, file: "routes.json")
        } catch {
            throw ContractError(file: error.file, pointer: error.pointer, message: error.message)
        }

        var schemas: [(file: String, document: JSONValue)] = []
        var fixtures: [Fixture] = []
        var eventFixtures: [EventFixture] = []
        for path in files.keys.sorted() {
            if path.hasPrefix("schemas/") {
                schemas.append((String(path.dropFirst("schemas/".count)), try Self.parse(files[path]!, file: path)))
            } else if includingFixtures && path.hasPrefix("fixtures/") {
                fixtures.append(try Fixture.load(path: path, value: try Self.parse(files[path]!, file: path)))
            } else if includingFixtures && path.hasPrefix(EventFixture.folder) {
                eventFixtures.append(try EventFixture.load(path: path, value: try Self.parse(files[path]!, file: path)))
            }
        }
        self.schemas = schemas
        self.fixtures = fixtures
        self.eventFixtures = eventFixtures
        releasesText = files[ReleaseCatalog.fileName]
    }

    public func route(named name: String) -> RouteDefinition? {
        routes.first { $0.name == name }
    }

    public func schema(file: String) -> JSONValue? {
        schemas.first { $0.file == file }?.document
    }

    /// The absolute URI a schema file is known by: its $id, else schemaBase + file name.
    public func schemaURI(file: String) -> String {
        schema(file: file)?["$id"]?.stringValue ?? manifest.schemaBase + file
    }

    /// JSON has no byte-order mark; the parser's message would name an invisible character.
    static func refuseByteOrderMark(_ text: String, file: String) throws(ContractError) {
        if text.utf8.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw ContractError(file: file, message: "file starts with a UTF-8 byte-order mark (remove it)")
        }
    }

    static func parse(_ text: String, file: String) throws(ContractError) -> JSONValue {
        try refuseByteOrderMark(text, file: file)
        do {
            return try JSONDocument(text, limits: .unlimited).value
        } catch {
            throw ContractError(file: file, message: "not valid JSON: \(error)")
        }
    }
}
