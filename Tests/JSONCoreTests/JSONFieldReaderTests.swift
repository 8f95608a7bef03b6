import JSONCore
import Testing

@Suite("JSONFieldReader: typed fields with the pointer of what is wrong")
struct JSONFieldReaderTests {
    let reader = JSONFieldReader([
        "name": "apply", "count": 2.0, "flag": true, "tags": ["a", 1], "map": ["x": "1", "y": 2], "a/b": ["c": nil],
    ])

    /// The error `read` threw, nil when it threw none (any other error fails the comparison).
    private func failure(_ read: (JSONFieldReader) throws -> Void) -> JSONFieldError? {
        do {
            try read(reader)
            return nil
        } catch {
            return error as? JSONFieldError
        }
    }

    @Test func readsEachType() throws {
        #expect(try reader.child("name").string() == "apply")
        #expect(try reader.child("count").integer() == 2)
        #expect(try reader.child("flag").bool())
        #expect(try reader.optionalChild("missing") == nil)
        let pairs = try JSONFieldReader(["y": "2", "x": "1"]).stringMap()
        #expect(pairs.map(\.key) == ["y", "x"] && pairs.map(\.value) == ["2", "1"])
        #expect(try JSONFieldReader(["a", "b"]).strings() == ["a", "b"])
        #expect(try reader.child("a/b").child("c").pointer == "/a~1b/c")
    }

    @Test func eachFailureNamesTheFieldAndWhatWasExpected() {
        #expect(failure { _ = try $0.child("missing") } == JSONFieldError(pointer: "/missing", message: "missing required field \"missing\""))
        #expect(failure { _ = try $0.child("name").integer() } == JSONFieldError(pointer: "/name", message: "expected an integer"))
        #expect(failure { _ = try $0.child("flag").string() } == JSONFieldError(pointer: "/flag", message: "expected a string"))
        #expect(failure { _ = try $0.child("name").bool() } == JSONFieldError(pointer: "/name", message: "expected true or false"))
        #expect(failure { _ = try $0.child("tags").strings() } == JSONFieldError(pointer: "/tags/1", message: "expected a string"))
        #expect(failure { _ = try $0.child("map").stringMap() } == JSONFieldError(pointer: "/map/y", message: "expected a string"))
        #expect(failure { _ = try $0.child("name").child("x") } == JSONFieldError(pointer: "/name", message: "expected an object"))
        #expect(failure { _ = try $0.child("a/b").child("c").items() } == JSONFieldError(pointer: "/a~1b/c", message: "expected an array"))
        #expect(JSONFieldError(pointer: "/a", message: "m").description == "/a: m")
        #expect(JSONFieldError(pointer: "", message: "m").description == "m")
    }

    @Test func itemsCarryTheirIndex() throws {
        let items = try reader.child("tags").items()
        #expect(items.map(\.pointer) == ["/tags/0", "/tags/1"])
        #expect(items[1].value == 1)
    }
}
