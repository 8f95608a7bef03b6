import Foundation
import Testing
@testable import DeeplinkNavigation

/// The test scheduler every navigator test stands on: work runs inside `advance`, in due order
/// (scheduling order for the same due time), with the clock showing each one's due time.
@Suite("ManualNavigationClock: due order, the end of an advance, cancellation")
@MainActor
struct ManualClockTests {
    final class Ran { var entries: [String] = [] }

    @Test func workRunsInDueOrderWhateverTheOrderItWasScheduledIn() {
        let clock = ManualNavigationClock()
        let ran = Ran()
        for (name, ms) in [("c", 30), ("a", 10), ("d", 40), ("b", 20)] {
            clock.schedule(afterMs: ms) { ran.entries.append(name + "@\(clock.elapsedMs)") }
        }
        #expect(clock.advance(byMs: 100) == 4)
        #expect(ran.entries == ["a@10", "b@20", "c@30", "d@40"])
        #expect(clock.elapsedMs == 100)
    }

    @Test func workDueAtTheSameMomentRunsInTheOrderItWasScheduled() {
        let clock = ManualNavigationClock()
        let ran = Ran()
        clock.schedule(afterMs: 20) { ran.entries.append("later") }
        for name in ["first", "second", "third"] { clock.schedule(afterMs: 10) { ran.entries.append(name) } }
        clock.schedule(afterMs: 5) { ran.entries.append("earlier") }
        clock.advance(byMs: 20)
        #expect(ran.entries == ["earlier", "first", "second", "third", "later"])
    }

    /// Work due at the end of an advance runs in it; work due a millisecond later waits.
    @Test func anAdvanceRunsWorkDueAtItsEndAndNotAfter() {
        let clock = ManualNavigationClock()
        let ran = Ran()
        clock.schedule(afterMs: 99) { ran.entries.append("99") }
        clock.schedule(afterMs: 100) { ran.entries.append("100") }
        clock.schedule(afterMs: 101) { ran.entries.append("101") }
        #expect(clock.advance(byMs: 100) == 2)
        #expect(ran.entries == ["99", "100"])
        #expect(clock.scheduledCount == 1)
        #expect(clock.msUntilNextWork == 1)
        #expect(clock.advance(byMs: 1) == 1)
        #expect(clock.msUntilNextWork == nil)
    }

    @Test func workScheduledWhileAdvancingRunsWhenItFallsDueBeforeTheEnd() {
        let clock = ManualNavigationClock()
        let ran = Ran()
        clock.schedule(afterMs: 10) {
            ran.entries.append("outer@\(clock.elapsedMs)")
            clock.schedule(afterMs: 15) { ran.entries.append("inner@\(clock.elapsedMs)") }
            clock.schedule(afterMs: 50) { ran.entries.append("late@\(clock.elapsedMs)") }
        }
        #expect(clock.advance(byMs: 30) == 2)
        #expect(ran.entries == ["outer@10", "inner@25"])
        #expect(clock.msUntilNextWork == 30)
    }

    @Test func cancelledWorkNeverRunsAndANegativeDelayIsNone() {
        let clock = ManualNavigationClock()
        let ran = Ran()
        let cancelled = clock.schedule(afterMs: 5) { ran.entries.append("cancelled") }
        clock.schedule(afterMs: -50) { ran.entries.append("now@\(clock.elapsedMs)") }
        cancelled.cancel()
        #expect(cancelled.isCancelled && clock.scheduledCount == 1)
        #expect(clock.msUntilNextWork == 0)
        #expect(clock.advance(byMs: 0) == 1)
        #expect(ran.entries == ["now@0"])
        // Time never goes back: a negative advance moves nothing.
        clock.advance(byMs: -10)
        #expect(clock.elapsedMs == 0)
    }

    @Test func runUntilIdleStopsAtItsLimit() {
        let clock = ManualNavigationClock()
        let ran = Ran()
        for ms in [300, 100, 200] { clock.schedule(afterMs: ms) { ran.entries.append("\(ms)") } }
        #expect(clock.runUntilIdle(limit: 2) == 2)
        #expect(ran.entries == ["100", "200"])
        #expect(clock.runUntilIdle() == 1)
        #expect(ran.entries == ["100", "200", "300"] && clock.elapsedMs == 300)
    }
}
