import BridgeContracts
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import SchemaCheck

let validateCommand = Command(CommandSpec(
    name: "validate",
    summary: "check messages against the contracts (or any document against --schema)",
    forms: [UsageForm("FILE... | -"), UsageForm("--ndjson FILE | -", options: ["jobs"])],
    about: """
    Checks each message against the contract picked by its "action" and "version".
    """,
    options: [
        ContractsOption.option,
        .value("schema", "FILE", help: """
            check each FILE against this schema instead of the contracts; the files it refers
            to in its folder (or below) are read, nothing else
            """),
        .repeatable("ref", "[URI=]FILE", help: """
            register another schema document (repeatable): by its file URI and its $id,
            or with URI=FILE under URI
            """),
        .choice("draft", ValidateRun.drafts.map(\.flag), help: """
            dialect of schemas without $schema; exactly as if their $schema named it.
            A $schema that is none of these and no --ref meta-schema is an error naming it
            """, default: "2020-12"),
        .flag("assert-format", help: "treat \"format\" as an assertion, not an annotation"),
        .flag("assert-content", help: """
            treat contentEncoding (base64), contentMediaType (application/json)
            and contentSchema as assertions (draft-07, 2019-09, 2020-12), not
            annotations
            """),
        FormatOption.option,
        .flag("ndjson", help: """
            the input is a log of one message per line (NDJSON): prints each
            invalid line as `line 17: /payload/slug: ... (pattern)` and ends with
            `N valid, M invalid`. Blank lines are skipped and counted; a line that
            is not JSON or is too long is an invalid line, not a fatal error. Exit 0
            all valid, 1 any invalid, 2 unreadable input. Streams: memory does not
            grow with the number of lines. With --format json: one document,
            {"results": [{"line": 17, ...}], "valid": N, "invalid": M, "blank": K},
            written as it goes.
            """),
        .value("jobs", "N", help: "threads for --ndjson (default: all cores); output stays in line order"),
    ],
    footer: """
    exit: 0 all valid; 1 any invalid; 2 usage errors and input that cannot be read or parsed
          (not JSON, invalid UTF-8, duplicate keys, too deep, too large), and with --schema a
          file whose check could not finish (a $ref loop it enters, the depth or regex limit;
          with --ndjson such a line counts as invalid).
    """
), run: { arguments, console in try ValidateRun(console: console).run(arguments) })

struct ValidateRun {
    let console: Console

    func run(_ arguments: Arguments) throws -> Int32 {
        let format = arguments.value("format") ?? "text"
        let checker = try makeChecker(arguments)
        guard !arguments.positional.isEmpty else {
            throw UsageError("no input; give one or more files, or - for standard input")
        }
        if arguments.has("ndjson") || arguments.value("jobs") != nil {
            return try NDJSONValidateRun(console: console).run(arguments, checker: checker, format: format)
        }

        var exitCode = ExitCode.success
        var results: [JSONValue] = []
        var counts = (valid: 0, invalid: 0, unreadable: 0)
        for path in arguments.positional {
            switch readDocument(path, limits: checker.parseLimits) {
            case .failure(let error):
                counts.unreadable += 1
                exitCode = ExitCode.usage
                if format == "json" {
                    results.append(["file": .string(error.name), "valid": false, "readable": false, "message": .string(error.message)])
                } else {
                    console.err(error.line + "\n")
                }
            case .success(let (name, document)):
                let outcome = checker.check(document)
                if outcome.valid { counts.valid += 1 } else { counts.invalid += 1 }
                if !outcome.valid && exitCode == ExitCode.success { exitCode = ExitCode.invalid }
                if outcome.couldNotFinish { exitCode = ExitCode.usage }
                if format == "json" {
                    results.append(outcome.json(name: name))
                } else {
                    for line in outcome.textLines(name: name) { console.out(line + "\n") }
                }
            }
        }
        if format == "json" {
            let report: JSONValue = [
                "results": .array(results),
                "valid": .integer(Int64(counts.valid)),
                "invalid": .integer(Int64(counts.invalid)),
                "unreadable": .integer(Int64(counts.unreadable)),
            ]
            console.out(report.prettyPrinted() + "\n")
        }
        return exitCode
    }

    private func readDocument(_ path: String, limits: ParseLimits) -> Result<(String, JSONDocument), InputError> {
        let maxBytes = limits.maxBytes > 0 ? limits.maxBytes : Int.max
        switch InputFile.read(path, maxBytes: maxBytes, console: console) {
        case .failure(let error):
            return .failure(error)
        case .success(let input):
            do {
                return .success((input.name, try JSONDocument(input.bytes, limits: limits)))
            } catch {
                return .failure(InputError(input.name, error.description))
            }
        }
    }

    static let drafts: [(flag: String, dialect: SchemaOptions.Dialect)] = [
        ("2020-12", .draft2020_12), ("2019-09", .draft2019_09), ("7", .draft7), ("6", .draft6), ("4", .draft4),
    ]

    private func makeChecker(_ arguments: Arguments) throws -> MessageChecker {
        let flag = arguments.value("draft") ?? "2020-12"
        let dialect = Self.drafts.first { $0.flag == flag }?.dialect ?? .draft2020_12
        let options = SchemaOptions(dialect: dialect, assertFormat: arguments.has("assert-format"),
                                    assertContent: arguments.has("assert-content"))
        guard let schemaPath = arguments.value("schema") else {
            if !arguments.all("ref").isEmpty { throw UsageError("--ref goes with --schema") }
            // validate reads no fixtures, so they are not even parsed.
            do {
                let contracts = try ContractsOption.load(arguments, includingFixtures: false)
                return ContractChecker(compiled: try CompiledContracts(contracts: contracts, options: options))
            } catch {
                throw UsageError("the contracts cannot be used: \(error)")
            }
        }
        let references = try arguments.all("ref").map { reference in
            let (uri, file) = Self.splitReference(reference)
            return (uri: uri ?? Self.fileURI(file), file: file, document: try Self.loadSchemaFile(file))
        }
        let schemaDocument = try Self.loadSchemaFile(schemaPath)
        // Documents without $schema are read in the --draft dialect, as the schema is; the
        // built-in meta-schemas are registered only when a document refers to one.
        let registry = SchemaRegistry(
            includeMetaSchemas: ([schemaDocument] + references.map(\.document)).contains {
                SchemaRegistry.needsMetaSchemas($0.value)
            },
            dialect: dialect)
        for reference in references {
            do {
                try registry.add(reference.document, uri: reference.uri)
            } catch {
                throw UsageError("\(reference.file): \(error)")
            }
        }
        // Known by its file URI (the base of its relative references) and by its own $id; the
        // files it refers to beside it are read as the checker asks for them.
        let uri = Self.fileURI(schemaPath)
        do {
            try registry.add(schemaDocument, uri: uri)
            let siblings = SiblingSchemaFiles(schemaFile: schemaPath)
            let schema = try siblings.compile(uri: uri, registry: registry, options: options, read: Self.loadSchemaFile).schema
            return SchemaFileChecker(schema: schema, parseLimits: ParseLimits(maxBytes: 256 << 20))
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("\(schemaPath): the schema does not compile: \(error)")
        }
    }

    /// `URI=FILE` when the part before the first "=" looks like a URI (has a scheme), else FILE.
    static func splitReference(_ reference: String) -> (uri: String?, file: String) {
        if let (uri, file) = Arguments.splitAtFirstEquals(reference), uri.contains(":") {
            return (uri, file)
        }
        return (nil, reference)
    }

    static func fileURI(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.absoluteString
    }

    /// A schema file, or a pipe (`--schema <(jq ... schema.json)`), read once.
    static func loadSchemaFile(_ path: String) throws -> JSONDocument {
        let bytes: [UInt8]
        switch InputFile.readBytes(path, maxBytes: 256 << 20) {
        case .failure(let error):
            throw UsageError(error.message == "no such file" ? "\(path): no such schema file" : "schema \(error.line)")
        case .success(let read): bytes = read
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw UsageError("\(path): \(InputFile.byteOrderMarkMessage)") }
        do {
            return try JSONDocument(bytes: bytes, limits: .unlimited)
        } catch {
            throw UsageError("\(path): the schema is not valid JSON: \(error)")
        }
    }
}
