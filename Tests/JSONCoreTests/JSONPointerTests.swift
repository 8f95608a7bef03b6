import JSONCore
import Testing

@Suite("JSONPointer (RFC 6901)")
struct JSONPointerTests {
    @Test func tokensAreUnescapedInTheRightOrder() {
        #expect(JSONPointer.tokens(of: "") == [])
        #expect(JSONPointer.tokens(of: "/") == [""])
        #expect(JSONPointer.tokens(of: "/a~1b/m~0n/~01") == ["a/b", "m~n", "~1"])
        #expect(JSONPointer.tokens(of: "a") == nil)
        #expect(JSONPointer.tokens(of: "/a~2") == nil)
        #expect(JSONPointer.tokens(of: "/a~") == nil)
    }

    @Test func escapeAndJoinAreTheInverse() {
        let tokens = ["payload", "a/b", "~x", "", "슬러그"]
        #expect(JSONPointer.join(tokens) == "/payload/a~1b/~0x//슬러그")
        #expect(JSONPointer.tokens(of: JSONPointer.join(tokens)) == tokens)
    }

    @Test func valuesAreFoundThroughObjectsAndArrays() {
        let document: JSONValue = ["payload": ["items": ["a", "b"], "a/b": 1, "": true]]
        #expect(document.value(at: "") == document)
        #expect(document.value(at: "/payload/items/0") == "a")
        #expect(document.value(at: "/payload/items/1") == "b")
        #expect(document.value(at: "/payload/a~1b") == 1)
        #expect(document.value(at: "/payload/") == true)
        #expect(document.value(at: "/payload/items/2") == nil)
        #expect(document.value(at: "/payload/items/01") == nil)
        #expect(document.value(at: "/payload/items/-") == nil)
        #expect(document.value(at: "/payload/items/0/deeper") == nil)
        #expect(document.value(at: "payload") == nil)
    }

    @Test func anArrayIndexIsDigitsWithoutALeadingZero() {
        #expect(JSONPointer.arrayIndex("0") == 0)
        #expect(JSONPointer.arrayIndex("7") == 7)
        #expect(JSONPointer.arrayIndex("10") == 10)
        #expect(JSONPointer.arrayIndex("00") == nil)
        #expect(JSONPointer.arrayIndex("01") == nil)
        #expect(JSONPointer.arrayIndex("") == nil)
        #expect(JSONPointer.arrayIndex("-") == nil)
        #expect(JSONPointer.arrayIndex("1a") == nil)
        #expect(JSONPointer.arrayIndex("٣") == nil)
    }
}
