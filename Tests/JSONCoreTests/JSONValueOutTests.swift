import Testing
import JSONCore

@Suite("JSONValue out: readable text and plain Swift values for analytics SDKs")
struct JSONValueOutTests {
    static let properties = JSONObject([
        ("action", "apply"), ("version", 1), ("ratio", 0.5), ("loggedIn", true), ("nothing", nil),
        ("tags", ["a", nil, 2]), ("nested", ["variant": "카드스캐너"]),
    ])

    @Test("a JSON value prints as compact JSON in its member order, not as a Swift dump")
    func description() {
        let value = JSONValue.object(Self.properties)
        #expect("\(value)" == #"{"action":"apply","version":1,"ratio":0.5,"loggedIn":true,"nothing":null,"tags":["a",null,2],"nested":{"variant":"카드스캐너"}}"#)
        #expect(Self.properties.description == value.description)
        #expect(String(describing: JSONValue.string("a\"b")) == #""a\"b""#)
    }

    @Test("[String: any Sendable]: String, Int, Double, Bool, arrays and dictionaries; null left out")
    func sendableDictionary() {
        let dictionary = Self.properties.sendableDictionary()
        #expect(dictionary["action"] as? String == "apply")
        #expect(dictionary["version"] as? Int == 1)
        #expect(dictionary["ratio"] as? Double == 0.5)
        #expect(dictionary["loggedIn"] as? Bool == true)
        #expect(dictionary["nothing"] == nil)
        #expect(dictionary.keys.contains("nothing") == false)
        let tags = dictionary["tags"] as? [any Sendable]
        #expect(tags?.count == 2)
        #expect(tags?.first as? String == "a")
        #expect(tags?.last as? Int == 2)
        #expect((dictionary["nested"] as? [String: any Sendable])?["variant"] as? String == "카드스캐너")
    }

    @Test("[String: Any]: the same values; a stand-in for null keeps null members and items")
    func anyDictionary() {
        let dictionary = Self.properties.anyDictionary()
        #expect(dictionary["version"] as? Int == 1)
        #expect(dictionary["nothing"] == nil)
        let kept = Self.properties.anyDictionary(representingNullAs: "null")
        #expect(kept["nothing"] as? String == "null")
        #expect((kept["tags"] as? [Any])?.count == 3)
    }

    @Test("an integer past Int's range on 32-bit platforms stays an Int64; on 64-bit it is an Int")
    func integers() {
        let big = JSONValue.integer(Int64.max).sendableValue
        #expect(big as? Int == Int(exactly: Int64.max) || big as? Int64 == Int64.max)
    }

    /// Pretty text is for files people read: `</` and U+2028 stay as written there; only the
    /// compact text for scripts escapes them.
    @Test func prettyTextKeepsWhatOnlyAScriptNeedsEscaped() {
        let value: JSONValue = ["a": "</b>\u{2028}"]
        #expect(value.prettyPrinted() == "{\n  \"a\": \"</b>\u{2028}\"\n}")
        #expect(value.serialized(escapeForScript: true) == #"{"a":"<\/b>\u2028"}"#)
    }
}
