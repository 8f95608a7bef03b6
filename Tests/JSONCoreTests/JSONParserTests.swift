import JSONCore
import Testing
import TestSupport

@Suite("JSONParser: what RFC 8259 text becomes")
struct JSONParserTests {
    private func parse(_ text: String, limits: ParseLimits = .unlimited) throws(JSONParseError) -> JSONValue {
        try JSONValue(parsing: text, limits: limits)
    }

    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse("true") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("\"x\"") == .string("x"))
        #expect(try parse(" \t\r\n 7 \n") == .integer(7))
    }

    @Test func integersStayIntegersAndEverythingElseIsAReal() throws {
        #expect(try parse("0") == .integer(0))
        #expect(try parse("-0") == .integer(0))
        #expect(try parse("9223372036854775807") == .integer(.max))
        #expect(try parse("-9223372036854775808") == .integer(.min))
        // Past 64 bits an integer is kept as a real rather than refused (as JSONDocument does).
        #expect(try parse("9223372036854775808") == .number(9_223_372_036_854_775_808))
        #expect(try parse("2.0") == .number(2))
        #expect(try parse("1e2") == .number(100))
        #expect(try parse("1E-2") == .number(0.01))
        #expect(try parse("-1.5e+3") == .number(-1500))
        #expect(try parse("0.1") == .number(0.1))
        #expect(try parse("1e-400") == .number(0))
    }

    @Test func stringsDecodeEveryEscapeAndKeepUnicode() throws {
        #expect(try parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{8} \u{C} \n \r \t"))
        #expect(try parse(#""\u00e9\u00C9""#) == .string("éÉ"))
        #expect(try parse(#""\ud83d\ude9a""#) == .string("🚚"))
        #expect(try parse("\"센디 신청 🚚\"") == .string("센디 신청 🚚"))
        #expect(try parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(try parse("\"\u{7F}\u{2028}\"") == .string("\u{7F}\u{2028}"))
    }

    @Test func objectsKeepTheirMemberOrder() throws {
        let value = try parse(#"{"b": 1, "a": [true, {"c": null}], "": {}}"#)
        #expect(value.objectValue?.keys == ["b", "a", ""])
        #expect(value["a"] == [true, ["c": nil]])
        #expect(value[""] == .object(JSONObject()))
        #expect(try parse("[]") == [])
        #expect(try parse(" [ ] ") == [])
    }

    /// Text that is not JSON, with a fragment of the message it must give and where.
    static let refused: [(text: String, message: String, column: Int)] = [
        ("", "empty input", 1),
        ("   ", "no value", 4),
        (#"{"a": 1, "a": 2}"#, #"duplicate key "a""#, 10),
        ("{} x", "unexpected 'x' after the JSON value", 4),
        ("[1,]", "expected a value", 4),
        (#"{"a": 1,}"#, "expected a string key", 9),
        ("[1 2]", "expected ',' or ']'", 4),
        (#"{"a" 1}"#, "expected ':'", 6),
        ("{1: 2}", "expected a string key or '}'", 2),
        ("01", "leading zeros", 1),
        ("-", "expected a digit", 2),
        ("1.", "digit after the decimal point", 3),
        (".5", "expected a value", 1),
        ("+1", "expected a value", 1),
        ("1e", "digit in the exponent", 3),
        ("1e+", "digit in the exponent", 4),
        ("0x10", "unexpected 'x'", 2),
        ("NaN", "expected a value", 1),
        ("Infinity", "expected a value", 1),
        ("1e400", "out of range", 1),
        ("-1e400", "out of range", 1),
        ("nul", "invalid literal", 1),
        ("True", "expected a value", 1),
        (#""\ud800""#, "lone surrogate \\uD800", 2),
        (#""\udc00""#, "lone surrogate \\uDC00", 2),
        (#""\ud800\u0041""#, "lone surrogate \\uD800", 2),
        (#""\ud800x""#, "lone surrogate", 2),
        (#""\x""#, "invalid escape \\x", 2),
        (#""\u12""#, "four hex digits", 2),
        ("\"a\nb\"", "control character U+000A", 3),
        ("\"a\tb\"", "control character U+0009", 3),
        ("\"open", "unterminated string", 1),
        ("[1", "expected ',' or ']'", 3),
        (#"{"a""#, "expected ':'", 5),
        (#"{"a":"#, "expected a value", 6),
        ("'a'", "expected a value", 1),
        ("// comment\n1", "expected a value", 1),
        ("[1] /* */", "after the JSON value", 5),
        (#"{"k\u0000ey": 1}"#, "may not contain U+0000", 2),
        ("\u{FEFF}{}", "byte order mark", 1),
        ("\u{A0}1", "unexpected byte 0xC2", 1),
        ("1\u{0B}", "after the JSON value", 2),
    ]

    @Test(arguments: refused)
    func refusedWithAMessageAndAPlace(text: String, message: String, column: Int) {
        do {
            let value = try parse(text)
            Issue.record("accepted \(text.debugDescription) as \(value)")
        } catch {
            #expect(error.message.contains(message), "\(text.debugDescription): \(error.message)")
            #expect(error.line == 1)
            #expect(error.column == column, "\(text.debugDescription): \(error)")
        }
    }

    /// Byte sequences that are not UTF-8 inside a string (Unicode Table 3-7).
    static let notUTF8: [[UInt8]] = [
        [0xFF], [0xFE], [0x80], [0xBF],  // not a lead byte
        [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF],  // overlong
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],  // an encoded surrogate
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80],  // past U+10FFFF
        [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3],  // cut short
        [0xE2, 0x28, 0xA1],  // a continuation byte missing
    ]

    @Test(arguments: notUTF8)
    func invalidUTF8IsRefusedAtItsByte(sequence: [UInt8]) {
        let bytes = Array("[\"ok\", \"a".utf8) + sequence + Array("\"]".utf8)
        do {
            let value = try JSONValue(parsing: bytes)
            Issue.record("accepted \(sequence) as \(value)")
        } catch {
            #expect(error.message.contains("invalid UTF-8"), "\(error)")
            #expect(error.position == 9)
        }
    }

    @Test func wellFormedUTF8AtTheEdgesIsAccepted() throws {
        for scalar in ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] {
            #expect(try JSONValue(parsing: Array("\"\(scalar)\"".utf8)) == .string(scalar))
        }
    }

    @Test func errorsSayLineAndColumnInCharactersAndTheByteOffset() {
        let text = "{\n  \"이름\": \"센디\",\n  \"a\": nope\n}"
        do {
            _ = try parse(text)
            Issue.record("parsed invalid JSON")
        } catch {
            #expect(error.line == 3)
            #expect(error.column == 8)
            #expect(error.position == Array("{\n  \"이름\": \"센디\",\n  \"a\": ".utf8).count)
            #expect(error.description == "line 3 column 8: invalid literal (expected true, false or null)")
        }
        do {
            _ = try parse("{\"센디\": 1, \"센디\": 2}")
            Issue.record("accepted a duplicate key")
        } catch {
            #expect(error.description == "line 1 column 11: duplicate key \"센디\"")
        }
    }

    @Test func keysThatSwiftCannotTellApartAreDuplicates() {
        // "é" precomposed and decomposed: distinct bytes, one key for JSONObject.
        do {
            _ = try parse("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
            Issue.record("accepted canonically equivalent keys")
        } catch {
            #expect(error.message.contains("canonically equivalent"))
        }
    }

    @Test func nestingStopsAtTheLimitAndAtTheCap() throws {
        #expect(try parse("[[1]]", limits: ParseLimits(maxDepth: 2)) == [[1]])
        #expect(try parse("[[{}]]", limits: ParseLimits(maxDepth: 3)) == [[[:]]])
        #expect(throws: JSONParseError.self) { try parse("[[[1]]]", limits: ParseLimits(maxDepth: 2)) }
        #expect(throws: JSONParseError.self) { try parse("[[{}]]", limits: ParseLimits(maxDepth: 2)) }
        let atCap = String(repeating: "[", count: 2048) + String(repeating: "]", count: 2048)
        _ = try parse(atCap)
        // A limit above the cap does not lift it.
        #expect(throws: JSONParseError.self) { try parse("[" + atCap + "]", limits: ParseLimits(maxDepth: 5000)) }
    }

    @Test func deepInputIsAnErrorNotACrashOnAnyThread() async {
        let deep = String(repeating: "{\"a\":[", count: 100_000)
        let message = await Task.detached { () -> String? in
            do throws(JSONParseError) {
                _ = try JSONValue(parsing: deep)
                return nil
            } catch {
                return error.message
            }
        }.value
        #expect(message == "nesting deeper than 2048 levels")
    }

    @Test func limits() throws {
        #expect(throws: JSONParseError.self) { try parse("[1, 2, 3]", limits: ParseLimits(maxBytes: 4)) }
        _ = try parse("[1, 2, 3]", limits: ParseLimits(maxBytes: 9))

        let long = "\"" + String(repeating: "x", count: 16 * 1024 + 1) + "\""
        #expect(throws: JSONParseError.self) { try parse(long, limits: .bridgeMessage) }
        _ = try parse(long)
        // Counted in decoded bytes: six characters of escape text are one byte.
        _ = try parse(#""\u0041\u0042""#, limits: ParseLimits(maxStringLength: 2))
        #expect(throws: JSONParseError.self) { try parse("\"한\"", limits: ParseLimits(maxStringLength: 2)) }
        #expect(throws: JSONParseError.self) { try parse(#"{"abc": 1}"#, limits: ParseLimits(maxStringLength: 2)) }

        let items = "[" + Array(repeating: "1", count: 1025).joined(separator: ",") + "]"
        #expect(throws: JSONParseError.self) { try parse(items, limits: .bridgeMessage) }
        _ = try parse(items, limits: ParseLimits(maxArrayLength: 1025))

        let members = "{" + (0..<257).map { "\"k\($0)\":1" }.joined(separator: ",") + "}"
        #expect(throws: JSONParseError.self) { try parse(members, limits: .bridgeMessage) }
        _ = try parse(members, limits: ParseLimits(maxProperties: 257))
    }

    @Test func whatTheWriterWritesParsesBackToTheSameValue() throws {
        var random = SeededGenerator(seed: 0x15_0B_1E)
        for round in 0..<500 {
            let value = Self.randomValue(&random, depth: 0)
            for text in [value.serialized(), value.prettyPrinted(), value.serialized(sortedKeys: true, escapeForScript: true)] {
                #expect(try JSONValue(parsing: text) == value, "round \(round): \(text)")
            }
        }
    }

    static let pieces = ["", "a", "키", "🚚", "\u{0}", "\u{1F}", "\"", "\\", "/", "</", "\u{2028}", "\u{7F}", "é", "e\u{301}", " ", "\n"]

    static let keyPieces = pieces.filter { $0 != "\u{0}" }

    static func randomValue(_ random: inout SeededGenerator, depth: Int) -> JSONValue {
        switch Int.random(in: 0...(depth < 4 ? 7 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random))
        case 3:
            let exponent = Double(Int.random(in: -300...300, using: &random))
            return .number(Double.random(in: -1...1, using: &random) * Double.pow10(exponent))
        case 4, 5:
            return .string((0..<Int.random(in: 0...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        case 6:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                // U+0000 is refused in keys (as jansson refuses it), so keys are drawn without it.
                object[keyPieces.randomElement(using: &random)! + String(Int.random(in: 0...9, using: &random))] =
                    randomValue(&random, depth: depth + 1)
            }
            return .object(object)
        }
    }
}

private extension Double {
    static func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        let step = exponent < 0 ? 0.1 : 10.0
        for _ in 0..<Int(exponent.magnitude) { result *= step }
        return result
    }
}
