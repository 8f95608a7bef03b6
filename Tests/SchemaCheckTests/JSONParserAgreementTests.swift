import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// JSONCore's pure-Swift parser (routes.json, push payloads) and SchemaCheck's jansson-backed
/// `JSONDocument` (bridge messages, contracts) must read the same text the same way: both accept
/// it or both refuse it, and what they accept is the same value. Checked on every JSON file of
/// the repository (contracts, meta-schemas, the JSON-Schema-Test-Suite) as it is and after
/// seeded random edits, and on a table of edge cases.
@Suite("JSON parsers agree: JSONValue(parsing:) and JSONDocument")
struct JSONParserAgreementTests {
    static let corpus: [(name: String, bytes: [UInt8])] = ["contracts", "metaschemas", "Tests/json-schema-test-suite"]
        .flatMap { folder in
            ((try? RepositoryPaths.jsonFiles(under: folder)) ?? [:]).map { (folder + "/" + $0.key, Array($0.value.utf8)) }
        }
        .sorted { $0.name < $1.name }

    /// The verdict of each parser on `bytes`, as text for a readable failure.
    enum Verdict: Equatable, CustomStringConvertible {
        case value(JSONValue)
        case refused

        var description: String {
            switch self {
            case .value(let value): return "accepted " + value.serialized()
            case .refused: return "refused"
            }
        }
    }

    static func pure(_ bytes: [UInt8]) -> Verdict {
        (try? JSONValue(parsing: bytes, limits: .unlimited)).map(Verdict.value) ?? .refused
    }

    static func jansson(_ bytes: [UInt8]) -> Verdict {
        (try? JSONDocument(bytes: bytes, limits: .unlimited)).map { .value($0.value) } ?? .refused
    }

    /// Whether the two verdicts agree. One difference is by design: a document with an integer
    /// past 64 bits is read by sc_parse with every integer as a real, while JSONCore keeps each
    /// number's own kind; the values are then equal once JSONCore's integers are made reals.
    static func agree(_ pure: Verdict, _ jansson: Verdict) -> Bool {
        if pure == jansson { return true }
        guard case .value(let mine) = pure, case .value(let theirs) = jansson else { return false }
        return hasIntegerBeyond64Bits(mine) && !hasInteger(theirs) && integersAsReals(mine) == theirs
    }

    @Test("the corpus is there")
    func corpusIsThere() {
        #expect(Self.corpus.count > 250)
        #expect(Self.corpus.contains { $0.name == "contracts/routes.json" })
    }

    @Test("every JSON file of the repository reads the same")
    func everyFileAgrees() {
        for (name, bytes) in Self.corpus {
            let pure = Self.pure(bytes)
            let jansson = Self.jansson(bytes)
            #expect(Self.agree(pure, jansson), "\(name): JSONCore \(pure), JSONDocument \(jansson)")
            #expect(pure != .refused, "\(name) is refused")
        }
    }

    /// Bytes that break JSON in many ways: structure, escapes, numbers, UTF-8.
    static let edits: [[UInt8]] = [
        [], [0x22], [0x5C], [0x7B], [0x7D], [0x5B], [0x5D], [0x2C], [0x3A], [0x30], [0x2D], [0x65], [0x2E], [0x2B],
        [0x00], [0x1F], [0x7F], [0x20], [0x0B], [0x75], [0x80], [0xC3], [0xED, 0xA0, 0x80], [0xFF], [0xEF, 0xBB, 0xBF],
        Array("\\u0000".utf8), Array("\\ud800".utf8), Array("\\udc00".utf8), Array("\\ud83d\\ude9a".utf8),
        Array("99999999999999999999".utf8), Array("1e400".utf8), Array("-0".utf8), Array("01".utf8), Array("1.".utf8),
        Array("true".utf8), Array("nul".utf8), Array("\"a\":1,\"a\":".utf8),
    ]

    @Test("seeded random edits of every file are accepted or refused alike", arguments: 0..<4)
    func randomEditsAgree(block: Int) {
        var random = SeededGenerator(seed: 0xA6_4EE + UInt64(block))
        var checked = 0
        var refused = 0
        for (index, (name, original)) in Self.corpus.enumerated() where index % 4 == block {
            for round in 0..<24 {
                var bytes = original
                for _ in 0..<Int.random(in: 1...3, using: &random) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0...3, using: &random) {
                    case 0: bytes.remove(at: at)
                    case 1: bytes.insert(contentsOf: Self.edits.randomElement(using: &random)!, at: at)
                    case 2: bytes.replaceSubrange(at...at, with: Self.edits.randomElement(using: &random)!)
                    default: bytes.removeSubrange(at...)
                    }
                }
                let pure = Self.pure(bytes)
                let jansson = Self.jansson(bytes)
                checked += 1
                if pure == .refused { refused += 1 }
                #expect(Self.agree(pure, jansson),
                        "\(name) edit \(round): \(String(decoding: bytes.prefix(300), as: UTF8.self).debugDescription): JSONCore \(pure), JSONDocument \(jansson)")
            }
        }
        // Both kinds of verdict are exercised, not only refusals.
        #expect(refused > checked / 4 && refused < checked)
    }

    static let edgeCases: [String] = [
        "0", "-0", "-0.0", "1E+2", "1e-400", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
        "[1, 99999999999999999999]", "123456789012345678901234567890", "0.1", "2.5e-308", "4.9e-324",
        "\"\\u0000\"", "{\"a\\u0000\": 1}", "\"\\ud83d\\ude9a\"", "\"\\ud83d\"", "\"\\ude9a\"", "\"\u{1F69A}\"",
        "{\"a\": 1, \"a\": 1}", "{\"a\": 1, \"b\": {\"a\": 2}}", "[]", "{}", "[[]]", " \t\r\n[1]\n", "[1]\u{0C}",
        "\u{FEFF}[1]", "{\"a\":false\u{0}}", "[1\u{0}]", "[null\u{0},1]", "[\"a\"\u{0}]", "\u{0}[1]", "\"\\/\"", "\"\\'\"", "[1,]", "{,}", "[,1]", "nul", "true false", "\"\u{7F}\"", "\"\u{1F}\"",
        String(repeating: "[", count: 2048) + String(repeating: "]", count: 2048),
        String(repeating: "[", count: 2049) + String(repeating: "]", count: 2049),
    ]

    @Test("edge cases read the same", arguments: edgeCases)
    func edgeCaseAgrees(text: String) {
        let pure = Self.pure(Array(text.utf8))
        let jansson = Self.jansson(Array(text.utf8))
        #expect(Self.agree(pure, jansson), "JSONCore \(pure), JSONDocument \(jansson)")
    }

    @Test("keys equal only as Swift strings: JSONCore refuses what JSONDocument would merge")
    func canonicallyEquivalentKeys() {
        let bytes = Array("{\"\u{E9}\": 1, \"e\u{301}\": 2}".utf8)
        // jansson sees two byte-distinct keys; JSONObject can hold only one of them.
        #expect(Self.jansson(bytes) == .value(["\u{E9}": 2]))
        #expect(Self.pure(bytes) == .refused)
    }

    // MARK: - number kinds

    static func hasInteger(_ value: JSONValue) -> Bool {
        switch value {
        case .integer: return true
        case .array(let items): return items.contains(where: hasInteger)
        case .object(let object): return object.contains { hasInteger($0.value) }
        default: return false
        }
    }

    static func hasIntegerBeyond64Bits(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let real): return real.rounded() == real && real.magnitude >= 9_223_372_036_854_775_808
        case .array(let items): return items.contains(where: hasIntegerBeyond64Bits)
        case .object(let object): return object.contains { hasIntegerBeyond64Bits($0.value) }
        default: return false
        }
    }

    static func integersAsReals(_ value: JSONValue) -> JSONValue {
        switch value {
        case .integer(let number): return .number(Double(number))
        case .array(let items): return .array(items.map(integersAsReals))
        case .object(let object): return .object(JSONObject(object.map { ($0.key, integersAsReals($0.value)) }))
        default: return value
        }
    }
}
