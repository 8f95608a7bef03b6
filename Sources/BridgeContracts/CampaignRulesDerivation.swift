import DeeplinkRouting
import JSONCore

extension ContractSet {
    /// The campaign rules of this contract set: the schema the envelope's `campaign` property
    /// refers to, turned into data the routing layer and the web shim apply (`CampaignRules`).
    ///
    /// Only what can be expressed faithfully is accepted: per field `type: "string"`, `minLength`,
    /// `maxLength`, a `pattern` of the supported subset (see `ScalarPatternParser`), a local `$ref`
    /// to `$defs`, and annotations; on the object, `properties`, `additionalProperties` true or
    /// false, `$defs` and annotations. Anything else is an error naming the file and the keyword,
    /// never an approximation: a link tool that checks less than the schema would let through the
    /// very values the app then rejects. An envelope without a `campaign` property has no rules.
    public func campaignRules() throws(ContractError) -> CampaignRules {
        guard let envelope = schema(file: manifest.envelopeSchema) else {
            throw ContractError(file: "manifest.json", pointer: "/envelopeSchema", message: "names schemas/\(manifest.envelopeSchema), which does not exist")
        }
        let envelopePath = "schemas/\(manifest.envelopeSchema)"
        guard let property = envelope["properties"]?["campaign"] else { return .unrestricted }
        guard let reference = property["$ref"]?.stringValue else {
            throw ContractError(file: envelopePath, pointer: "/properties/campaign", message: "expected a $ref to the campaign schema document")
        }
        guard let file = campaignSchemaFile(reference: reference) else {
            throw ContractError(file: envelopePath, pointer: "/properties/campaign/$ref", message: "\(reference) is not a schema document of this contract set (a whole document, no #fragment)")
        }
        return try CampaignRulesReader(file: file, document: schema(file: file)!).rules()
    }

    /// The schema file a `$ref` of the envelope names: relative to the envelope's $id, or absolute.
    public func campaignSchemaFile(reference: String) -> String? {
        let parts = reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 1 || parts[1].isEmpty else { return nil }
        let target = String(parts[0])
        let base = schemaURI(file: manifest.envelopeSchema)
        let absolute: String
        if target.contains("://") {
            absolute = target
        } else if let slash = base.lastIndex(of: "/") {
            absolute = base[...slash] + target
        } else {
            absolute = target
        }
        return schemas.first { schemaURI(file: $0.file) == absolute }?.file
    }
}

/// Reads one campaign schema document into rules, refusing what it cannot express.
private struct CampaignRulesReader {
    let file: String
    let document: JSONValue
    var path: String { "schemas/\(file)" }

    static let annotations: Set<String> = ["$schema", "$id", "$comment", "title", "description", "examples", "default", "deprecated", "readOnly", "writeOnly"]
    static let objectKeywords: Set<String> = ["type", "properties", "additionalProperties", "$defs"]
    static let fieldKeywords: Set<String> = ["type", "minLength", "maxLength", "pattern", "$ref"]

    func refusal(_ pointer: String, _ message: String) -> ContractError {
        ContractError(file: path, pointer: pointer, message: message + "; the link tools apply campaign rules without a JSON Schema checker and would not apply this one faithfully")
    }

    func rules() throws(ContractError) -> CampaignRules {
        guard let object = document.objectValue else { throw refusal("", "the campaign schema must be an object schema") }
        for (key, _) in object where !Self.annotations.contains(key) && !Self.objectKeywords.contains(key) {
            throw refusal("/" + JSONPointer.escape(key), "the keyword \"\(key)\" is not supported on the campaign object")
        }
        if let type = object["type"], type != .string("object") {
            throw refusal("/type", "the campaign schema must have type \"object\"")
        }
        let closed: Bool
        switch object["additionalProperties"] {
        case nil, .bool(true)?: closed = false
        case .bool(false)?: closed = true
        default: throw refusal("/additionalProperties", "additionalProperties must be true or false")
        }
        guard let properties = object["properties"]?.objectValue else {
            throw refusal("/properties", "the campaign schema lists its fields under properties")
        }
        var fields: [CampaignFieldRule] = []
        for (name, schema) in properties {
            let pointer = "/properties/" + JSONPointer.escape(name)
            guard CampaignMetadata.isCampaignKey(name), name != "utm_" else {
                throw refusal(pointer, "\"\(name)\" is not a field links carry (campaign_id, group_id, variant, utm_*)")
            }
            fields.append(try field(name: name, schema: schema, pointer: pointer))
        }
        // The shared URL order: campaign_id, group_id, variant, the standard utm_*, other utm_* by name.
        let standard = ["campaign_id", "group_id", "variant"] + CampaignMetadata.standardUTMKeys
        let order = standard + fields.map(\.name).filter { !standard.contains($0) }.sorted()
        return CampaignRules(fields: order.compactMap { name in fields.first { $0.name == name } }, closed: closed)
    }

    /// The keywords of a field, following local `$ref`s to `$defs`; a keyword stated twice along
    /// the way is refused (both would apply, and the rules hold one of each).
    private func field(name: String, schema: JSONValue, pointer: String) throws(ContractError) -> CampaignFieldRule {
        var keywords: [String: (value: JSONValue, pointer: String)] = [:]
        var current = schema
        var currentPointer = pointer
        for _ in 0..<16 {
            guard let object = current.objectValue else { throw refusal(currentPointer, "a campaign field must be an object schema") }
            var next: (JSONValue, String)?
            for (key, value) in object where !Self.annotations.contains(key) {
                guard Self.fieldKeywords.contains(key) else {
                    throw refusal(currentPointer + "/" + JSONPointer.escape(key), "the keyword \"\(key)\" is not supported on a campaign field (supported: type string, minLength, maxLength, pattern)")
                }
                if key == "$ref" {
                    guard let reference = value.stringValue, reference.hasPrefix("#/"),
                          let target = document.value(at: String(reference.dropFirst())) else {
                        throw refusal(currentPointer + "/$ref", "only references within the campaign schema (#/$defs/...) are supported")
                    }
                    next = (target, String(reference.dropFirst()))
                } else {
                    if keywords[key] != nil { throw refusal(currentPointer + "/" + key, "\"\(key)\" is stated twice along a $ref") }
                    keywords[key] = (value, currentPointer + "/" + key)
                }
            }
            guard let (target, targetPointer) = next else { return try rule(name: name, keywords: keywords, pointer: pointer) }
            current = target
            currentPointer = targetPointer
        }
        throw refusal(pointer, "the $ref chain is longer than 16 steps")
    }

    private func rule(name: String, keywords: [String: (value: JSONValue, pointer: String)], pointer: String) throws(ContractError) -> CampaignFieldRule {
        guard keywords["type"]?.value == .string("string") else {
            throw refusal(keywords["type"]?.pointer ?? pointer, "campaign fields are read from links, so each must have type \"string\"")
        }
        func length(_ key: String) throws(ContractError) -> Int? {
            guard let entry = keywords[key] else { return nil }
            guard let value = entry.value.integerValue, value >= 0, value <= Int64(Int32.max) else {
                throw refusal(entry.pointer, "\(key) must be a non-negative integer")
            }
            return Int(value)
        }
        var minLength = try length("minLength") ?? 0
        var maxLength = try length("maxLength")
        var pattern: ScalarPattern?
        if let entry = keywords["pattern"] {
            guard let source = entry.value.stringValue else { throw refusal(entry.pointer, "pattern must be a string") }
            do {
                pattern = try ScalarPatternParser.parse(source)
            } catch {
                throw refusal(entry.pointer, "the pattern \(source) cannot be expressed as campaign rules: \(error.message)")
            }
            minLength = max(minLength, pattern!.minLength)
            if let patternMax = pattern!.maxLength { maxLength = min(maxLength ?? patternMax, patternMax) }
        }
        return CampaignFieldRule(name: name, minLength: minLength, maxLength: maxLength, pattern: pattern)
    }
}
