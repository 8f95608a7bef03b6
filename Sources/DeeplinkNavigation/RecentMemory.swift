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

    subscript(key: Key) -> Value? {
        get { values[key] }
        set {
            guard let newValue else {
                values[key] = nil
                return
            }
            if values.updateValue(newValue, forKey: key) == nil {
                order.append(key)
                forgetOldest()
            }
        }
    }

    private mutating func forgetOldest() {
        while values.count > capacity, head < order.count {
            values[order[head]] = nil
            head += 1
        }
        // Keys removed by hand stay in `order` until the compaction, which keeps it at most
        // twice the live count.
        if head > capacity || order.count > 2 * capacity {
            order = order[head...].filter { values[$0] != nil }
            head = 0
        }
    }
}
