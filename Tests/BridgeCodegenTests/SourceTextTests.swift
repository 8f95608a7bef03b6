import JSONCore
import Testing

@testable import BridgeCodegen

/// The text pieces every generated JavaScript and TypeScript file is made of: names, JSDoc
/// blocks and literals.
@Suite struct SourceTextTests {
    // MARK: Names

    @Test func namesJoinWordsSplitAtUnderscoresAndHyphens() {
        #expect(TypeScriptNames.camelCase("view_vehicles") == "viewVehicles")
        #expect(TypeScriptNames.camelCase("view-more-vehicles") == "viewMoreVehicles")
        #expect(TypeScriptNames.camelCase("apply") == "apply")
        #expect(TypeScriptNames.camelCase("") == "")
        #expect(TypeScriptNames.pascalCase("view_vehicles") == "ViewVehicles")
        #expect(TypeScriptNames.pascalCase("start") == "Start")
    }

    @Test func anIdentifierStartsWithALetterUnderscoreOrDollarAndGoesOnWithDigitsToo() {
        for name in ["plan", "_plan", "$plan", "plan_2", "p$", "a1b2"] {
            #expect(TypeScriptNames.isIdentifier(name), "\(name)")
        }
        for name in ["", "2plan", "plan-id", "plan id", "플랜", "é", "-x", "x.y"] {
            #expect(!TypeScriptNames.isIdentifier(name), "\(name)")
        }
    }

    @Test func aPropertyKeyIsBareWhenItIsAnIdentifierAndQuotedOtherwise() {
        #expect(TypeScriptNames.propertyKey("plan") == "plan")
        #expect(TypeScriptNames.propertyKey("utm-source") == "\"utm-source\"")
        #expect(TypeScriptNames.propertyKey("a\u{2028}b") == "\"a\\u2028b\"")
    }

    // MARK: JSDoc

    @Test func aDocBlockIsOneLineForOneLineAndStarredLinesForMore() {
        #expect(DocComment.lines([], indent: "  ").isEmpty)
        #expect(DocComment.lines(["Apply for a plan."], indent: "  ") == ["  /** Apply for a plan. */"])
        #expect(DocComment.lines(["First.\n\nThird."], indent: "") == ["/**", " * First.", " *", " * Third.", " */"])
        #expect(DocComment.lines(["One.", "Two."], indent: "    ") == ["    /**", "     * One.", "     * Two.", "     */"])
    }

    @Test func aDocBlockCannotBeEndedEarlyByTheContractsText() {
        #expect(DocComment.lines(["ends */ here"], indent: "") == ["/** ends *\\/ here */"])
    }

    // MARK: Literals

    @Test func emptyContainersAreWrittenOnOneLine() {
        #expect(JavaScriptLiteral.write([]) == "[]")
        #expect(JavaScriptLiteral.write([:]) == "{}")
        #expect(JavaScriptLiteral.write(["a": [], "b": [:]]) == "{\n  \"a\": [],\n  \"b\": {}\n}")
    }

    /// An array of scalars stays on one line up to 80 characters and is broken over lines past it.
    @Test func anArrayOfScalarsStaysOnOneLineUpToEightyCharacters() {
        // ["x…x"] is the string's length plus 4 characters.
        func array(_ length: Int) -> JSONValue { [.string(String(repeating: "x", count: length))] }
        #expect(JavaScriptLiteral.write(array(75)).count == 79)
        #expect(!JavaScriptLiteral.write(array(75)).contains("\n"))
        #expect(JavaScriptLiteral.write(array(76)) == "[\"" + String(repeating: "x", count: 76) + "\"]")
        #expect(JavaScriptLiteral.write(array(77)) == "[\n  \"" + String(repeating: "x", count: 77) + "\"\n]")
    }

    @Test func anArrayHoldingAContainerIsBrokenOverLinesWhateverItsLength() {
        #expect(JavaScriptLiteral.write([1, [2]]) == "[\n  1,\n  [2]\n]")
        #expect(JavaScriptLiteral.write([[:]]) == "[\n  {}\n]")
        #expect(JavaScriptLiteral.write([1, "a", true, .null]) == "[1, \"a\", true, null]")
    }

    @Test func nestedMembersAreIndentedTwoSpacesALevelInTheirOrder() {
        let value: JSONValue = .object(JSONObject([("z", ["y": 1]), ("a", [1, [3]])]))
        #expect(JavaScriptLiteral.write(value) == "{\n  \"z\": {\n    \"y\": 1\n  },\n  \"a\": [\n    1,\n    [3]\n  ]\n}")
        #expect(JavaScriptLiteral.write(["k": 1], indent: "    ") == "{\n      \"k\": 1\n    }")
    }

    /// U+2028 and U+2029 end a line in older JavaScript: every place a string is written escapes them.
    @Test func lineSeparatorsAreEscapedWhereverAStringIsWritten() {
        let text: JSONValue = "a\u{2028}b\u{2029}"
        let escaped = "\"a\\u2028b\\u2029\""
        #expect(JavaScriptLiteral.write(text) == escaped)
        #expect(JavaScriptLiteral.inline(text) == escaped)
        #expect(JavaScriptLiteral.write([text]) == "[" + escaped + "]")
        #expect(JavaScriptLiteral.write([text, [1]]) == "[\n  " + escaped + ",\n  [1]\n]")
        #expect(JavaScriptLiteral.write(.object(JSONObject([("a\u{2028}b\u{2029}", 1)]))) == "{\n  " + escaped + ": 1\n}")
        #expect(JavaScriptLiteral.inline(["k": text]) == "{\"k\":" + escaped + "}")
    }
}
