import JSONCore
import Testing

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test func compactAndPrettyTextKeepMemberOrder() {
        let value: JSONValue = .object(JSONObject([("b", 1), ("a", [true, nil, 1.5, "x"]), ("c", [:])]))
        #expect(value.serialized() == #"{"b":1,"a":[true,null,1.5,"x"],"c":{}}"#)
        #expect(value.serialized(sortedKeys: true) == #"{"a":[true,null,1.5,"x"],"b":1,"c":{}}"#)
        #expect(value.prettyPrinted() == "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null,\n    1.5,\n    \"x\"\n  ],\n  \"c\": {}\n}")
    }

    @Test func stringsAreEscapedOnlyWhereJSONOrAScriptNeedsIt() {
        #expect(JSONValue.string("a\"b\\c\n\u{1}\u{7F}한").serialized() == #""a\"b\\c\n\u0001\u007f한""#)
        #expect(JSONValue.string("</script>\u{2028}").serialized() == "\"</script>\u{2028}\"")
        #expect(JSONValue.string("</script>\u{2028}").serialized(escapeForScript: true) == #""<\/script>\u2028""#)
    }

    @Test func numbersAreWrittenSoTheyReadBackTheSameKind() {
        #expect(JSONValue.integer(-7).serialized() == "-7")
        #expect(JSONValue.number(2).serialized() == "2.0")
        #expect(JSONValue.number(0.1).serialized() == "0.1")
        #expect(JSONValue.number(.nan).serialized() == "null")
        #expect(JSONValue.number(.infinity).serialized() == "null")
    }

    @Test func integerValueIncludesWholeReals() {
        #expect(JSONValue.integer(3).integerValue == 3)
        #expect(JSONValue.number(3).integerValue == 3)
        #expect(JSONValue.number(3.5).integerValue == nil)
        #expect(JSONValue.number(1e19).integerValue == nil)
        #expect(JSONValue.string("3").integerValue == nil)
    }

    @Test func objectEqualityIgnoresOrderButIterationKeepsIt() {
        var object = JSONObject([("x", 1), ("y", 2)])
        #expect(object == JSONObject([("y", 2), ("x", 1)]))
        object["x"] = 3
        object["z"] = 4
        #expect(object.keys == ["x", "y", "z"])
        object["y"] = nil
        #expect(object.map(\.key) == ["x", "z"])
        #expect(object.count == 2)
        #expect(JSONValue.object(object) != JSONValue.object(JSONObject([("x", 3)])))
    }
}
