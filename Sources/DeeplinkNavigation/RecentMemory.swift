/// A map that remembers at most `capacity` keys: adding one more forgets the oldest. For what the
/// navigator must recall about a session (deferred links seen, how offers ended) without growing
/// with the session's length.
struct RecentMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int
    private var values: [Key: Value] = [:]
    /// The live keys in the order they were first added.
    private var order = RingQueue<Key>()

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { values.count }

    subscript(key: Key) -> Value? { values[key] }

    /// Remembers `value` for `key`. A key already known keeps its place in the order (updating it
    /// does not make it newer); a new key past the capacity forgets the oldest.
    mutating func remember(_ value: Value, for key: Key) {
        if values.updateValue(value, forKey: key) == nil {
            order.append(key)
            forgetOldest()
        }
    }

    /// Keys are never removed otherwise, so `order` is exactly the live keys.
    private mutating func forgetOldest() {
        if values.count > capacity, let oldest = order.removeFirst() {
            values[oldest] = nil
        }
    }

    /// The slots the order of keys takes (for the test of the bound).
    var orderSlots: Int { order.slotCount }
}
