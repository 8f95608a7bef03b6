import SchemaCheck
import JSONCore

/// Answers "does this pattern match this text?" with the checker's own regex engine (ECMA-262
/// translated to PCRE2), so a pattern means here exactly what it means in validation.
/// Compiled patterns are cached; one matcher serves one comparison, on one thread.
final class PatternMatcher {
    private var compiled: [String: CompiledSchema?] = [:]

    func matches(_ pattern: String, _ text: String) -> Bool {
        if compiled[pattern] == nil {
            compiled[pattern] = try? CompiledSchema(document: ["type": "string", "pattern": .string(pattern)])
        }
        guard let schema = compiled[pattern] ?? nil else { return false }
        return schema.isValid(JSONValue.string(text))
    }

    /// Names for a member that a pattern property governs: matches of `pattern` that are not in
    /// `excluded`, shortest first.
    func names(matching pattern: String, excluding excluded: [String]) -> [String] {
        let samples = RegexExamples.approximating(pattern)?.samples() ?? []
        return samples.filter { !excluded.contains($0) && matches(pattern, $0) }
    }

    /// A member name no property declares and no pattern matches, on either side.
    func freshName(avoiding schemas: [NormalSchema]) -> String {
        let declared = Set(schemas.flatMap(\.propertyNamesList))
        let patterns = schemas.flatMap { $0.patternProperties.map(\.name) }
        for candidate in ["extra", "unknownField", "x_extra", "Extra1", "zz"] where !declared.contains(candidate) {
            if !patterns.contains(where: { matches($0, candidate) }) { return candidate }
        }
        return "extra"
    }
}
