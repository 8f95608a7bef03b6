import Testing

@testable import JSONCore

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test("append(uniqueKey:) keeps the order and stays found past the size where members are indexed")
    func appendingUniqueKeys() {
        var object = JSONObject()
        object.reserveCapacity(40)
        for number in 0..<40 { object.append(uniqueKey: "k\(number)", .integer(Int64(number))) }
        #expect(object.keys == (0..<40).map { "k\($0)" })
        for number in 0..<40 { #expect(object["k\(number)"] == .integer(Int64(number))) }
        object["k3"] = nil
        object.append(uniqueKey: "k3", "again")
        #expect(object.keys.last == "k3")
        #expect(object["k3"] == "again")
        #expect(object.count == 40)
    }

    /// Past 16 members lookups go through a hash index; an object brought back to 16 drops it.
    @Test func membersAreIndexedPastSixteenAndNotAtSixteen() {
        func object(_ count: Int) -> JSONObject {
            var object = JSONObject()
            for number in 0..<count { object["k\(number)"] = .integer(Int64(number)) }
            return object
        }
        #expect(JSONObject.indexedAbove == 16)
        #expect(!object(15).isIndexed)
        #expect(!object(16).isIndexed)
        #expect(object(17).isIndexed)
        var seventeen = object(17)
        seventeen["k0"] = nil
        #expect(seventeen.count == 16 && !seventeen.isIndexed)
        #expect(seventeen["k16"] == 16 && seventeen["k0"] == nil)
        var eighteen = object(18)
        eighteen["k17"] = nil
        #expect(eighteen.count == 17 && eighteen.isIndexed)
        #expect(eighteen["k16"] == 16 && eighteen["k17"] == nil)
        // Removed down to 16 and grown again: indexed once more past 16, every key still found.
        seventeen["again"] = "x"
        #expect(seventeen.isIndexed && seventeen["again"] == "x" && seventeen["k1"] == 1)
    }

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
        // Escapes between runs of plain text, at the ends, and U+2029 next to other three-byte characters.
        #expect(JSONValue.string("\t한</b>\u{2029}✓\u{1F}").serialized(escapeForScript: true) == #""\t한<\/b>\u2029✓\u001f""#)
        #expect(JSONValue.string("/a</").serialized(escapeForScript: true) == #""/a<\/""#)
        #expect(JSONValue.string("\u{2028}").serialized() == "\"\u{2028}\"")
        #expect(JSONValue.string("").serialized() == #""""#)
        // Keys are escaped like values.
        #expect(JSONValue.object(JSONObject([("a\"b", 1)])).serialized() == #"{"a\"b":1}"#)
    }

    @Test func numbersAreWrittenSoTheyReadBackTheSameKind() throws {
        #expect(JSONValue.integer(-7).serialized() == "-7")
        #expect(JSONValue.number(2).serialized() == "2.0")
        #expect(JSONValue.number(0.1).serialized() == "0.1")
        #expect(JSONValue.number(.nan).serialized() == "null")
        #expect(JSONValue.number(.infinity).serialized() == "null")
        // A whole real is written with ".0" (the fast path below 10^15 and Swift's own text above
        // it agree), and in exponent form from 10^16; each reads back as the same real.
        #expect(JSONValue.number(999_999_999_999_999).serialized() == "999999999999999.0")
        #expect(JSONValue.number(-999_999_999_999_999).serialized() == "-999999999999999.0")
        #expect(JSONValue.number(1e15).serialized() == "1000000000000000.0")
        #expect(JSONValue.number(1e15 + 2).serialized() == "1000000000000002.0")
        #expect(JSONValue.number(1e16).serialized() == "1e+16")
        #expect(JSONValue.number(-1e16).serialized() == "-1e+16")
        for text in ["999999999999999.0", "1000000000000002.0", "1e+16"] {
            #expect(try JSONValue(parsing: text).serialized() == text, "\(text) reads back as itself")
        }
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

    @Test("a large object (past the linear search) looks up, replaces, removes and compares like a small one")
    func largeObjectsKeepTheSameRules() {
        let members = (0..<40).map { (String("key-\($0)"), JSONValue.integer(Int64($0))) }
        var object = JSONObject(members)
        #expect(object.count == 40)
        #expect(object["key-33"] == 33)
        object["key-33"] = "replaced"
        #expect(object.keys[33] == "key-33", "a replaced member keeps its place")
        object["key-0"] = nil
        #expect(object["key-1"] == 1)
        #expect(object["key-0"] == nil)
        #expect(object.keys.first == "key-1")
        #expect(object["key-39"] == 39, "positions after a removal are found again")
        object["new"] = true
        #expect(object.keys.last == "new")
        let reversed = JSONObject(Array(object.map { ($0.key, $0.value) }.reversed()))
        #expect(object == reversed)
        #expect(object.hashValue == reversed.hashValue)
        for index in 1..<40 { object["key-\(index)"] = nil }
        #expect(object.keys == ["new"])
        #expect(object["new"] == true)
    }

    @Test("equal objects hash alike whatever their order; different members usually do not")
    func objectHashFollowsEquality() {
        let one = JSONObject([("a", 1), ("b", [1, 2]), ("c", ["d": nil])])
        let other = JSONObject([("c", ["d": nil]), ("a", 1), ("b", [1, 2])])
        #expect(one == other)
        #expect(Set([JSONValue.object(one), .object(other)]).count == 1)
        #expect(one != JSONObject([("a", 1), ("b", [2, 1]), ("c", ["d": nil])]))
        #expect(one != JSONObject([("a", 1), ("b", [1, 2])]))
    }
}
