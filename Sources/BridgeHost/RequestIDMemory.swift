/// The request ids already answered, to reply DUPLICATE to a resend. Bounded: the oldest id is
/// forgotten once `capacity` are remembered (a FIFO ring with a set for lookups), so a page that
/// sends a million messages cannot grow the host without limit.
public struct RequestIDMemory: Sendable {
    public let capacity: Int
    private var ring: [String] = []
    private var next = 0
    private var known: Set<String> = []

    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    public var count: Int { known.count }

    public func contains(_ id: String) -> Bool { known.contains(id) }

    /// Remembers `id`; false when it was already known.
    @discardableResult
    public mutating func insert(_ id: String) -> Bool {
        guard known.insert(id).inserted else { return false }
        if ring.count < capacity {
            ring.append(id)
        } else {
            known.remove(ring[next])
            ring[next] = id
            next = (next + 1) % capacity
        }
        return true
    }
}
