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
    func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping @MainActor () -> Void) -> ScheduledWork
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

/// Wall-clock time; scheduled work runs in a main-actor task after `Task.sleep`.
@MainActor
public final class SystemNavigationClock: NavigationClock {
    public init() {}

    public func now() -> Date { Date() }

    @discardableResult
    public func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping @MainActor () -> Void) -> ScheduledWork {
        let task = Task { @MainActor in
            do {
                try await Task.sleep(for: .milliseconds(max(0, milliseconds)))
            } catch {
                return  // cancelled
            }
            work()
        }
        return ScheduledWork { task.cancel() }
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
    public var elapsedMilliseconds: Int { Int((current.timeIntervalSince(start) * 1000).rounded()) }

    @discardableResult
    public func schedule(afterMilliseconds milliseconds: Int, _ work: @escaping @MainActor () -> Void) -> ScheduledWork {
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
    public var millisecondsUntilNextWork: Int? {
        guard let next = nextItemIndex() else { return nil }
        return max(0, Int((items[next].due.timeIntervalSince(current) * 1000).rounded(.up)))
    }

    /// Moves time forward, running every piece of work that falls due on the way, in due order,
    /// with the clock showing each one's due time while it runs. Work scheduled while advancing
    /// runs too when it falls due before the end.
    @discardableResult
    public func advance(milliseconds: Int) -> Int {
        let end = current.addingTimeInterval(Double(max(0, milliseconds)) / 1000)
        var ran = 0
        while let index = nextItemIndex(), items[index].due <= end {
            let item = items.remove(at: index)
            if item.due > current { current = item.due }
            item.handle.cancel()  // it ran; a later cancel() is a no-op
            item.work()
            ran += 1
        }
        if end > current { current = end }
        return ran
    }

    /// Advances to each next piece of work until none is left (or `limit` pieces ran); returns how
    /// many ran. Nothing the navigator schedules reschedules itself forever, so this ends.
    @discardableResult
    public func runUntilIdle(limit: Int = 100_000) -> Int {
        var ran = 0
        while ran < limit, let wait = millisecondsUntilNextWork {
            ran += advance(milliseconds: wait)
        }
        return ran
    }

    private func nextItemIndex() -> Int? {
        var best: Int?
        for (index, item) in items.enumerated() {
            if let current = best {
                let other = items[current]
                if item.due < other.due || (item.due == other.due && item.sequence < other.sequence) { best = index }
            } else {
                best = index
            }
        }
        return best
    }
}
