import JSONCore
import SchemaCheck
import Testing

/// maxLength and minLength at n-1, n and n+1. ASCII strings take the checker's byte-count shortcut
/// (a string of at most `limit` bytes has at most `limit` code points), so they get their own cases
/// next to strings whose code points are several bytes each.
@Suite("String length boundaries: maxLength and minLength at n-1, n, n+1")
struct StringLengthBoundaryTests {
    /// (characters of the repeated unit, its name)
    static let alphabets: [(String, String)] = [("a", "ASCII"), ("차", "Korean, 3 bytes"), ("😀", "emoji, 4 bytes")]

    static func verdicts(_ keyword: String, limit: Int, unit: String) throws -> [Int: (fast: ValidationStatus, full: ValidationStatus)] {
        let schema = try CompiledSchema(document: [keyword: .integer(Int64(limit))])
        var verdicts: [Int: (fast: ValidationStatus, full: ValidationStatus)] = [:]
        for length in [limit - 1, limit, limit + 1] where length >= 0 {
            let instance = JSONValue.string(String(repeating: unit, count: length))
            verdicts[length] = (schema.check(instance), schema.validate(instance).status)
        }
        return verdicts
    }

    @Test("maxLength: n-1 and n pass, n+1 fails", arguments: [0, 1, 5, 64])
    func maxLengthBoundary(limit: Int) throws {
        for (unit, name) in Self.alphabets {
            let verdicts = try Self.verdicts("maxLength", limit: limit, unit: unit)
            for (length, verdict) in verdicts {
                let want: ValidationStatus = length <= limit ? .valid : .invalid
                #expect(verdict.fast == want && verdict.full == want, "\(name): \(length) characters against maxLength \(limit)")
            }
        }
    }

    @Test("minLength: n-1 fails, n and n+1 pass", arguments: [1, 5, 64])
    func minLengthBoundary(limit: Int) throws {
        for (unit, name) in Self.alphabets {
            let verdicts = try Self.verdicts("minLength", limit: limit, unit: unit)
            for (length, verdict) in verdicts {
                let want: ValidationStatus = length >= limit ? .valid : .invalid
                #expect(verdict.fast == want && verdict.full == want, "\(name): \(length) characters against minLength \(limit)")
            }
        }
    }

    @Test("the error names the limit, for ASCII too")
    func asciiErrorSentence() throws {
        let schema = try CompiledSchema(document: ["maxLength": 3])
        let result = schema.validate(JSONValue.string("abcd"))
        #expect(result.map(\.error) == [#""abcd" is longer than 3 characters"#])
        #expect(result.map(\.keywordLocation) == ["/maxLength"])
    }
}
