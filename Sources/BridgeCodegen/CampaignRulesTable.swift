import DeeplinkRouting
import JSONCore

/// The campaign rules as the JavaScript tables carry them (the shim's CONTRACT, the catalog's link
/// builder): data only, read by js/src/link-rules.js, which applies them as DeeplinkRouting does.
/// The plain-words summaries are written here once, so both sides print the same sentences.
public enum CampaignRulesTable {
    public static func json(_ rules: CampaignRules) -> JSONValue {
        .object(JSONObject([
            ("closed", .bool(rules.closed)),
            ("fields", .array(rules.fields.map(field))),
        ]))
    }

    static func field(_ rule: CampaignFieldRule) -> JSONValue {
        .object(JSONObject([
            ("name", .string(rule.name)),
            ("minLength", .integer(Int64(rule.minLength))),
            ("maxLength", rule.maxLength.map { .integer(Int64($0)) } ?? .null),
            ("summary", .string(rule.summary)),
            ("pattern", rule.pattern.map { pattern in .array(pattern.pieces.map(piece)) } ?? .null),
        ]))
    }

    static func piece(_ piece: ScalarPattern.Piece) -> JSONValue {
        .object(JSONObject([
            ("ranges", .array(piece.ranges.map { .array([.integer(Int64($0.lowerBound)), .integer(Int64($0.upperBound))]) })),
            ("min", .integer(Int64(piece.min))),
            ("max", piece.max.map { .integer(Int64($0)) } ?? .null),
            ("allowed", .string(piece.allowed)),
        ]))
    }
}
