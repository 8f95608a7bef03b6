#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The schema files a schema file refers to beside it: a relative `$ref` such as
/// `"schema-org-thing.json"` resolves (by the checker's own base-URI rules, so draft-07's
/// `$ref` beside `$id` keeps the file's location as the base) to a `file://` URI in the schema's
/// folder, and that file is read and registered when the checker asks for it. Nothing is fetched
/// from the network, and nothing outside `folder` is read: such a reference is refused, unless the
/// caller registered it beforehand (`--ref URI=FILE`).
public struct SiblingSchemaFiles: Sendable {
    /// The folder the schema file is in, symbolic links resolved; references may reach files in it
    /// and below it.
    public let folder: String
    /// How many files one compile may read before it is stopped (a generated tree of references).
    public var maximumFiles: Int

    public init(schemaFile: String, maximumFiles: Int = 1000) {
        let absolute = URL(fileURLWithPath: schemaFile).standardizedFileURL.deletingLastPathComponent().path
        folder = Self.realPath(absolute) ?? absolute
        self.maximumFiles = maximumFiles
    }

    /// A reference the checker could not resolve that this type will not read either.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public var reference: String
        public var reason: String
        public var description: String { "the reference \"\(reference)\" \(reason)" }
    }

    /// Compiles the schema at `uri`, reading each sibling file the checker asks for through `read`
    /// (a path -> document; the caller's own reader, so its limits and messages apply) and
    /// registering it in `registry` under its file URI. Returns the compiled schema and the paths
    /// read, in the order they were asked for.
    public func compile(uri: String, registry: SchemaRegistry, options: SchemaOptions,
                        read: (String) throws -> JSONDocument) throws -> (schema: CompiledSchema, filesRead: [String]) {
        var filesRead: [String] = []
        while true {
            let failure: SchemaError
            do {
                return (try registry.compile(uri: uri, options: options), filesRead)
            } catch {
                failure = error
            }
            guard failure.kind == .unresolvedReference, let reference = Self.unresolvedReference(in: failure.message) else {
                throw failure
            }
            // Another scheme is the registry's to hold (--ref): the checker's own error says where.
            guard Self.withoutFragment(reference).hasPrefix("file://") else { throw failure }
            let path = try siblingPath(for: reference)
            // The same file asked for again: it was registered and still does not resolve (a
            // fragment it does not have), which is the checker's error to report.
            guard !filesRead.contains(path) else { throw failure }
            guard filesRead.count < maximumFiles else {
                throw Refusal(reference: reference, reason: "is one file too many: a schema may read at most \(maximumFiles) files beside it")
            }
            guard FileManager.default.fileExists(atPath: path) else {
                throw Refusal(reference: reference, reason: "names \(path), which does not exist")
            }
            try registry.add(try read(path), uri: Self.withoutFragment(reference))
            filesRead.append(path)
        }
    }

    /// The local path a `file://` reference names, when it is in `folder`; otherwise a refusal that
    /// says why (another scheme, or outside the folder).
    public func siblingPath(for reference: String) throws(Refusal) -> String {
        let target = Self.withoutFragment(reference)
        guard target.hasPrefix("file://"), let url = URL(string: target), url.isFileURL else {
            throw Refusal(reference: reference, reason: "is not in the registry and is not a file beside the schema (register it with --ref URI=FILE; nothing is fetched)")
        }
        let standardized = url.standardizedFileURL.path
        // A link inside the folder may point out of it: the real path decides.
        let real = Self.realPath(standardized) ?? Self.realPath(URL(fileURLWithPath: standardized).deletingLastPathComponent().path)
            .map { $0 + "/" + URL(fileURLWithPath: standardized).lastPathComponent } ?? standardized
        guard real.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else {
            throw Refusal(reference: reference, reason: "is outside the schema's folder \(folder) (register it with --ref URI=FILE)")
        }
        return real
    }

    /// The URI in the checker's "cannot resolve the reference "…"" message (compile.c).
    static func unresolvedReference(in message: String) -> String? {
        let prefix = "cannot resolve the reference \""
        guard message.hasPrefix(prefix), message.hasSuffix("\"") else { return nil }
        return String(message.dropFirst(prefix.count).dropLast())
    }

    static func withoutFragment(_ uri: String) -> String {
        uri.firstIndex(of: "#").map { String(uri[..<$0]) } ?? uri
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
