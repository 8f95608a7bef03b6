import BridgeHost
import Testing

@Suite("RequestIDMemory: a bounded memory of answered request ids")
struct RequestIDMemoryTests {
    @Test func remembersWhatItWasGiven() {
        var memory = RequestIDMemory(capacity: 4)
        let first = memory.insert("a")
        let again = memory.insert("a")
        #expect(first && !again)
        #expect(memory.contains("a"))
        #expect(!memory.contains("b"))
        #expect(memory.count == 1)
    }

    @Test func forgetsTheOldestAtCapacityAndOnlyThen() {
        var memory = RequestIDMemory(capacity: 3)
        for id in ["a", "b", "c"] { memory.insert(id) }
        // Full, not over: nothing forgotten yet.
        #expect(["a", "b", "c"].allSatisfy(memory.contains))
        #expect(memory.count == 3)
        // A resend of a known id neither evicts nor refreshes anything.
        let resent = memory.insert("b")
        #expect(!resent)
        #expect(["a", "b", "c"].allSatisfy(memory.contains))
        memory.insert("d")
        #expect(!memory.contains("a"))
        #expect(["b", "c", "d"].allSatisfy(memory.contains))
        memory.insert("e")
        #expect(!memory.contains("b"))
        #expect(["c", "d", "e"].allSatisfy(memory.contains))
        #expect(memory.count == 3)
        // A forgotten id is new again.
        let forgottenIsNew = memory.insert("a")
        #expect(forgottenIsNew)
        #expect(!memory.contains("c"))
    }

    @Test func staysBoundedOverALongSession() {
        var memory = RequestIDMemory(capacity: 100)
        for number in 0..<10_000 { memory.insert("req-\(number)") }
        #expect(memory.count == 100)
        #expect((9_900..<10_000).allSatisfy { memory.contains("req-\($0)") })
        #expect(!memory.contains("req-9899"))
        #expect(!memory.contains("req-0"))
    }

    @Test func aCapacityBelowOneIsOne() {
        var memory = RequestIDMemory(capacity: 0)
        #expect(memory.capacity == 1)
        memory.insert("a")
        memory.insert("b")
        #expect(!memory.contains("a") && memory.contains("b"))
    }
}
