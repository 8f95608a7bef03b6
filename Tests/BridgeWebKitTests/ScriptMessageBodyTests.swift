import Foundation
import Testing
import JSONCore
@testable import BridgeWebKit

@Suite("ScriptMessageBody: a WebKit Foundation tree to JSONValue, with the bridge's limits")
struct ScriptMessageBodyTests {
    static let bridgeLimits = ScriptMessageBody.Limits(maxBytes: 65_536, maxDepth: 64)

    static func convert(_ body: Any, _ limits: ScriptMessageBody.Limits = bridgeLimits) throws(ScriptMessageBody.ConversionError) -> JSONValue {
        try ScriptMessageBody.convert(body, limits: limits).value
    }

    static func failure(_ body: Any, _ limits: ScriptMessageBody.Limits = bridgeLimits) -> ScriptMessageBody.ConversionError? {
        do {
            _ = try ScriptMessageBody.convert(body, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test("every JSON shape WebKit delivered converts to what JavaScriptCore's JSON.stringify says", arguments: try WebKitShape.all().filter { $0.name != "not-a-number" && $0.name != "string" })
    func recordedShapeMatchesJavaScriptCore(shape: WebKitShape) throws {
        let converted = try Self.convert(shape.foundationBody)
        #expect(converted == (try JSONValue(parsing: shape.jsonText)), "shape \(shape.name)")
    }

    @Test("the size counted while converting is the canonical text's length: that many bytes pass, one fewer is refused", arguments: try WebKitShape.all().filter { $0.name != "not-a-number" })
    func sizeIsTheCanonicalLength(shape: WebKitShape) throws {
        let converted = try ScriptMessageBody.convert(shape.foundationBody, limits: Self.bridgeLimits)
        #expect(converted.canonicalText == converted.value.serialized(sortedKeys: true))
        let length = converted.canonicalText.utf8.count
        #expect(throws: Never.self) { try ScriptMessageBody.convert(shape.foundationBody, limits: .init(maxBytes: length, maxDepth: 64)) }
        #expect(Self.failure(shape.foundationBody, .init(maxBytes: length - 1, maxDepth: 64))?.kind == .tooLarge)
    }

    @Test("WebKit's booleans are booleans, its 1 and 0 are numbers (NSNumber told apart without `as? Bool`)")
    func booleansAreToldApartFromNumbers() throws {
        let converted = try Self.convert(try WebKitShape.named("booleans").foundationBody)
        #expect(converted["yes"] == .bool(true))
        #expect(converted["no"] == .bool(false))
        #expect(converted["list"] == .array([.bool(true), .bool(false), .integer(1), .integer(0)]))
    }

    @Test("numbers: whole doubles within 2^53 become integers, -0 is 0, others stay reals (as JSON.stringify writes them)")
    func numbersAsJavaScriptWritesThem() throws {
        let converted = try Self.convert(try WebKitShape.named("numbers").foundationBody)
        #expect(converted["one"] == .integer(1))
        #expect(converted["wholeReal"] == .integer(2))
        #expect(converted["negativeZero"] == .integer(0))
        #expect(converted["maxSafe"] == .integer(9_007_199_254_740_991))
        #expect(converted["half"] == .number(1.5))
        #expect(converted["huge"] == .number(1e21))
        #expect(converted["tiny"] == .number(Double.leastNonzeroMagnitude))  // 5e-324
    }

    /// 2^53 is the last whole double an integer stands for exactly; the next double, 2^53 + 2,
    /// stays a real (and so do their negatives).
    @Test(arguments: [
        (9_007_199_254_740_991.0, JSONValue.integer(9_007_199_254_740_991)),
        (9_007_199_254_740_992.0, .integer(9_007_199_254_740_992)),
        (9_007_199_254_740_994.0, .number(9_007_199_254_740_994)),
        (-9_007_199_254_740_992.0, .integer(-9_007_199_254_740_992)),
        (-9_007_199_254_740_994.0, .number(-9_007_199_254_740_994)),
    ])
    func wholeDoublesBecomeIntegersUpToTwoToTheFiftyThird(real: Double, expected: JSONValue) throws {
        let converted = try Self.convert(NSDictionary(dictionary: ["n": NSNumber(value: real)]))
        #expect(converted["n"] == expected)
    }

    /// An unsigned 64-bit number (a Swift UInt64 handed to the adapter) is an integer while Int64
    /// holds it, and a real past that.
    @Test(arguments: [
        (UInt64(Int64.max) - 1, JSONValue.integer(Int64.max - 1)),
        (UInt64(Int64.max), .integer(Int64.max)),
        (UInt64(Int64.max) + 1, .number(9_223_372_036_854_775_808)),
    ])
    func unsignedNumbersAreIntegersWhileInt64HoldsThem(value: UInt64, expected: JSONValue) throws {
        let converted = try Self.convert(NSDictionary(dictionary: ["n": NSNumber(value: value)]))
        #expect(converted["n"] == expected)
    }

    @Test("NaN and infinities (which WebKit delivers as numbers and JSON.stringify turns into null) are refused with their pointer")
    func notANumberIsRefused() throws {
        let error = Self.failure(try WebKitShape.named("not-a-number").foundationBody)
        #expect(error?.kind == .notANumber)
        #expect(error?.pointer == "/infinity")  // members in sorted order: infinity, nan, negativeInfinity
        let nested: NSDictionary = ["payload": ["scores": [1, Double.nan]]]
        #expect(Self.failure(nested)?.pointer == "/payload/scores/1")
    }

    @Test("a dictionary key that is not a string is refused, naming the object")
    func nonStringKeyIsRefused() {
        let body: NSDictionary = ["payload": NSDictionary(dictionary: [NSNumber(value: 1): "one"])]
        let error = Self.failure(body)
        #expect(error?.kind == .nonStringKey)
        #expect(error?.pointer == "/payload")
        #expect(error?.message.contains("not a string") == true)
    }

    @Test("nesting: the limit's depth converts, one more level is refused where it goes too deep")
    func depthLimit() throws {
        func nested(_ levels: Int) -> Any {
            var value: Any = NSArray()
            for _ in 1..<levels { value = NSDictionary(dictionary: ["a": value]) }
            return value
        }
        #expect(throws: Never.self) { try Self.convert(nested(64)) }
        let error = Self.failure(nested(65))
        #expect(error?.kind == .tooDeep)
        #expect(error?.pointer == "/" + Array(repeating: "a", count: 64).joined(separator: "/"))
    }

    #if canImport(Darwin)
    // Not on Linux: swift-corelibs-foundation bridges an NSDictionary's values to Swift whenever
    // one is read (object(forKey:), enumeration), so reading a dictionary that contains itself
    // recurses inside Foundation before the converter sees it (tried: signal 11 in getObjects).
    @Test("a cyclic tree (a JS object that contains itself) stops at the depth limit instead of recursing forever")
    func cycleStops() {
        let cycle = NSMutableDictionary()
        cycle["self"] = cycle
        #expect(Self.failure(cycle)?.kind == .tooDeep)
    }
    #endif

    @Test("size: a walk stops at the member that passes the limit, not at the end of the tree")
    func sizeStopsAtTheItemThatPassesTheLimit() {
        // 10,000 strings of 12 bytes each ("xxxxxxxxxx" quoted): brackets and commas count 10,001
        // first, then item k brings the total to 10,001 + 12 (k + 1), past 65,536 at k = 4627.
        let strings = NSArray(array: Array(repeating: NSString(string: "xxxxxxxxxx"), count: 10_000))
        let error = Self.failure(strings)
        #expect(error?.kind == .tooLarge)
        #expect(error?.pointer == "/4627")
    }

    @Test("size: an array whose brackets and commas alone pass the limit is refused before any item is read")
    func sizeCountsTheCommasFirst() {
        let huge = NSArray(array: Array(repeating: NSNumber(value: 7.0), count: 1_000_000))
        let error = Self.failure(huge)
        #expect(error?.kind == .tooLarge)
        #expect(error?.pointer == "")
    }

    @Test("a JS Date (NSDate on iOS) or any other object is not JSON")
    func unsupportedObjects() {
        #expect(Self.failure(NSDictionary(dictionary: ["sentAt": NSDate()]))?.kind == .unsupportedType)
        #expect(Self.failure(NSDictionary(dictionary: ["sentAt": NSDate()]))?.pointer == "/sentAt")
        #expect(Self.failure(NSObject())?.kind == .unsupportedType)
        // The message names a date as the page developer wrote it, whichever form reached the app.
        #expect(Self.failure(NSDictionary(dictionary: ["sentAt": NSDate()]))?.message == "a date (a JavaScript Date) is not a JSON value")
        #expect(Self.failure(["sentAt": Date()] as [String: Any])?.message == "a date (a JavaScript Date) is not a JSON value")
        #expect(Self.failure(NSObject())?.message == "a NSObject is not a JSON value")
    }

    @Test("Swift values (Bool, Int, Double, arrays, dictionaries) convert like their Foundation forms")
    func swiftValues() throws {
        let body: [String: Any] = ["flag": true, "count": 3, "ratio": 0.5, "tags": ["a", "b"], "none": NSNull()]
        #expect(try Self.convert(body) == ["flag": true, "count": 3, "ratio": 0.5, "tags": ["a", "b"], "none": nil])
    }

    #if !canImport(Darwin)
    @Test("swift-corelibs-foundation: booleans report objCType \"c\", integers of every width do not")
    func corelibsBooleanRepresentation() {
        #expect(isFoundationBoolean(NSNumber(value: true)))
        #expect(isFoundationBoolean(true as NSNumber))
        for number in [NSNumber(value: Int8(1)), NSNumber(value: UInt8(1)), NSNumber(value: 1), NSNumber(value: 1.0), NSNumber(value: Int64(0))] {
            #expect(!isFoundationBoolean(number), "\(number) objCType \(String(cString: number.objCType))")
        }
    }
    #endif
}
