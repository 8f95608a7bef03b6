#if VendoredC
import CJanssonVendored
#else
import CJansson
#endif
import CSchemaCheck
import JSONCore

/// A schema that could not be registered or compiled: a bad keyword value, an
/// unresolvable `$ref`, a bad regular expression. `location` is the schema's URI#pointer.
public struct SchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var location: String

    public init(message: String, location: String = "") {
        self.message = message
        self.location = location
    }

    init(_ error: sc_error) {
        var copy = error
        message = withUnsafeBytes(of: &copy.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        location = withUnsafeBytes(of: &copy.location) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    public var description: String {
        location.isEmpty ? message : "\(message), at \(location)"
    }
}

/// Compile options (`sc_options`).
public struct SchemaOptions: Sendable, Hashable {
    public enum Dialect: Sendable, Hashable {
        case draft2020_12
        case draft7
    }

    /// Used when a schema resource has no `$schema`.
    public var dialect: Dialect
    /// `format` as an assertion instead of an annotation.
    public var assertFormat: Bool
    /// PCRE2 match limit per match; 0 is the checker's default.
    public var regexMatchLimit: UInt32
    /// Bound on nested schema/instance recursion during validation; 0 is the default (512).
    public var maxValidationDepth: UInt32

    public init(dialect: Dialect = .draft2020_12, assertFormat: Bool = false, regexMatchLimit: UInt32 = 0,
                maxValidationDepth: UInt32 = 0) {
        self.dialect = dialect
        self.assertFormat = assertFormat
        self.regexMatchLimit = regexMatchLimit
        self.maxValidationDepth = maxValidationDepth
    }

    var cValue: sc_options {
        var options = sc_options()
        sc_options_init(&options)
        options.default_dialect = dialect == .draft7 ? SC_DIALECT_DRAFT7 : SC_DIALECT_2020_12
        options.assert_format = assertFormat ? 1 : 0
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

    /// With `includeMetaSchemas`, the official 2020-12 (with its meta/ vocabularies) and
    /// draft-07 meta-schemas are registered under their `$id`s, so a schema may `$ref` them.
    public init(includeMetaSchemas: Bool = true) {
        guard let registry = sc_registry_new() else { fatalError("out of memory creating a schema registry") }
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
    /// Validation could not finish (regex match limit, depth limit, out of memory).
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
