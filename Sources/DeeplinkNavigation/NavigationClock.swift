#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The navigator's time: envelope timestamps, the duplicate window, step timeouts, and the bridge's
/// reply deadlines. Apps use `SystemNavigationClock`; tests, `bridgectl simulate` and
/// `bridgectl host --stdio` use `ManualNavigationClock`, so what happens at which moment is decided
/// by the test, not by the machine's speed.
@MainActor
public protocol NavigationClock: AnyObject {
    func now() -> Date
    /// Runs `work` on the main actor once `milliseconds` have passed, unless cancelled first.
    @discardableResult
    func schedule(afterMs milliseconds: Int, _ work: @escaping @MainActor () -> Void) -> ScheduledWork
}

/// Work a clock will run later; `cancel()` makes sure it never runs.
@MainActor
public final class ScheduledWork {
    private var onCancel: (() -> Void)?
    public private(set) var isCancelled = false

    init(onCancel: @escaping () -> Void) {
        self.onCancel = onCancel
    }

    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        onCancel?()
        onCancel = nil
    }
}

/// Wall-clock time. All scheduled work shares one main-actor task that sleeps until the earliest
/// due time. A navigation schedules a step timeout or two and a reply deadline and cancels them
/// microseconds later; a task per deadline left each cancelled sleep in the runtime's timer queue
/// until its due time (memory that grew with the message rate, and a thread wake-up each).
///
/// Bounded: cancelled work leaves the queue at the latest when the queue has grown past twice the
/// live work plus 64 (each compaction is paid for by the schedules since the last one).
@MainActor
public final class SystemNavigationClock: NavigationClock {
    private struct Item {
        let due: ContinuousClock.Instant
        let sequence: Int
        let work: @MainActor () -> Void
        let handle: ScheduledWork

        func precedes(_ other: Item) -> Bool { due < other.due || (due == other.due && sequence < other.sequence) }
    }

    private let clock = ContinuousClock()
    /// A binary min-heap by (due, sequence); cancelled items stay until they reach the top or a compaction.
    private var heap: [Item] = []
    private var sequence = 0
    private var compactAbove = 64
    private var sleeper: Task<Void, Never>?
    private var sleeperDue: ContinuousClock.Instant?
    private var isFiring = false

    public init() {}

    public func now() -> Date { Date() }

    /// Work held, cancelled work included until it is dropped (for the test of the bound).
    public var heldCount: Int { heap.count }

    @discardableResult
    public func schedule(afterMs milliseconds: Int, _ work: @escaping @MainActor () -> Void) -> ScheduledWork {
        sequence += 1
        let handle = ScheduledWork(onCancel: {})
        push(Item(due: clock.now.advanced(by: .milliseconds(max(0, milliseconds))), sequence: sequence, work: work, handle: handle))
        if heap.count > compactAbove { compact() }
        if !isFiring { arm() }
        return handle
    }

    /// Runs what is due, in order; drops cancelled work from the top; sleeps until the next.
    private func fire() {
        sleeper = nil
        sleeperDue = nil
        isFiring = true
        while let top = heap.first, top.handle.isCancelled || top.due <= clock.now {
            let item = pop()
            guard !item.handle.isCancelled else { continue }
            item.handle.cancel()  // it ran; a later cancel() is a no-op
            item.work()
        }
        isFiring = false
        arm()
    }

    /// Makes sure the sleeper wakes by the top item's due time. Cancelled items are left in place:
    /// new work is almost always due after them, so the sleeper is rarely replaced.
    private func arm() {
        guard let due = heap.first?.due else { return }
        if let armed = sleeperDue, armed <= due { return }
        sleeper?.cancel()
        sleeperDue = due
        sleeper = Task { @MainActor [weak self, clock] in
            do {
                try await Task.sleep(until: due, clock: clock)
            } catch {
                return  // replaced by an earlier sleeper
            }
            self?.fire()
        }
    }

    private func compact() {
        heap = heap.filter { !$0.handle.isCancelled }.sorted { $0.precedes($1) }  // a sorted array is a heap
        compactAbove = 2 * heap.count + 64
    }

    private func push(_ item: Item) {
        heap.append(item)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> Item {
        let top = heap[0]
        let last = heap.removeLast()
        guard !heap.isEmpty else { return top }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < heap.count && heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count && heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { return top }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

/// A clock that moves only when told to. Work scheduled on it runs inside `advance`, in the order
/// of its due time (and of scheduling, for the same due time): the deterministic test scheduler.
@MainActor
public final class ManualNavigationClock: NavigationClock {
    private struct Item {
        let due: Date
        let sequence: Int
        let work: @MainActor () -> Void
        let handle: ScheduledWork
    }

    private var current: Date
    private let start: Date
    private var items: [Item] = []
    private var sequence = 0

    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
        self.start = start
    }

    public func now() -> Date { current }

    /// Milliseconds since the clock was made (for timelines: "at 300 ms").
    public var elapsedMs: Int { Int((current.timeIntervalSince(start) * 1000).rounded()) }

    @discardableResult
    public func schedule(afterMs milliseconds: Int, _ work: @escaping @MainActor () -> Void) -> ScheduledWork {
        sequence += 1
        let id = sequence
        let handle = ScheduledWork { [weak self] in self?.items.removeAll { $0.sequence == id } }
        items.append(Item(due: current.addingTimeInterval(Double(max(0, milliseconds)) / 1000), sequence: id,
                          work: work, handle: handle))
        return handle
    }

    /// How much scheduled work has not run yet.
    public var scheduledCount: Int { items.count }

    /// Milliseconds from now until the next scheduled work is due (0 when it is overdue), or nil.
    public var msUntilNextWork: Int? {
        guard let next = nextItemIndex() else { return nil }
        return max(0, Int((items[next].due.timeIntervalSince(current) * 1000).rounded(.up)))
    }

    /// Moves time forward, running every piece of work that falls due on the way, in due order,
    /// with the clock showing each one's due time while it runs. Work scheduled while advancing
    /// runs too when it falls due before the end.
    @discardableResult
    public func advance(byMs milliseconds: Int) -> Int {
        let end = current.addingTimeInterval(Double(max(0, milliseconds)) / 1000)
        var ran = 0
        while let index = nextItemIndex(), items[index].due <= end {
            let item = items.remove(at: index)
            current = max(current, item.due)
            item.handle.cancel()  // it ran; a later cancel() is a no-op
            item.work()
            ran += 1
        }
        current = max(current, end)
        return ran
    }

    /// Advances to each next piece of work until none is left (or `limit` pieces ran); returns how
    /// many ran. Nothing the navigator schedules reschedules itself forever, so this ends.
    @discardableResult
    public func runUntilIdle(limit: Int = 100_000) -> Int {
        var ran = 0
        while ran < limit, let wait = msUntilNextWork {
            ran += advance(byMs: wait)
        }
        return ran
    }

    /// The first item due. `items` is in scheduling order (appended, never reordered), so the
    /// first of several due at the same moment is the one scheduled first.
    private func nextItemIndex() -> Int? {
        var best: Int?
        for (index, item) in items.enumerated() where best.map({ item.due < items[$0].due }) ?? true {
            best = index
        }
        return best
    }
}
