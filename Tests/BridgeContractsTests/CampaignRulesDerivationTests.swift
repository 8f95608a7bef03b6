import BridgeContracts
import DeeplinkRouting
import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// The campaign rules derived from the campaign schema: the bundled ones, the schemas refused
/// because the rules could not express them, and supported patterns checked against the real
/// JSON Schema checker.
@Suite struct CampaignRulesDerivationTests {
    @Test func theBundledRulesInPlainWords() throws {
        let rules = try ContractSet.load(directory: ExampleContracts.path).campaignRules()
        #expect(rules.closed)
        #expect(rules.fields.map(\.name) == ["campaign_id", "group_id", "variant", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"])
        #expect(rules.fields.map(\.summary) == [
            "1 to 64 characters: one of A-Z a-z 0-9, then up to 63 of A-Z a-z 0-9 _ . -",
            "1 to 32 characters", "1 to 64 characters",
            "1 to 128 characters", "1 to 128 characters", "1 to 128 characters", "1 to 128 characters", "1 to 128 characters",
        ])
    }

    private func lint(_ edits: [(file: String, old: String, new: String?)]) throws -> [String] {
        let contracts = try ContractSet(files: try RepositoryContractFiles.editing(edits), origin: "a broken copy")
        return ContractLinter(contracts: contracts).lint().map(\.description)
    }

    static let campaignIdPattern = #""pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$""#

    /// Each schema the rules cannot express is a lint error naming the file and the keyword.
    @Test(arguments: [
        (#""pattern": "^(spring|fall)[0-9]{4}$""#, "/properties/campaign_id/pattern", "groups and alternation"),
        (#""pattern": "^[^ ]{1,64}$""#, "/properties/campaign_id/pattern", "a negated class"),
        (#""pattern": "^.{1,64}$""#, "/properties/campaign_id/pattern", "\".\" (any character) is not supported"),
        (#""pattern": "[A-Za-z0-9]+""#, "/properties/campaign_id/pattern", "must start with ^"),
        (#""pattern": "^\\s+$""#, "/properties/campaign_id/pattern", "the escape \\s is not supported"),
        (#""pattern": "^[a-z]+?$""#, "/properties/campaign_id/pattern", "lazy or stacked quantifiers"),
        (#""enum": ["spring", "fall"]"#, "/properties/campaign_id/enum", "the keyword \"enum\" is not supported"),
    ])
    func anInexpressibleCampaignIdIsALintError(replacement: String, pointer: String, reason: String) throws {
        let found = try lint([("schemas/campaign.v1.json", Self.campaignIdPattern, replacement)])
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("schemas/campaign.v1.json: \(pointer): ") == true, "\(found)")
        #expect(found.first?.contains(reason) == true, "\(found)")
        #expect(found.first?.contains("would not apply this one faithfully") == true)
    }

    @Test func otherShapesTheRulesCannotHoldAreLintErrors() throws {
        #expect(try lint([("schemas/campaign.v1.json", #""additionalProperties": false"#, #""additionalProperties": {"type": "string"}"#)])
            == ["schemas/campaign.v1.json: /additionalProperties: additionalProperties must be true or false; the link tools apply campaign rules without a JSON Schema checker and would not apply this one faithfully"])
        #expect(try lint([("schemas/campaign.v1.json", #""group_id": { "type": "string", "minLength": 1, "maxLength": 32 }"#, #""group": { "type": "string" }"#)])
            == [#"schemas/campaign.v1.json: /properties/group: "group" is not a field links carry (campaign_id, group_id, variant, utm_*); the link tools apply campaign rules without a JSON Schema checker and would not apply this one faithfully"#])
        #expect(try lint([("schemas/campaign.v1.json", #""utm": { "type": "string", "minLength": 1, "maxLength": 128 }"#, #""utm": { "type": "string", "format": "uri" }"#)])
            == [#"schemas/campaign.v1.json: /$defs/utm/format: the keyword "format" is not supported on a campaign field (supported: type string, minLength, maxLength, pattern); the link tools apply campaign rules without a JSON Schema checker and would not apply this one faithfully"#])
        #expect(try lint([("schemas/campaign.v1.json", #""variant": { "type": "string", "minLength": 1, "maxLength": 64 }"#, #""variant": { "minLength": 1 }"#)])
            == [#"schemas/campaign.v1.json: /properties/variant: campaign fields are read from links, so each must have type "string"; the link tools apply campaign rules without a JSON Schema checker and would not apply this one faithfully"#])
    }

    /// Supported patterns, on values around their edges: the rules and the real checker agree.
    @Test(arguments: [
        "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", "^\\d{4}Q[1-4]$", "^[a-z]+(?:x)?$", "^[가-힣]{2,5}$", "^a?b*c+\\.d{2,}$",
        "^[\\w-]{3}$", "^[-a]{1,2}$", "^[a-]$", "^\\[\\]$",
    ])
    func supportedPatternsAgreeWithTheChecker(pattern: String) throws {
        let values = ["", "a", "ab", "abc", "A-1", "2025Q3", "1999Q4", "2025Q5", "20Q1", "가나", "가나다라마바", "한", "bc", "c", ".dd", "abbbc.dd",
                      "aaa", "a_b", "a-", "-", "--", "[]", "x", "ax", "a b", "\u{AC00}\u{1100}", "0" + String(repeating: "z", count: 63),
                      "0" + String(repeating: "z", count: 64), "_a"]
        let schemaText = #"{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "string", "pattern": "# + JSONValue.string(pattern).serialized() + "}"
        let registry = SchemaRegistry()
        try registry.add(try JSONDocument(schemaText, limits: .unlimited), uri: "https://example.test/pattern.json")
        let compiled = try registry.compile(uri: "https://example.test/pattern.json")
        let files = try RepositoryContractFiles.editing([("schemas/campaign.v1.json", Self.campaignIdPattern, #""pattern": "# + JSONValue.string(pattern).serialized())])
        let rules: CampaignRules
        do {
            rules = try ContractSet(files: files, origin: "a copy").campaignRules()
        } catch {
            // Groups are refused, which is right: then this pattern is not one of the supported ones.
            #expect(pattern.contains("("), "\(error)")
            return
        }
        for value in values {
            let schemaSays = compiled.isValid(.string(value))
            let rulesSay = rules.violation(name: "campaign_id", value: value) == nil
            #expect(schemaSays == rulesSay, "\(pattern) on \(value.debugDescription): checker \(schemaSays), rules \(rulesSay)")
        }
    }
}
