/// A map that remembers at most `capacity` keys: adding one more forgets the oldest. For what the
/// navigator must recall about a session (deferred links seen, how offers ended) without growing
/// with the session's length.
struct RecentMemory<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int
    private var values: [Key: Value] = [:]
    /// Keys in the order they were first added; `head` skips the forgotten ones.
    private var order: [Key] = []
    private var head = 0

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

    private mutating func forgetOldest() {
        if values.count > capacity {
            values[order[head]] = nil
            head += 1
        }
        // Keys are never removed otherwise, so order[head...] is exactly the live keys; drop the
        // forgotten prefix once it is as long as the capacity.
        if head >= capacity {
            order.removeFirst(head)
            head = 0
        }
    }
}
