/// Swift identifiers for JSON names: lowerCamelCase members (`campaign_id` -> `campaignId`),
/// UpperCamelCase types, enum cases that are valid identifiers (`2.5ton` -> `_2_5ton`), reserved
/// words in backticks. Deterministic: the same schema always gives the same names.
enum SwiftNames {
    static let reserved: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
        "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "catch", "false", "is", "nil",
        "super", "self", "Self", "throw", "throws", "true", "try", "Type", "Protocol", "any", "some",
    ]

    /// Words of a JSON name: split at `_`, `-`, `.`, spaces and other non-alphanumerics.
    private static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isASCII && (character.isLetter || character.isNumber) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    private static func identifier(_ text: String) -> String {
        guard let first = text.first else { return "_" }
        let safe = first.isNumber ? "_" + text : text
        return reserved.contains(safe) ? "`\(safe)`" : safe
    }

    static func property(_ name: String) -> String {
        let parts = words(name)
        guard let head = parts.first else { return "_" }
        return identifier(head.prefix(1).lowercased() + head.dropFirst() + parts.dropFirst().map(capitalized).joined())
    }

    static func type(_ name: String) -> String {
        let joined = words(name).map(capitalized).joined()
        return identifier(joined.isEmpty ? "Value" : joined)
    }

    /// The element type of an array member `tags` -> `Tag`s element is named `TagsItem`.
    static func element(_ arrayType: String) -> String { arrayType + "Item" }

    /// The message type of an action version: `view_vehicles` v1 -> `ViewVehiclesV1`.
    static func message(action: String, version: Int) -> String { type(action) + "V" + String(version) }

    /// An event version's message type: `login_state_changed` v1 -> `LoginStateChangedEventV1`
    /// (never the name of an action's type, whatever the names).
    static func event(_ name: String, version: Int) -> String { type(name) + "EventV" + String(version) }

    /// A schema file used as a type: `campaign.v1.json` -> `CampaignV1`.
    static func sharedType(file: String) -> String {
        let stem = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        return type(stem)
    }

    /// An enum case for a string value: `premium` -> `premium`, `2.5ton` -> `_2_5ton`, `Sort-Asc` -> `sort_Asc`.
    static func enumCase(_ value: String) -> String {
        var text = ""
        for character in value {
            text.append(character.isASCII && (character.isLetter || character.isNumber) ? character : "_")
        }
        if let first = text.first, first.isLetter { text = first.lowercased() + text.dropFirst() }
        return identifier(text.isEmpty ? "_" : text)
    }
}
