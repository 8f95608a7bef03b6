import Foundation
import JSONCore
import SchemaCheck
import Testing
import TestSupport

/// A JSON Pointer (RFC 6901) reader written for these tests only, so the checker's own pointer code
/// (C, util.c and pointer.c) is judged by something it does not share.
enum PointerOracle {
    /// The reference tokens of `pointer`, or nil when it is not a well-formed pointer: it must be
    /// empty or start with "/", and every "~" must be followed by "0" or "1".
    static func tokens(_ pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        var scalars = Array(pointer.unicodeScalars)
        guard scalars.first == "/" else { return nil }
        scalars.removeFirst()
        var tokens: [String] = []
        var current = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "/" {
                tokens.append(String(current))
                current = String.UnicodeScalarView()
            } else if scalar == "~" {
                guard index + 1 < scalars.count else { return nil }
                switch scalars[index + 1] {
                case "0": current.append("~")
                case "1": current.append("/")
                default: return nil
                }
                index += 1
            } else {
                current.append(scalar)
            }
            index += 1
        }
        tokens.append(String(current))
        return tokens
    }

    /// The value `pointer` names in `document`, or nil when it names nothing. An array index is
    /// "0" or digits without a leading zero, below the array's count.
    static func resolve(_ pointer: String, in document: JSONValue) -> JSONValue? {
        guard let tokens = tokens(pointer) else { return nil }
        var current = document
        for token in tokens {
            switch current {
            case .object(let object):
                // Keys compare by their Unicode scalars, not by Swift's canonical equivalence.
                guard let member = object.first(where: { Array($0.key.unicodeScalars) == Array(token.unicodeScalars) }) else {
                    return nil
                }
                current = member.value
            case .array(let items):
                guard token == "0" || (token.first != "0" && !token.isEmpty && token.allSatisfy(\.isASCII) && token.allSatisfy(\.isNumber)),
                      let index = Int(token), index < items.count else { return nil }
                current = items[index]
            default:
                return nil
            }
        }
        return current
    }
}

@Suite("Output locations: instanceLocation and keywordLocation are correct JSON Pointers")
struct OutputLocationTests {
    @Test("the oracle itself: escapes, indices and malformed pointers")
    func oracleReadsPointers() {
        let document: JSONValue = ["a/b": ["m~n": [10, 11]], "": 1, "😀": "x"]
        #expect(PointerOracle.tokens("") == [])
        #expect(PointerOracle.tokens("/a~1b/m~0n/1") == ["a/b", "m~n", "1"])
        #expect(PointerOracle.tokens("/~01") == ["~1"])
        #expect(PointerOracle.tokens("a") == nil)
        #expect(PointerOracle.tokens("/~") == nil)
        #expect(PointerOracle.tokens("/~2") == nil)
        #expect(PointerOracle.resolve("/a~1b/m~0n/1", in: document) == 11)
        #expect(PointerOracle.resolve("/", in: document) == 1)
        #expect(PointerOracle.resolve("/😀", in: document) == "x")
        #expect(PointerOracle.resolve("/a~1b/m~0n/01", in: document) == nil)
        #expect(PointerOracle.resolve("/a~1b/m~0n/2", in: document) == nil)
        #expect(PointerOracle.resolve("/a/b", in: document) == nil)
        #expect(PointerOracle.resolve("/m~1n", in: document) == nil)
    }

    /// Every invalid case of the draft 2020-12 suite (required and optional files, with the options
    /// ConformanceTests uses): each instanceLocation full mode reports is a well-formed pointer that
    /// resolves in the instance, and each keywordLocation is a well-formed pointer that names its
    /// keyword (it ends in it, or for a false subschema, goes through it).
    @Test("every invalid case of the 2020-12 suite reports locations that resolve in the instance")
    func suiteLocationsResolve() throws {
        let draft = "draft2020-12"
        let registry = try ConformanceTests.makeRegistry(dialect: .draft2020_12)
        let files = ConformanceTests.files(under: ConformanceTests.suite.appendingPathComponent("tests/\(draft)"), recursive: true)
        #expect(!files.isEmpty, "no test files under \(ConformanceTests.suite.path)")
        var invalidCases = 0
        var units = 0
        var nonRootLocations = 0
        var problems: [String] = []
        for file in files {
            let cases = try ConformanceTests.load(ConformanceTests.suite.appendingPathComponent("tests/\(draft)/\(file)"))
            let options = SchemaOptions(dialect: .draft2020_12, assertFormat: file.hasPrefix("optional/format/"),
                                        assertContent: file.hasPrefix("optional/"))
            for testCase in cases.arrayValue ?? [] {
                guard let schema = try? CompiledSchema(document: testCase["schema"] ?? .bool(true), registry: registry, options: options) else {
                    continue
                }
                for test in testCase["tests"]?.arrayValue ?? [] where test["valid"]?.boolValue == false {
                    let instance = test["data"] ?? .null
                    let name = "\(file) :: \(testCase["description"]?.stringValue ?? "?") :: \(test["description"]?.stringValue ?? "?")"
                    let result = schema.validate(JSONDocument(instance))
                    invalidCases += 1
                    if result.isEmpty { problems.append("\(name): no output unit") }
                    for unit in result {
                        units += 1
                        if !unit.instanceLocation.isEmpty { nonRootLocations += 1 }
                        if PointerOracle.tokens(unit.instanceLocation) == nil {
                            problems.append("\(name): instanceLocation \(unit.instanceLocation) is not a JSON Pointer")
                        } else if PointerOracle.resolve(unit.instanceLocation, in: instance) == nil {
                            problems.append("\(name): instanceLocation \(unit.instanceLocation) does not resolve in the instance")
                        }
                        if let tokens = PointerOracle.tokens(unit.keywordLocation) {
                            // A false subschema reports at its own location (/allOf/1), under its
                            // applicator's keyword, or under "false" at the root.
                            if unit.keyword != "false" && !tokens.contains(unit.keyword) {
                                problems.append("\(name): keywordLocation \(unit.keywordLocation) does not name \(unit.keyword)")
                            }
                        } else {
                            problems.append("\(name): keywordLocation \(unit.keywordLocation) is not a JSON Pointer")
                        }
                    }
                }
            }
        }
        print("output locations: \(invalidCases) invalid cases of \(draft), \(units) units (\(nonRootLocations) below the root), \(problems.count) problems")
        #expect(invalidCases > 900)
        #expect(nonRootLocations > 200)
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(10).joined(separator: "\n"))")
    }

    /// Keys with "/" and "~", an emoji (outside the BMP), Korean, an empty key and array indices,
    /// with the locations worked out by hand from RFC 6901 ("~" is "~0", "/" is "~1").
    static let schema: JSONValue = [
        "properties": [
            "a/b": ["type": "integer"],
            "m~n": ["type": "integer"],
            "~1": ["type": "integer"],
            "😀": ["type": "integer"],
            "신청": ["maxLength": 2],
            "": ["type": "integer"],
            "list": ["items": ["type": "integer"]],
            "pairs": ["prefixItems": [["type": "integer"], ["properties": ["x/y~z": ["type": "integer"]]]]],
        ],
        "patternProperties": ["^p/q~": ["type": "integer"]],
    ]

    static let instance: JSONValue = [
        "a/b": "x", "m~n": "x", "~1": "x", "😀": "x", "신청": "더 많은 차량", "": "x",
        "list": [1, 2, "x"], "pairs": ["x", ["x/y~z": "x"]], "p/q~r": "x",
    ]

    static let expected: Set<[String]> = [
        ["/a~1b", "/properties/a~1b/type"],
        ["/m~0n", "/properties/m~0n/type"],
        ["/~01", "/properties/~01/type"],
        ["/😀", "/properties/😀/type"],
        ["/신청", "/properties/신청/maxLength"],
        ["/", "/properties//type"],
        ["/list/2", "/properties/list/items/type"],
        ["/pairs/0", "/properties/pairs/prefixItems/0/type"],
        ["/pairs/1/x~1y~0z", "/properties/pairs/prefixItems/1/properties/x~1y~0z/type"],
        ["/p~1q~0r", "/patternProperties/^p~1q~0/type"],
    ]

    @Test("hand-checked locations for keys with /, ~, emoji and Korean, and array indices")
    func handCheckedLocations() throws {
        let schema = try CompiledSchema(document: Self.schema)
        let result = schema.validate(Self.instance)
        #expect(result.status == .invalid)
        // Only the failing leaves: the applicators above them (properties, items...) report too.
        let leaves = Set(result.filter { ["type", "maxLength"].contains($0.keyword) }.map { [$0.instanceLocation, $0.keywordLocation] })
        #expect(leaves == Self.expected)
        for unit in result {
            #expect(PointerOracle.resolve(unit.instanceLocation, in: Self.instance) != nil, "\(unit.instanceLocation)")
        }
    }
}
