import JSONCore
import SchemaCheck
import Testing

/// One message at a time in an arena: each document is read, handed to the body and released,
/// over and over; a second document while one lives there is a programming error that stops the
/// process instead of resetting the first away under its reader.
@Suite struct MessageArenaTests {
    @Test func documentsOneAfterAnotherEachReadWhole() {
        let arena = MessageArena()
        for number in 0..<2_000 {
            let text = #"{"n":\#(number),"tags":["a","b"],"nested":{"k":"\#(String(repeating: "x", count: number % 300))"}}"#
            let read: JSONValue? = Array(text.utf8).withUnsafeBufferPointer { bytes in
                arena.withDocument(bytes, limits: .bridgeMessage) { result in (try? result.get())?.value }
            }
            #expect(read?["n"] == .integer(Int64(number)), "message \(number)")
            #expect(read?["nested"]?["k"]?.stringValue?.count == number % 300)
        }
    }

    @Test func aParseErrorIsHandedToTheBodyAndTheArenaGoesOn() {
        let arena = MessageArena()
        let failed: String? = Array(#"{"a":"#.utf8).withUnsafeBufferPointer { bytes in
            arena.withDocument(bytes, limits: .bridgeMessage) { result in
                if case .failure(let error) = result { return error.message }
                return nil
            }
        }
        #expect(failed?.isEmpty == false, "\(failed ?? "parsed")")
        let after = Array(#"{"a":1}"#.utf8).withUnsafeBufferPointer { bytes in
            arena.withDocument(bytes, limits: .bridgeMessage) { result in (try? result.get())?.value["a"] }
        }
        #expect(after == 1)
    }

    @Test func aSecondDocumentWhileOneLivesInTheArenaStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let arena = MessageArena()
            let bytes = Array("{}".utf8)
            bytes.withUnsafeBufferPointer { outer in
                arena.withDocument(outer, limits: .bridgeMessage) { _ in
                    bytes.withUnsafeBufferPointer { inner in arena.withDocument(inner, limits: .bridgeMessage) { _ in () } }
                }
            }
        }
    }
}
