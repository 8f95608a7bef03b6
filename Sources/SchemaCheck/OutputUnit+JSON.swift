import JSONCore

extension OutputUnit {
    /// The unit as a JSON Schema "basic" output object, as replies and `--format json` carry it.
    public var json: JSONValue {
        [
            "instanceLocation": .string(instanceLocation),
            "keywordLocation": .string(keywordLocation),
            "absoluteKeywordLocation": .string(absoluteKeywordLocation),
            "keyword": .string(keyword),
            "error": .string(error),
        ]
    }
}
