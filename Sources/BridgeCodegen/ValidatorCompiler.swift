import BridgeContracts
import JSONCore

/// Compiles the contract schemas (JSON Schema 2020-12) into plain JavaScript: one function per
/// schema location, each keyword a test written out, in the spirit of ajv's standalone mode (no
/// eval, no `new Function`). The functions report errors exactly where the app's C checker does
/// (same instance location, keyword, keyword location): leaf keywords report; `$ref`, `allOf`,
/// `properties` and the other in-place applicators report only through their subschemas;
/// `anyOf`/`oneOf` keep their branches' errors when they fail; `not`, `if` and `contains` drop
/// theirs; a `false` subschema reports under the keyword that led to it.
///
/// Each generated function is `(data, ipath, kpath, errors)`: the value, its instance location,
/// the keyword location that led here, and the error list (null: stop at the first failure).
/// What the generator cannot compile is collected in `problems`, each with its JSON Pointer;
/// `bridgectl lint` lists them and `generate js` refuses to write a partial validator.
struct ValidatorCompiler {
    /// The keywords the C checker applies in 2020-12 and this compiler turns into code.
    static let compiledKeywords: Set<String> = [
        "$ref", "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        "maxLength", "minLength", "pattern", "format", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains",
        "maxProperties", "minProperties", "required", "dependentRequired", "allOf", "anyOf", "oneOf", "not", "if", "then",
        "else", "dependentSchemas", "dependencies", "properties", "patternProperties", "additionalProperties",
        "propertyNames", "prefixItems", "items", "contains",
    ]
    /// Keywords the C checker applies that this compiler does not: a contract using one fails lint.
    static let uncompiledKeywords: Set<String> = ["$dynamicRef", "unevaluatedItems", "unevaluatedProperties"]
    /// Formats the C checker knows; with assertFormat each one used must be one of `FORMATS` in
    /// js/src/schema-runtime.js.
    static let checkerFormats: Set<String> = [
        "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri",
        "uri-reference", "iri", "iri-reference", "uri-template", "uuid", "json-pointer", "relative-json-pointer", "regex",
    ]
    static let runtimeFormats: Set<String> = ["date-time", "date", "time", "duration", "uuid", "json-pointer", "relative-json-pointer"]
    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    let contracts: ContractSet
    let schemas: TypeScriptSchemaConverter
    let assertFormat: Bool

    /// Function name of each compiled location, in the order they were first needed.
    private(set) var names: [SchemaLocation: String] = [:]
    private(set) var order: [SchemaLocation] = []
    private(set) var functions: [String] = []
    /// Module-level constants (regular expressions, enum lists, name sets), in first-use order.
    private(set) var constants: [String] = []
    private var constantNames: [String: String] = [:]
    private(set) var problems: [CodegenError] = []
    private var queue: [SchemaLocation] = []

    init(contracts: ContractSet) {
        self.contracts = contracts
        schemas = TypeScriptSchemaConverter(contracts: contracts)
        assertFormat = contracts.manifest.assertFormat
    }

    /// The function that validates the document `file`, compiling everything it reaches.
    mutating func root(file: String) -> String {
        let name = functionName(SchemaLocation(file: file, pointer: ""))
        while !queue.isEmpty {
            let next = queue.removeFirst()
            functions.append(compileFunction(next))
        }
        return name
    }

    // MARK: - Locations and names

    private mutating func functionName(_ location: SchemaLocation) -> String {
        if let name = names[location] { return name }
        let name = "v\(names.count)"
        names[location] = name
        order.append(location)
        queue.append(location)
        return name
    }

    private mutating func problem(_ location: SchemaLocation, _ message: String) {
        let error = CodegenError(file: location.file, pointer: location.pointer, message: message)
        if !problems.contains(error) { problems.append(error) }
    }

    private mutating func constant(_ prefix: String, _ expression: String) -> String {
        if let name = constantNames[expression] { return name }
        let name = "\(prefix)\(constantNames.count)"
        constantNames[expression] = name
        constants.append("const \(name) = \(expression);")
        return name
    }

    /// The absolute URI of a location, as the checker reports absoluteKeywordLocation: a JS
    /// expression, the document's URI (a constant) and the pointer.
    private mutating func absolute(_ location: SchemaLocation) -> String {
        // A built-in event's schema is registered under its URN, as the checker reports it.
        let uri = BuiltInEvents.schema(file: location.file) != nil ? BuiltInEvents.schemaURI(file: location.file) : contracts.schemaURI(file: location.file)
        let document = constant("DOCUMENT", Self.literal(uri + "#"))
        return location.pointer.isEmpty ? document : document + " + " + Self.literal(location.pointer)
    }

    // MARK: - One function per location

    /// A subschema reached from `location` by `tokens`, resolved to a value.
    private func value(at location: SchemaLocation) -> JSONValue? {
        schemas.documents[location.file]?.value(at: location.pointer)
    }

    private mutating func compileFunction(_ location: SchemaLocation) -> String {
        let name = names[location]!
        var body = Body()
        let schema = value(at: location) ?? .bool(true)
        if let flag = schema.boolValue {
            if !flag {
                body.fail(keyword: "false", instance: "ipath", keywordLocation: "kpath", absolute: absolute(location),
                          message: "\"no value is allowed here (the schema is false)\"")
            }
        } else if let object = schema.objectValue {
            compileKeywords(object, at: location, into: &body)
        } else {
            problem(location, "a schema is an object or a boolean")
        }
        var lines = ["// \(location.file)#\(location.pointer)", "function \(name)(data, ipath, kpath, errors) {"]
        lines.append(body.usesValid ? "  let valid = true;" : "  const valid = true;")
        lines += body.lines.map { "  " + $0 }
        lines.append("  return valid;")
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The code of a call to the subschema at `child`: nothing for `true`, a report under
    /// `keyword` for `false`, otherwise a call to its function.
    private mutating func childCall(_ child: SchemaLocation, keyword: String, data: String, instance: String,
                                    keywordLocation: String, whenFalse: String = "\"no value is allowed here (the schema is false)\"",
                                    into body: inout Body) {
        guard let schema = value(at: child) else {
            problem(child, "nothing at this JSON Pointer")
            return
        }
        if let flag = schema.boolValue {
            if !flag {
                body.fail(keyword: keyword, instance: instance, keywordLocation: keywordLocation, absolute: absolute(child), message: whenFalse)
            }
            return
        }
        let function = functionName(child)
        body.add("if (!\(function)(\(data), \(instance), \(keywordLocation), errors)) { if (!errors) return false; valid = false; }")
        body.usesValid = true
    }

    /// A boolean expression that runs the subschema without keeping its errors.
    private mutating func test(_ child: SchemaLocation, data: String, instance: String, keywordLocation: String) -> String {
        guard let schema = value(at: child) else {
            problem(child, "nothing at this JSON Pointer")
            return "true"
        }
        if let flag = schema.boolValue { return flag ? "true" : "false" }
        return "\(functionName(child))(\(data), \(instance), \(keywordLocation), null)"
    }

    private mutating func compileKeywords(_ object: JSONObject, at location: SchemaLocation, into body: inout Body) {
        if !location.pointer.isEmpty, object["$id"] != nil {
            problem(location.appending("$id"), "a nested $id is not supported by the JS validator generator")
        }
        if let dialect = object["$schema"]?.stringValue, dialect.trimmingSuffix("#") != Self.dialect {
            problem(location.appending("$schema"), "the JS validator generator compiles JSON Schema 2020-12 only, not \(dialect)")
        }
        for (keyword, value) in object {
            let at = location.appending(keyword)
            if Self.uncompiledKeywords.contains(keyword) {
                problem(at, "keyword \"\(keyword)\" is not supported by the JS validator generator")
                continue
            }
            guard Self.compiledKeywords.contains(keyword) else { continue } // annotations and unknown keywords
            compile(keyword, value, in: object, at: location, into: &body)
        }
    }

    private func kpath(_ tokens: String...) -> String {
        "kpath + " + Self.literal(JSONPointer.join(tokens))
    }

    private mutating func compile(_ keyword: String, _ value: JSONValue, in object: JSONObject, at location: SchemaLocation,
                                  into body: inout Body) {
        let at = location.appending(keyword)
        let absoluteKeyword = absolute(at)
        func fail(_ condition: String, _ message: String, instance: String = "ipath") {
            body.add("if (\(condition)) {")
            body.fail(keyword: keyword, instance: instance, keywordLocation: kpath(keyword), absolute: absoluteKeyword,
                      message: message, indent: "  ")
            body.add("}")
        }
        switch keyword {
        case "$ref":
            guard let reference = value.stringValue else { return problem(at, "$ref must be a string") }
            let target: SchemaLocation
            do {
                target = try schemas.resolve(reference, from: location)
            } catch {
                return problem(at, error.message)
            }
            childCall(target, keyword: "$ref", data: "data", instance: "ipath", keywordLocation: kpath("$ref"), into: &body)

        case "type":
            let names = value.stringValue.map { [$0] } ?? value.arrayValue?.compactMap(\.stringValue) ?? []
            let tests = names.compactMap(Self.typeTest)
            guard !names.isEmpty, tests.count == names.count, value.arrayValue.map({ $0.count == names.count }) ?? true else {
                return problem(at, "type must name JSON Schema types")
            }
            let order = ["null", "boolean", "object", "array", "number", "string", "integer"].filter(names.contains)
            let expected = order.enumerated().map { index, name in
                (index == 0 ? "" : index == order.count - 1 ? " or " : ", ") + name
            }.joined()
            fail("!(" + tests.joined(separator: " || ") + ")", Self.literal("expected \(expected), got ") + " + jsonType(data)")

        case "enum":
            guard let items = value.arrayValue else { return problem(at, "enum must be an array") }
            let list = constant("ENUM", JavaScriptLiteral.inline(value))
            let test = items.allSatisfy(Self.isScalar) ? "\(list).indexOf(data) < 0" : "!includes(\(list), data)"
            fail(test, "quote(data) + \(Self.literal(" is not one of " + value.serialized()))")

        case "const":
            let test = Self.isScalar(value) ? "data !== \(JavaScriptLiteral.inline(value))" : "!equal(data, \(constant("CONST", JavaScriptLiteral.inline(value))))"
            fail(test, "quote(data) + \(Self.literal(" is not the expected value " + value.serialized()))")

        case "multipleOf":
            guard let divisor = Self.number(value), divisor > 0 else { return problem(at, "multipleOf must be a number greater than 0") }
            let literal = JavaScriptLiteral.inline(value)
            fail("typeof data === \"number\" && !isMultipleOf(data, \(literal))", "quote(data) + \(Self.literal(" is not a multiple of \(Self.text(value))"))")

        case "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum":
            guard Self.number(value) != nil else { return problem(at, "\(keyword) must be a number") }
            let (operation, relation) = [
                "maximum": (">", "greater than the maximum"), "exclusiveMaximum": (">=", "not less than the exclusive maximum"),
                "minimum": ("<", "less than the minimum"), "exclusiveMinimum": ("<=", "not greater than the exclusive minimum"),
            ][keyword]!
            fail("typeof data === \"number\" && data \(operation) \(JavaScriptLiteral.inline(value))",
                 "quote(data) + \(Self.literal(" is \(relation) \(Self.text(value))"))")

        case "maxLength", "minLength":
            guard let count = Self.count(value) else { return problem(at, "\(keyword) must be a non-negative integer") }
            let longer = keyword == "maxLength"
            let test = longer
                ? "typeof data === \"string\" && data.length > \(count) && codePointLength(data) > \(count)"
                : "typeof data === \"string\" && codePointLength(data) < \(count)"
            fail(test, "quote(data) + \(Self.literal(" is \(longer ? "longer" : "shorter") than \(count) character\(count == 1 ? "" : "s")"))")

        case "pattern":
            guard let source = value.stringValue else { return problem(at, "pattern must be a string") }
            let regex = constant("PATTERN", "new RegExp(\(Self.literal(source)), \"u\")")
            fail("typeof data === \"string\" && !\(regex).test(data)", "quote(data) + \(Self.literal(" does not match " + source))")

        case "format":
            guard let format = value.stringValue else { return problem(at, "format must be a string") }
            guard assertFormat, Self.checkerFormats.contains(format) else { return } // an annotation, as for the checker
            guard Self.runtimeFormats.contains(format) else {
                return problem(at, "format \"\(format)\" is asserted (manifest assertFormat) but the JS validators cannot check it; they check \(Self.runtimeFormats.sorted().joined(separator: ", "))")
            }
            fail("typeof data === \"string\" && !FORMATS[\(Self.literal(format))](data)", "quote(data) + \(Self.literal(" is not a valid " + format))")

        case "maxItems", "minItems", "maxProperties", "minProperties":
            guard let count = Self.count(value) else { return problem(at, "\(keyword) must be a non-negative integer") }
            let items = keyword.hasSuffix("Items")
            let size = items ? "data.length" : "Object.keys(data).length"
            let isMax = keyword.hasPrefix("max")
            let noun = items ? "items" : "properties"
            fail("\(items ? "Array.isArray(data)" : "isObject(data)") && \(size) \(isMax ? ">" : "<") \(count)",
                 "\(Self.literal("the \(items ? "array" : "object") has ")) + \(size) + \(Self.literal(" \(noun), \(isMax ? "more" : "fewer") than \(count)"))")

        case "uniqueItems":
            guard let flag = value.boolValue else { return problem(at, "uniqueItems must be a boolean") }
            guard flag else { return }
            body.add("if (Array.isArray(data)) {")
            body.add("  const pair = equalPair(data);")
            body.add("  if (pair) {")
            body.fail(keyword: keyword, instance: "ipath", keywordLocation: kpath(keyword), absolute: absoluteKeyword,
                      message: "\"items \" + pair[0] + \" and \" + pair[1] + \" are equal, but items must be unique\"", indent: "    ")
            body.add("  }")
            body.add("}")

        case "required":
            guard let names = Self.names(value) else { return problem(at, "required must be an array of strings") }
            guard !names.isEmpty else { return }
            body.add("if (isObject(data)) {")
            for name in names {
                body.add("  if (!hasOwn(data, \(Self.literal(name)))) {")
                body.fail(keyword: keyword, instance: "ipath", keywordLocation: kpath(keyword), absolute: absoluteKeyword,
                          message: Self.literal("required property \(JSONValue.string(name).serialized()) is missing"), indent: "    ")
                body.add("  }")
            }
            body.add("}")

        case "dependentRequired", "dependencies", "dependentSchemas":
            guard let map = value.objectValue else { return problem(at, "\(keyword) must be an object") }
            for (trigger, entry) in map {
                let triggerAt = at.appending(trigger)
                body.add("if (isObject(data) && hasOwn(data, \(Self.literal(trigger)))) {")
                if let names = Self.names(entry), keyword != "dependentSchemas" {
                    for name in names {
                        body.add("  if (!hasOwn(data, \(Self.literal(name)))) {")
                        body.fail(keyword: keyword, instance: "ipath", keywordLocation: kpath(keyword), absolute: absoluteKeyword,
                                  message: Self.literal("property \(JSONValue.string(name).serialized()) is required when \(JSONValue.string(trigger).serialized()) is present"),
                                  indent: "    ")
                        body.add("  }")
                    }
                } else if keyword != "dependentRequired", entry.objectValue != nil || entry.boolValue != nil {
                    var inner = Body()
                    childCall(triggerAt, keyword: keyword, data: "data", instance: "ipath", keywordLocation: kpath(keyword, trigger), into: &inner)
                    body.merge(inner, indent: "  ")
                } else {
                    problem(triggerAt, "\(keyword) maps names to \(keyword == "dependentRequired" ? "arrays of names" : keyword == "dependentSchemas" ? "schemas" : "arrays of names or schemas")")
                }
                body.add("}")
            }

        case "properties":
            guard let map = value.objectValue else { return problem(at, "properties must be an object") }
            guard !map.isEmpty else { return }
            var members = Body()
            for (name, _) in map {
                var inner = Body()
                childCall(at.appending(name), keyword: keyword, data: "data[\(Self.literal(name))]",
                          instance: "ipath + \(Self.literal(JSONPointer.join([name])))", keywordLocation: kpath(keyword, name), into: &inner)
                if !inner.lines.isEmpty { members.nest(["if (hasOwn(data, \(Self.literal(name)))) {"], inner) }
            }
            body.nest(["if (isObject(data)) {"], members)

        case "patternProperties":
            guard let map = value.objectValue else { return problem(at, "patternProperties must be an object") }
            guard !map.isEmpty else { return }
            var matches = Body()
            for (source, _) in map {
                let regex = constant("PATTERN", "new RegExp(\(Self.literal(source)), \"u\")")
                var inner = Body()
                childCall(at.appending(source), keyword: keyword, data: "data[key]", instance: "ipath + pointerToken(key)",
                          keywordLocation: kpath(keyword, source), into: &inner)
                matches.nest(["if (\(regex).test(key)) {"], inner)
            }
            body.nest(["if (isObject(data)) {", "for (const key of Object.keys(data)) {"], matches)

        case "additionalProperties":
            var skip: [String] = []
            if let declared = object["properties"]?.objectValue, !declared.isEmpty {
                let names = JSONValue.array(declared.map { .string($0.key) })
                skip.append("\(constant("NAMES", "new Set(\(JavaScriptLiteral.inline(names)))")).has(key)")
            }
            if let patterns = object["patternProperties"]?.objectValue {
                for (source, _) in patterns { skip.append("\(constant("PATTERN", "new RegExp(\(Self.literal(source)), \"u\")")).test(key)") }
            }
            var inner = Body()
            childCall(at, keyword: keyword, data: "data[key]", instance: "ipath + pointerToken(key)", keywordLocation: kpath(keyword),
                      whenFalse: "\"property \" + quote(key) + \" is not allowed\"", into: &inner)
            guard !inner.lines.isEmpty else { return }
            if !skip.isEmpty { inner.lines.insert("if (\(skip.joined(separator: " || "))) continue;", at: 0) }
            body.nest(["if (isObject(data)) {", "for (const key of Object.keys(data)) {"], inner)

        case "propertyNames":
            var inner = Body()
            childCall(at, keyword: keyword, data: "key", instance: "ipath + pointerToken(key)", keywordLocation: kpath(keyword),
                      whenFalse: "\"property name \" + quote(key) + \" is not allowed\"", into: &inner)
            guard !inner.lines.isEmpty else { return }
            body.nest(["if (isObject(data)) {", "for (const key of Object.keys(data)) {"], inner)

        case "prefixItems":
            guard let items = value.arrayValue else { return problem(at, "prefixItems must be an array of schemas") }
            var elements = Body()
            for index in items.indices {
                var inner = Body()
                childCall(at.appending(String(index)), keyword: keyword, data: "data[\(index)]", instance: "ipath + \"/\(index)\"",
                          keywordLocation: kpath(keyword, String(index)), into: &inner)
                if !inner.lines.isEmpty { elements.nest(["if (data.length > \(index)) {"], inner) }
            }
            body.nest(["if (Array.isArray(data)) {"], elements)

        case "items":
            guard value.arrayValue == nil else { return problem(at, "items as an array is draft-07; 2020-12 uses prefixItems") }
            let start = object["prefixItems"]?.arrayValue?.count ?? 0
            var inner = Body()
            childCall(at, keyword: keyword, data: "data[i]", instance: "ipath + \"/\" + i", keywordLocation: kpath(keyword),
                      whenFalse: "\"item \" + i + \" is not allowed (only \(start) item\(start == 1 ? " is" : "s are") allowed)\"", into: &inner)
            guard !inner.lines.isEmpty else { return }
            body.nest(["if (Array.isArray(data)) {", "for (let i = \(start); i < data.length; i++) {"], inner)

        case "contains":
            let minimum = object["minContains"].flatMap(Self.count) ?? 1
            let maximum = object["maxContains"].flatMap(Self.count)
            let matches = test(at, data: "data[i]", instance: "ipath + \"/\" + i", keywordLocation: kpath(keyword))
            body.add("if (Array.isArray(data)) {")
            body.add("  let matches = 0;")
            body.add("  for (let i = 0; i < data.length; i++) if (\(matches)) matches++;")
            let fewer = minimum == 1
                ? Self.literal("the array has no item that matches the \"contains\" schema")
                : "\"the array has \" + matches + \" items matching the \\\"contains\\\" schema, fewer than minContains \(minimum)\""
            body.add("  if (matches < \(minimum)) {")
            body.fail(keyword: keyword, instance: "ipath", keywordLocation: kpath(keyword), absolute: absoluteKeyword, message: fewer, indent: "    ")
            if let maximum {
                body.add("  } else if (matches > \(maximum)) {")
                body.fail(keyword: keyword, instance: "ipath", keywordLocation: kpath(keyword), absolute: absoluteKeyword,
                          message: "\"the array has \" + matches + \" items matching the \\\"contains\\\" schema, more than maxContains \(maximum)\"", indent: "    ")
            }
            body.add("  }")
            body.add("}")

        case "minContains", "maxContains":
            if Self.count(value) == nil { problem(at, "\(keyword) must be a non-negative integer") }

        case "allOf":
            guard let branches = value.arrayValue, !branches.isEmpty else { return problem(at, "allOf must be a non-empty array of schemas") }
            for index in branches.indices {
                childCall(at.appending(String(index)), keyword: keyword, data: "data", instance: "ipath", keywordLocation: kpath(keyword, String(index)), into: &body)
            }

        case "anyOf", "oneOf":
            guard let branches = value.arrayValue, !branches.isEmpty else { return problem(at, "\(keyword) must be a non-empty array of schemas") }
            let one = keyword == "oneOf"
            body.add("{")
            body.add("  const branchErrors = errors ? [] : null;")
            body.add("  let passed = 0;")
            for index in branches.indices {
                let branch = at.appending(String(index))
                let call: String
                if let flag = self.value(at: branch)?.boolValue {
                    call = flag ? "true" : "(branchErrors ? report(branchErrors, ipath, \(kpath(keyword, String(index))), \(absolute(branch)), \(Self.literal(keyword)), \"no value is allowed here (the schema is false)\") : false)"
                } else {
                    call = "\(functionName(branch))(data, ipath, \(kpath(keyword, String(index))), branchErrors)"
                }
                // anyOf stops at the first branch that passes, as the checker does; oneOf counts them all.
                body.add(one || index == 0 ? "  if (\(call)) passed++;" : "  if (passed === 0 && \(call)) passed++;")
            }
            if one {
                body.add("  if (passed === 0) {")
                body.add("    if (!errors) return false;")
                body.add("    valid = false;")
                body.add("    Array.prototype.push.apply(errors, branchErrors);")
                body.add("    report(errors, ipath, \(kpath(keyword)), \(absoluteKeyword), \"oneOf\", \(Self.literal("the value matches none of the \(branches.count) \"oneOf\" schemas")));")
                body.add("  } else if (passed > 1) {")
                body.fail(keyword: keyword, instance: "ipath", keywordLocation: kpath(keyword), absolute: absoluteKeyword,
                          message: Self.literal("the value matches more than one \"oneOf\" schema"), indent: "    ")
                body.add("  }")
            } else {
                body.add("  if (passed === 0) {")
                body.add("    if (!errors) return false;")
                body.add("    valid = false;")
                body.add("    Array.prototype.push.apply(errors, branchErrors);")
                body.add("    report(errors, ipath, \(kpath(keyword)), \(absoluteKeyword), \"anyOf\", \(Self.literal("the value matches none of the \(branches.count) \"anyOf\" schemas")));")
                body.add("  }")
            }
            body.add("}")
            body.usesValid = true

        case "not":
            let matches = test(at, data: "data", instance: "ipath", keywordLocation: kpath(keyword))
            fail(matches, Self.literal("the value must not match the \"not\" schema"))

        case "if":
            let then = object["then"].map { _ in location.appending("then") }
            let otherwise = object["else"].map { _ in location.appending("else") }
            guard then != nil || otherwise != nil else { return }
            let matches = test(at, data: "data", instance: "ipath", keywordLocation: kpath(keyword))
            var thenBody = Body()
            var elseBody = Body()
            if let then { childCall(then, keyword: "then", data: "data", instance: "ipath", keywordLocation: kpath("then"), into: &thenBody) }
            if let otherwise { childCall(otherwise, keyword: "else", data: "data", instance: "ipath", keywordLocation: kpath("else"), into: &elseBody) }
            body.add("if (\(matches)) {")
            body.merge(thenBody, indent: "  ")
            body.add("} else {")
            body.merge(elseBody, indent: "  ")
            body.add("}")

        case "then", "else":
            break // compiled with "if"; alone they do nothing

        default:
            problem(at, "keyword \"\(keyword)\" is not supported by the JS validator generator")
        }
    }

    // MARK: - Small helpers

    static func literal(_ text: String) -> String {
        JSONValue.string(text).serialized(escapeForScript: true)
    }

    private static func typeTest(_ name: String) -> String? {
        switch name {
        case "null": return "data === null"
        case "boolean": return "typeof data === \"boolean\""
        case "object": return "isObject(data)"
        case "array": return "Array.isArray(data)"
        case "number": return "typeof data === \"number\""
        case "integer": return "Number.isInteger(data)"
        case "string": return "typeof data === \"string\""
        default: return nil
        }
    }

    private static func isScalar(_ value: JSONValue) -> Bool {
        switch value {
        case .array, .object: return false
        default: return true
        }
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .number(let real): return real.isFinite ? real : nil
        default: return nil
        }
    }

    private static func count(_ value: JSONValue) -> Int64? {
        guard let number = value.integerValue, number >= 0 else { return nil }
        return number
    }

    private static func names(_ value: JSONValue) -> [String]? {
        guard let items = value.arrayValue else { return nil }
        let names = items.compactMap(\.stringValue)
        return names.count == items.count ? names : nil
    }

    /// A number as the checker prints it in an error sentence.
    private static func text(_ value: JSONValue) -> String {
        value.serialized()
    }
}

/// The statements of one generated function.
private struct Body {
    var lines: [String] = []
    /// Whether a statement may set `valid` to false (otherwise it is declared const).
    var usesValid = false

    mutating func add(_ line: String) {
        lines.append(line)
    }

    /// A failed keyword: stop in boolean mode, else record the error and go on.
    mutating func fail(keyword: String, instance: String, keywordLocation: String, absolute: String, message: String, indent: String = "") {
        lines.append(indent + "if (!errors) return false;")
        lines.append(indent + "valid = report(errors, \(instance), \(keywordLocation), \(absolute), \(ValidatorCompiler.literal(keyword)), \(message));")
        usesValid = true
    }

    /// `inner` inside blocks opened one in the other ("if (...) {", "for (...) {"), each closed.
    mutating func nest(_ openings: [String], _ inner: Body) {
        for (depth, opening) in openings.enumerated() { add(String(repeating: "  ", count: depth) + opening) }
        merge(inner, indent: String(repeating: "  ", count: openings.count))
        for depth in openings.indices.reversed() { add(String(repeating: "  ", count: depth) + "}") }
    }

    mutating func merge(_ other: Body, indent: String) {
        lines += other.lines.map { indent + $0 }
        if other.usesValid { usesValid = true }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
