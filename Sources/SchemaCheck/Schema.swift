#if VendoredC
import CJanssonVendored
#else
import CJansson
#endif
import CSchemaCheck
import JSONCore

/// What kind of failure a `SchemaError` is (a `JSONParseError` has its own `Kind`), for programs (the message is
/// for people). One case per `sc_error_code` of the C checker (schemacheck.h).
public enum CheckerErrorKind: Sendable, Hashable {
    /// An allocation failed; nothing is wrong with the input.
    case outOfMemory
    /// Not JSON: syntax, invalid UTF-8, a duplicate key, trailing data.
    case parse
    /// A limit was exceeded: input size, nesting, string length, members, items, or a schema
    /// nested too deeply to compile.
    case limitExceeded
    /// A keyword has a value its dialect does not allow, or the document is not a schema.
    case invalidSchema
    /// A `$ref` or `$dynamicRef` names nothing in the document or the registry.
    case unresolvedReference
    /// `pattern` or `patternProperties` is not a usable ECMA-262 regular expression.
    case badRegex
    /// `$schema` names no known dialect, or a meta-schema requires an unknown vocabulary.
    case unknownDialect
    /// A bad argument: no URI for a document without `$id`.
    case usage

    init(_ code: sc_error_code) {
        switch code {
        case SC_ERROR_OUT_OF_MEMORY: self = .outOfMemory
        case SC_ERROR_PARSE: self = .parse
        case SC_ERROR_LIMIT: self = .limitExceeded
        case SC_ERROR_UNRESOLVED_REFERENCE: self = .unresolvedReference
        case SC_ERROR_BAD_REGEX: self = .badRegex
        case SC_ERROR_UNKNOWN_DIALECT: self = .unknownDialect
        case SC_ERROR_USAGE: self = .usage
        default: self = .invalidSchema
        }
    }
}

/// A schema that could not be registered or compiled: a bad keyword value, an
/// unresolvable `$ref`, a bad regular expression. `location` is the schema's URI#pointer.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var location: String
    public var kind: CheckerErrorKind

    public init(message: String, location: String = "", kind: CheckerErrorKind = .invalidSchema) {
        self.message = message
        self.location = location
        self.kind = kind
    }

    init(_ error: sc_error) {
        var copy = error
        message = withUnsafeBytes(of: &copy.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        location = withUnsafeBytes(of: &copy.location) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        kind = CheckerErrorKind(error.code)
    }

    public var description: String {
        location.isEmpty ? message : "\(message), at \(location)"
    }
}

/// Compile options (`sc_options`).
public struct SchemaOptions: Sendable, Hashable {
    /// A JSON Schema dialect. A schema without `$schema` is read in the default dialect exactly
    /// as if its `$schema` named it.
    public enum Dialect: Sendable, Hashable, CaseIterable {
        case draft2020_12
        case draft2019_09
        case draft7
        case draft6
        case draft4

        var cValue: sc_dialect {
            switch self {
            case .draft2020_12: SC_DIALECT_2020_12
            case .draft2019_09: SC_DIALECT_2019_09
            case .draft7: SC_DIALECT_DRAFT7
            case .draft6: SC_DIALECT_DRAFT6
            case .draft4: SC_DIALECT_DRAFT4
            }
        }
    }

    /// Used when a schema resource has no `$schema`.
    public var dialect: Dialect
    /// `format` as an assertion instead of an annotation.
    public var assertFormat: Bool
    /// `contentEncoding` (base64), `contentMediaType` (application/json) and `contentSchema` as
    /// assertions where the dialect has them (draft-07, 2019-09, 2020-12); annotations otherwise.
    public var assertContent: Bool
    /// PCRE2 match limit per match; 0 is the checker's default.
    public var regexMatchLimit: UInt32
    /// Bound on nested schema/instance recursion during validation; 0 is the default (512).
    public var maxValidationDepth: UInt32

    public init(dialect: Dialect = .draft2020_12, assertFormat: Bool = false, regexMatchLimit: UInt32 = 0,
                maxValidationDepth: UInt32 = 0) {
        self.dialect = dialect
        self.assertFormat = assertFormat
        self.assertContent = false
        self.regexMatchLimit = regexMatchLimit
        self.maxValidationDepth = maxValidationDepth
    }

    /// The same, with content assertions chosen. (A separate initialiser, so that code built
    /// against the one above keeps linking.)
    public init(dialect: Dialect = .draft2020_12, assertFormat: Bool = false, assertContent: Bool,
                regexMatchLimit: UInt32 = 0, maxValidationDepth: UInt32 = 0) {
        self.init(dialect: dialect, assertFormat: assertFormat, regexMatchLimit: regexMatchLimit,
                  maxValidationDepth: maxValidationDepth)
        self.assertContent = assertContent
    }

    var cValue: sc_options {
        var options = sc_options()
        sc_options_init(&options)
        options.default_dialect = dialect.cValue
        options.assert_format = assertFormat ? 1 : 0
        options.assert_content = assertContent ? 1 : 0
        options.regex_match_limit = regexMatchLimit
        if maxValidationDepth > 0 { options.max_validation_depth = maxValidationDepth }
        return options
    }
}

/// Schema documents by URI, for `$ref` between documents. Nothing is ever fetched: a
/// reference resolves only to what was added here. Not thread-safe while documents are
/// being added; compiled schemas do not keep the registry alive or need it afterwards.
public final class SchemaRegistry {
    let raw: OpaquePointer

    /// With `includeMetaSchemas`, the official meta-schemas (2020-12 and 2019-09 with their
    /// vocabularies, draft-07, draft-06, draft-04) are registered under their identifiers, so a
    /// schema may `$ref` them. Documents added without `$schema` are read in `dialect`: compile
    /// with the same `SchemaOptions.dialect`.
    public init(includeMetaSchemas: Bool = true, dialect: SchemaOptions.Dialect = .draft2020_12) {
        guard let registry = sc_registry_new_for_dialect(dialect.cValue) else {
            fatalError("out of memory creating a schema registry")
        }
        raw = registry
        guard includeMetaSchemas else { return }
        for path in BundledMetaSchemas.files.keys.sorted() where path.hasSuffix(".json") {
            guard let text = BundledMetaSchemas.files[path],
                let document = try? JSONDocument(text, limits: .unlimited)
            else { continue }
            try? add(document, uri: nil)
        }
    }

    deinit {
        sc_registry_free(raw)
    }

    /// Whether a schema needs the built-in meta-schemas registered: a `$ref` to one, an
    /// identifier under json-schema.org, or a `$schema` there that is none of the five dialects
    /// the checker knows by URI. Registering them all costs more than a small validation.
    public static func needsMetaSchemas(_ schema: JSONValue) -> Bool {
        switch schema {
        case .object(let members):
            for (key, value) in members {
                if case .string(let text) = value, refersToMetaSchema(keyword: key, value: text) { return true }
                if needsMetaSchemas(value) { return true }
            }
            return false
        case .array(let items):
            return items.contains(where: needsMetaSchemas)
        default:
            return false
        }
    }

    private static let knownDialects: Set<String> = [
        "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2019-09/schema",
        "http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema",
        "http://json-schema.org/draft-04/schema",
    ]

    private static func refersToMetaSchema(keyword: String, value: String) -> Bool {
        // Only an absolute URI reaches json-schema.org (a relative one would need an identifier
        // there, which is itself caught). hasPrefix, not contains: this runs on every start.
        guard value.hasPrefix("https://json-schema.org/") || value.hasPrefix("http://json-schema.org/") else {
            return false
        }
        switch keyword {
        case "$schema":
            return !knownDialects.contains(value.hasSuffix("#") ? String(value.dropLast()) : value)
        case "$ref", "$dynamicRef", "$recursiveRef", "$id", "id":
            return true
        default:
            return false
        }
    }

    /// Registers a document under `uri`, or under its own `$id` when `uri` is nil.
    public func add(_ document: JSONDocument, uri: String?) throws(SchemaError) {
        var error = sc_error()
        let status: Int32 = withExtendedLifetime(document) {
            if let uri { return sc_registry_add(raw, uri, document.raw, &error) }
            return sc_registry_add(raw, nil, document.raw, &error)
        }
        if status != 0 { throw SchemaError(error) }
    }

    public func add(_ value: JSONValue, uri: String?) throws(SchemaError) {
        try add(JSONDocument(value), uri: uri)
    }

    /// Compiles the schema registered at `uri` (which may carry a `#fragment`).
    public func compile(uri: String, options: SchemaOptions = SchemaOptions()) throws(SchemaError) -> CompiledSchema {
        try CompiledSchema(uri: uri, registry: self, options: options)
    }
}

/// The answer of a validation.
public enum ValidationStatus: Sendable, Hashable {
    case valid
    case invalid
    /// Validation could not finish (regex match limit, depth limit, a loop that makes no
    /// progress, out of memory).
    case incomplete
}

/// One error in JSON Schema "basic" output form.
public struct OutputUnit: Sendable, Codable, Hashable {
    public var instanceLocation: String
    public var keywordLocation: String
    public var absoluteKeywordLocation: String
    public var keyword: String
    public var error: String

    public init(instanceLocation: String, keywordLocation: String, absoluteKeywordLocation: String, keyword: String,
                error: String) {
        self.instanceLocation = instanceLocation
        self.keywordLocation = keywordLocation
        self.absoluteKeywordLocation = absoluteKeywordLocation
        self.keyword = keyword
        self.error = error
    }
}

/// The full result: a status and every error as an output unit. It is also the collection
/// of its units, so `result.isEmpty` and `result.map { ... }` read the errors.
public struct ValidationResult: Sendable, Hashable, RandomAccessCollection {
    public var status: ValidationStatus
    public var units: [OutputUnit]

    public init(status: ValidationStatus, units: [OutputUnit]) {
        self.status = status
        self.units = units
    }

    public var isValid: Bool { status == .valid }

    public var startIndex: Int { units.startIndex }
    public var endIndex: Int { units.endIndex }
    public subscript(position: Int) -> OutputUnit { units[position] }
}

/// A compiled schema: immutable after init, so one instance may validate from many
/// threads at once. It owns everything it needs; the registry may go away.
public final class CompiledSchema: @unchecked Sendable {
    let raw: OpaquePointer

    /// Compiles a standalone schema document; `registry` resolves its outside references.
    public init(document: JSONDocument, registry: SchemaRegistry? = nil, options: SchemaOptions = SchemaOptions())
        throws(SchemaError)
    {
        var cOptions = options.cValue
        var error = sc_error()
        let compiled = withExtendedLifetime((document, registry)) {
            sc_compile_document(document.raw, registry?.raw, &cOptions, &error)
        }
        guard let compiled else { throw SchemaError(error) }
        raw = compiled
    }

    public convenience init(document: JSONValue, registry: SchemaRegistry? = nil,
                            options: SchemaOptions = SchemaOptions()) throws(SchemaError)
    {
        try self.init(document: JSONDocument(document), registry: registry, options: options)
    }

    /// Compiles the schema registered at `uri` (which may carry a `#fragment`).
    public init(uri: String, registry: SchemaRegistry, options: SchemaOptions = SchemaOptions()) throws(SchemaError) {
        var cOptions = options.cValue
        var error = sc_error()
        let compiled = withExtendedLifetime(registry) { sc_compile(registry.raw, uri, &cOptions, &error) }
        guard let compiled else { throw SchemaError(error) }
        raw = compiled
    }

    deinit {
        sc_schema_free(raw)
    }

    /// The location of a schema object that can apply itself to the same value in a loop (a
    /// `$ref` cycle with no property or item in between), or nil. Such a schema compiles, but
    /// an instance that enters the loop cannot be validated (`.incomplete`).
    public var loopLocation: String? {
        sc_schema_loop_location(raw).map { String(cString: $0) }
    }

    /// The fast path: stops at the first failure and builds no locations.
    public func check(_ document: JSONDocument) -> ValidationStatus {
        let answer = withExtendedLifetime(document) { sc_is_valid(raw, document.raw) }
        switch answer {
        case 1: return .valid
        case 0: return .invalid
        default: return .incomplete
        }
    }

    /// The fast path as a Bool: true only when the document is known to be valid
    /// (a validation that could not finish counts as not valid).
    public func isValid(_ document: JSONDocument) -> Bool {
        check(document) == .valid
    }

    public func isValid(_ value: JSONValue) -> Bool {
        isValid(JSONDocument(value))
    }

    public func check(_ value: JSONValue) -> ValidationStatus {
        check(JSONDocument(value))
    }

    /// The full path: every error as a basic output unit.
    public func validate(_ document: JSONDocument) -> ValidationResult {
        let produced = withExtendedLifetime(document) { sc_validate(raw, document.raw) }
        guard let result = produced else {
            return ValidationResult(status: .incomplete, units: [
                OutputUnit(instanceLocation: "", keywordLocation: "", absoluteKeywordLocation: "", keyword: "",
                           error: "validation could not finish: out of memory"),
            ])
        }
        defer { sc_result_free(result) }
        let count = sc_result_count(result)
        var units: [OutputUnit] = []
        units.reserveCapacity(count)
        for index in 0..<count {
            guard let unit = sc_result_unit(result, index)?.pointee else { continue }
            units.append(OutputUnit(
                instanceLocation: String(cString: unit.instance_location),
                keywordLocation: String(cString: unit.keyword_location),
                absoluteKeywordLocation: String(cString: unit.absolute_keyword_location),
                keyword: String(cString: unit.keyword),
                error: String(cString: unit.error)))
        }
        let status: ValidationStatus
        switch sc_result_status(result) {
        case 1: status = .valid
        case 0: status = .invalid
        default: status = .incomplete
        }
        return ValidationResult(status: status, units: units)
    }

    public func validate(_ value: JSONValue) -> ValidationResult {
        validate(JSONDocument(value))
    }
}
