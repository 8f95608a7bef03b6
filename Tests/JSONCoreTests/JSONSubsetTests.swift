import JSONCore
import Testing

@Suite("JSONSubset")
struct JSONSubsetTests {
    @Test func oneAndOnePointZeroAreTheSameNumber() throws {
        let one = try JSONValue(parsing: "1"), onePointZero = try JSONValue(parsing: "1.0")
        #expect(JSONSubset.mismatch(expected: one, actual: onePointZero, at: "") == nil)
        #expect(JSONSubset.mismatch(expected: onePointZero, actual: one, at: "") == nil)
        let nested = try JSONValue(parsing: #"{"ok": 2}"#), got = try JSONValue(parsing: #"{"ok": 2.0, "more": true}"#)
        #expect(JSONSubset.mismatch(expected: nested, actual: got, at: "/reply") == nil)
        #expect(JSONSubset.mismatch(expected: one, actual: try JSONValue(parsing: "1.5"), at: "/n") == "/n: expected 1, got 1.5")
        #expect(JSONSubset.mismatch(expected: one, actual: try JSONValue(parsing: "2"), at: "/n") == "/n: expected 1, got 2")
    }

    @Test func aMissingOrDifferentMemberIsNamedByItsPath() {
        let expected: JSONValue = ["ok": true, "route": ["path": "/apply"]]
        #expect(JSONSubset.mismatch(expected: expected, actual: ["ok": true, "route": ["path": "/apply", "extra": 1]], at: "") == nil)
        #expect(JSONSubset.mismatch(expected: expected, actual: ["ok": true], at: "") == "/route: missing (expected {\"path\":\"/apply\"})")
        #expect(JSONSubset.mismatch(expected: expected, actual: ["ok": true, "route": ["path": "/home"]], at: "") == "/route/path: expected \"/apply\", got \"/home\"")
        #expect(JSONSubset.mismatch(expected: expected, actual: ["ok", true], at: "/r") == "/r: expected an object, got [\"ok\",true]")
        #expect(JSONSubset.mismatch(expected: [1, 2], actual: [1, 2, 3], at: "/a") == "/a: expected [1,2], got [1,2,3]")
    }
}
