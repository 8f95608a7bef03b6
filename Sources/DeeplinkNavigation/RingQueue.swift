/// A first-in, first-out queue in a ring of slots. Taking from the front lets go of one element
/// at a time. An array whose consumed front is dropped in one `removeFirst(n)` lets go of n
/// elements in one call: in the duplicate window that was a pause of about 200 µs for the
/// message that happened to trigger it, once per thousand fingerprints.
///
/// The ring doubles when full (as an array's storage does while it grows to its bound) and never
/// shrinks, so a queue kept at a bound stops allocating once it has reached it.
struct RingQueue<Element> {
    private var slots: [Element?] = []
    /// Where the front element is; slots are a power of two, so positions wrap with a mask.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The slots allocated (for the tests of the bounds).
    var slotCount: Int { slots.count }

    var first: Element? { count == 0 ? nil : slots[head] }

    /// The element `offset` places behind the front (0 is the front).
    subscript(offset: Int) -> Element {
        precondition(offset >= 0 && offset < count, "RingQueue: offset \(offset) outside 0..<\(count)")
        return slots[(head + offset) & (slots.count - 1)]!
    }

    mutating func append(_ element: Element) {
        if count == slots.count { grow() }
        slots[(head + count) & (slots.count - 1)] = element
        count += 1
    }

    /// Takes the front element out (and lets go of it), or nil when empty.
    @discardableResult
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = slots[head]
        slots[head] = nil
        head = (head + 1) & (slots.count - 1)
        count -= 1
        return element
    }

    /// Replaces the contents with `elements`, in order, keeping the slots.
    mutating func replaceAll<Elements: Collection>(with elements: Elements) where Elements.Element == Element {
        while removeFirst() != nil {}
        head = 0
        for element in elements { append(element) }
    }

    private mutating func grow() {
        let size = max(16, slots.count * 2)
        var grown: [Element?] = []
        grown.reserveCapacity(size)
        for offset in 0..<count { grown.append(slots[(head + offset) & (slots.count - 1)]) }
        grown.append(contentsOf: repeatElement(nil, count: size - count))
        slots = grown
        head = 0
    }
}

extension RingQueue: Sendable where Element: Sendable {}
