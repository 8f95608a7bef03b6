#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import DeeplinkRouting
@testable import DeeplinkNavigation

/// What the navigator remembers over a long session has a bound, and each bound is tested where it
/// bites: at the bound everything is kept; one past it the stated one goes, on record, and nothing
/// that must navigate is dropped without an outcome.
@Suite("Navigator memory over a long session: every structure has a bound")
@MainActor
struct NavigatorBoundsTests {
    // MARK: - The queue (behind the running navigation, at the ready gate, the login slot)

    @Test("cold start: capacity entries wait; one more is consumed as failed(queue_full); after ready the waiting ones navigate in order")
    func readyGateAtTheBound() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: true)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000,
                                          appState: .coldStart, logCapacity: 10_000, queueCapacity: 3)
        #expect(navigator.queueCapacity == 3)
        let links = try (1...4).map { try handler.parse("https://sendy.co.kr/event/e-\($0)") }
        let dispositions = links.map { navigator.navigate($0) }
        #expect(Array(dispositions.prefix(3)) == (1...3).map { .waitingForReady(EnvelopeID($0)) })
        #expect(dispositions[3] == .failed(EnvelopeID(4), .queueFull(capacity: 3)))
        #expect(navigator.log.outcomes(of: EnvelopeID(4)) == [.failed(.queueFull(capacity: 3))])
        #expect(NavigationFailure.queueFull(capacity: 3).code == "queue_full")
        #expect(navigator.waiting.map(\.id.rawValue) == [1, 2, 3])
        navigator.becomeReady()
        #expect(host.shown == (1...3).map(EnvelopeID.init))
        #expect(navigator.waiting.isEmpty)
        // Room again: the refused link, sent again within the duplicate window, is no duplicate of
        // the entry that was turned away; it navigates.
        #expect(navigator.navigate(links[3]) == .navigated(EnvelopeID(5)))
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-6")) == .navigated(EnvelopeID(6)))
        #expect(host.violations.isEmpty)
    }

    @Test("behind a running navigation: capacity wait, the next is refused on record, every envelope is consumed once")
    func queueBehindARunningStep() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: true)
        host.holdsAsyncSteps = true
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000,
                                          logCapacity: 10_000, queueCapacity: 2)
        let first = navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles?page=1"))
        #expect(first == .inProgress(EnvelopeID(1)))
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles?page=2")) == .inProgress(EnvelopeID(2)))
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles?page=3")) == .inProgress(EnvelopeID(3)))
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles?page=4")) == .failed(EnvelopeID(4), .queueFull(capacity: 2)))
        while host.completeNext() != nil {}
        #expect(host.shown == (1...3).map(EnvelopeID.init))
        for id in 1...4 {
            #expect(navigator.log.outcomes(of: EnvelopeID(id)).filter(\.isTerminal).count == 1, "envelope \(id)")
        }
    }

    @Test("the login slot counts: latest wins there without room; an empty slot needs room; login moves it into the queue")
    func loginSlotCounts() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: false)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000,
                                          appState: .coldStart, logCapacity: 10_000, queueCapacity: 3)
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-1/apply")) == .pendingLogin(EnvelopeID(1)))
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-2")) == .waitingForReady(EnvelopeID(2)))
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-3")) == .waitingForReady(EnvelopeID(3)))
        // Full (two waiting + the login slot): a public entry is refused...
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-4")) == .failed(EnvelopeID(4), .queueFull(capacity: 3)))
        // ...but a newer auth-required one takes the login slot (latest wins: the count stays).
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-5/apply")) == .pendingLogin(EnvelopeID(5)))
        #expect(navigator.log.outcomes(of: EnvelopeID(1)) == [.pendingLogin, .replacedWhilePending(by: EnvelopeID(5))])
        host.isLoggedIn = true
        navigator.didCompleteLogin()
        #expect(navigator.waiting.map(\.id.rawValue) == [2, 3, 5])
        navigator.becomeReady()
        #expect(host.shown == [EnvelopeID(2), EnvelopeID(3), EnvelopeID(5)])
        #expect(host.violations.isEmpty)
    }

    @Test("with an empty login slot and a full queue, an auth-required entry is refused rather than held past the bound")
    func emptyLoginSlotNeedsRoom() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: false)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 2_000,
                                          appState: .coldStart, logCapacity: 10_000, queueCapacity: 2)
        navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-1"))
        navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-2"))
        #expect(navigator.navigate(try handler.parse("https://sendy.co.kr/event/e-3/apply")) == .failed(EnvelopeID(3), .queueFull(capacity: 2)))
        #expect(navigator.pending == nil)
        #expect(host.loginPresentations == 0)
    }

    // MARK: - The duplicate window

    func envelope(_ id: Int, _ fingerprint: String, at milliseconds: Int) throws -> RouteEnvelope {
        let link = try repositoryHandler().parse("https://sendy.co.kr/vehicles")
        return RouteEnvelope(id: EnvelopeID(id), route: link, receivedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                             fingerprint: fingerprint)
    }

    @Test("duplicate filter: at capacity every fingerprint is kept; one more and the oldest is forgotten (it navigates again)")
    func duplicateFilterAtCapacity() throws {
        var filter = DuplicateFilter(windowMs: 2_000, capacity: 3)
        for id in 1...3 { #expect(filter.check(try envelope(id, "f\(id)", at: 0)) == nil) }
        #expect(filter.count == 3)
        // At the bound all three are remembered: each again is a duplicate of its first.
        #expect(filter.check(try envelope(10, "f1", at: 1)) == EnvelopeID(1))
        #expect(filter.check(try envelope(11, "f3", at: 1)) == EnvelopeID(3))
        // One past: f4 is remembered, the oldest (f1) forgotten, the others kept.
        #expect(filter.check(try envelope(4, "f4", at: 2)) == nil)
        #expect(filter.count == 3)
        #expect(filter.check(try envelope(12, "f2", at: 3)) == EnvelopeID(2))
        #expect(filter.check(try envelope(13, "f1", at: 3)) == nil)  // forgotten: not a duplicate any more
        #expect(filter.count == 3)
        // f1 came back as a new arrival and pushed out the oldest remaining (f2).
        #expect(filter.check(try envelope(14, "f2", at: 4)) == nil)
    }

    @Test("duplicate filter: a fingerprint is forgotten when its window has passed, and a long session stays at its bound")
    func duplicateFilterForgetsWithTime() throws {
        var filter = DuplicateFilter(windowMs: 2_000, capacity: 100)
        #expect(filter.check(try envelope(1, "same", at: 0)) == nil)
        #expect(filter.check(try envelope(2, "same", at: 1_999)) == EnvelopeID(1))
        #expect(filter.check(try envelope(3, "same", at: 2_000)) == nil)
        // 10,000 distinct entries, 10 ms apart: about 200 within a window, never more than 100 kept.
        var most = 0
        for index in 0..<10_000 {
            #expect(filter.check(try envelope(10 + index, "e\(index)", at: 3_000 + index * 10)) == nil)
            most = max(most, filter.count)
        }
        #expect(most == 100)
        #expect(filter.queuedArrivals == 100, "arrivals leave the queue as their fingerprints are forgotten")
        // 50,000 ms later everything has expired; one new entry leaves one remembered.
        #expect(filter.check(try envelope(20_000, "late", at: 200_000)) == nil)
        #expect(filter.count == 1)
        #expect(filter.queuedArrivals == 1)
    }

    @Test("duplicate filter: 1 ms inside the window is a duplicate; on its edge and 1 ms past it, a new entry",
          arguments: [(1_999, true), (2_000, false), (2_001, false)])
    func duplicateFilterWindowEdge(laterMs: Int, duplicate: Bool) throws {
        var filter = DuplicateFilter(windowMs: 2_000, capacity: 100)
        #expect(filter.check(try envelope(1, "same", at: 0)) == nil)
        #expect(filter.check(try envelope(2, "same", at: laterMs)) == (duplicate ? EnvelopeID(1) : nil))
    }

    @Test("duplicate filter: exactly one window later is a new entry, even for a fingerprint the clock stepped back to")
    func duplicateFilterWindowEdgeBehindALaterEntry() throws {
        var filter = DuplicateFilter(windowMs: 2_000, capacity: 100)
        #expect(filter.check(try envelope(1, "later", at: 10_000)) == nil)
        // The clock steps back: "earlier" is remembered behind an entry stamped after it,
        // so the arrival-order sweep does not reach it when its window has passed.
        #expect(filter.check(try envelope(2, "earlier", at: 5_000)) == nil)
        #expect(filter.check(try envelope(3, "earlier", at: 6_999)) == EnvelopeID(2))
        #expect(filter.check(try envelope(4, "earlier", at: 7_000)) == nil)
    }

    @Test("duplicate filter: a clock that steps back does not lose entries or grow past the bound")
    func duplicateFilterClockSteppingBack() throws {
        var filter = DuplicateFilter(windowMs: 2_000, capacity: 8)
        var most = 0
        var mostQueued = 0
        for index in 0..<1_000 {
            // Alternately forward and back by more than the window.
            let at = index % 2 == 0 ? 10_000 + index : 5_000 + index
            _ = filter.check(try envelope(index + 1, "x\(index % 20)", at: at))
            most = max(most, filter.count)
            mostQueued = max(mostQueued, filter.queuedArrivals)
        }
        #expect(most == 8)
        #expect(mostQueued <= 2 * 8 + 1, "stale arrivals are rebuilt away past twice the capacity")
    }

    // MARK: - The audit log and observers

    @Test("envelope log: kept up to capacity; each append past it lets the oldest go, one at a time, in order")
    func envelopeLogAtTheBound() throws {
        let link = try repositoryHandler().parse("https://sendy.co.kr/vehicles")
        var log = EnvelopeLog(capacity: 8)
        func entry(_ id: Int) -> EnvelopeLogEntry {
            EnvelopeLogEntry(envelope: RouteEnvelope(id: EnvelopeID(id), route: link, receivedAt: Date(timeIntervalSince1970: 0)),
                             outcome: .navigated, at: Date(timeIntervalSince1970: 0))
        }
        for id in 1...8 { log.append(entry(id)) }
        #expect(log.entries.map(\.envelopeID.rawValue) == Array(1...8))
        #expect(log.droppedCount == 0)
        log.append(entry(9))
        #expect(log.entries.map(\.envelopeID.rawValue) == Array(2...9))
        #expect(log.count == 8)
        #expect(log.droppedCount == 1)
        for id in 10...20 { log.append(entry(id)) }
        #expect(log.entries.map(\.envelopeID.rawValue) == Array(13...20))
        #expect(log.droppedCount == 12)
        #expect(log.lastOutcome(of: EnvelopeID(13)) == .navigated)
        #expect(log.lastOutcome(of: EnvelopeID(12)) == nil, "let go")
        #expect(log.slotCount == 16, "the ring's first size: it never grew to make room")
        var long = EnvelopeLog(capacity: 1_000)
        for id in 1...5_000 { long.append(entry(id)) }
        #expect(long.count == 1_000 && long.droppedCount == 4_000)
        #expect(long.slotCount == 1_024, "the first power of two at or above the capacity")
    }

    @Test("envelope log: the last outcome is the newest line of the envelope, after the ring wrapped")
    func envelopeLogLastOutcomeAfterWrap() throws {
        let link = try repositoryHandler().parse("https://sendy.co.kr/vehicles")
        var log = EnvelopeLog(capacity: 5)
        func append(_ id: Int, _ outcome: EnvelopeOutcome) {
            log.append(EnvelopeLogEntry(envelope: RouteEnvelope(id: EnvelopeID(id), route: link, receivedAt: Date(timeIntervalSince1970: 0)),
                                        outcome: outcome, at: Date(timeIntervalSince1970: 0)))
        }
        for id in 1...7 { append(id, .queued(behind: EnvelopeID(0))) }
        append(3, .navigated)
        append(6, .cancelled)
        #expect(log.entries.map(\.envelopeID.rawValue) == [5, 6, 7, 3, 6])
        #expect(log.lastOutcome(of: EnvelopeID(6)) == .cancelled)
        #expect(log.lastOutcome(of: EnvelopeID(3)) == .navigated)
        #expect(log.lastOutcome(of: EnvelopeID(7)) == .queued(behind: EnvelopeID(0)))
        #expect(log.outcomes(of: EnvelopeID(6)) == [.queued(behind: EnvelopeID(0)), .cancelled])
        #expect(log.droppedCount == 4)
    }

    @Test("observers with an owner go when the owner goes; plain observers stay")
    func observersFollowTheirOwner() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: true)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 0)
        final class Counter { var plain = 0, owned = 0 }
        final class Owner {}
        let calls = Counter()
        navigator.addObserver { _ in calls.plain += 1 }
        var owners: [Owner] = (0..<100).map { _ in Owner() }
        for owner in owners { navigator.addObserver(owner: owner) { _ in calls.owned += 1 } }
        #expect(navigator.observerCount == 101)
        navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles"))
        #expect(calls.owned == 100 && calls.plain == 1)
        owners.removeLast(99)
        navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles"))
        #expect(navigator.observerCount == 2)
        #expect(calls.owned == 101 && calls.plain == 2)
        owners.removeAll()
        navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles"))
        #expect(navigator.observerCount == 1)
        #expect(calls.plain == 3)
    }

    @Test("an observer that adds an observer while it is called: the new one hears from the next record on")
    func observerAddedWhileRecording() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: true)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 0)
        final class Calls { var first: [EnvelopeID] = [], added: [EnvelopeID] = [] }
        let calls = Calls()
        navigator.addObserver { [unowned navigator] entry in
            calls.first.append(entry.envelopeID)
            if calls.first.count == 1 { navigator.addObserver { calls.added.append($0.envelopeID) } }
        }
        navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles"))
        navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles"))
        #expect(calls.first == [EnvelopeID(1), EnvelopeID(2)])
        #expect(calls.added == [EnvelopeID(2)])
        #expect(navigator.observerCount == 2)
    }

    @Test("an observer handed its owner is called with that very owner, and goes when the owner goes")
    func observersHandedTheirOwner() throws {
        let handler = try repositoryHandler()
        let host = ScriptedHost(loggedIn: true)
        let navigator = DeeplinkNavigator(host: host, auth: host, clock: ManualNavigationClock(), duplicateWindowMs: 0)
        final class Owner { var entries: [EnvelopeID] = [] }
        var first: Owner? = Owner()
        let second = Owner()
        weak let firstGone = first
        navigator.addObserver(owner: first!) { owner, entry in owner.entries.append(entry.envelopeID) }
        navigator.addObserver(owner: second) { owner, entry in owner.entries.append(entry.envelopeID) }
        navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles"))
        #expect(first?.entries == [EnvelopeID(1)] && second.entries == [EnvelopeID(1)])
        first = nil
        #expect(firstGone == nil, "the navigator does not keep the owner alive")
        navigator.navigate(try handler.parse("https://sendy.co.kr/vehicles"))
        #expect(navigator.observerCount == 1)
        #expect(second.entries == [EnvelopeID(1), EnvelopeID(2)])
    }
}

/// Deferred links seen and ended offers are recalled up to a bound; one more forgets the oldest.
@Suite("Recent memory: deferred links seen and ended offers stay bounded")
struct RecentMemoryTests {
    @Test("at capacity every key is kept; one more forgets the oldest, and the storage stays bounded")
    func forgetsTheOldestPastCapacity() {
        var memory = RecentMemory<Int, String>(capacity: 3)
        for key in 1...3 { memory.remember("v\(key)", for: key) }
        #expect(memory.count == 3)
        #expect((1...3).allSatisfy { memory[$0] == "v\($0)" })
        memory.remember("v4", for: 4)
        #expect(memory.count == 3)
        #expect(memory[1] == nil)
        #expect(memory[4] == "v4")
        // Updating a kept key does not make it newer, and adds nothing.
        memory.remember("again", for: 2)
        memory.remember("v5", for: 5)
        #expect(memory[2] == nil && memory[3] == "v3" && memory[5] == "v5")
        for key in 6...10_000 { memory.remember("v\(key)", for: key) }
        #expect(memory.count == 3)
        #expect(memory[9_998] != nil && memory[9_997] == nil)
        #expect(memory.orderSlots == 16, "the order of keys stays at the ring's first size")
    }
}

/// The queue behind the duplicate window and the recent memories: what leaves it leaves one at a
/// time, so no single message pays for forgetting a thousand others.
@Suite("Ring queue: first in, first out, letting go of one element per removal")
struct RingQueueTests {
    final class Tracked {
        let value: Int
        let released: Released
        init(_ value: Int, _ released: Released) { self.value = value; self.released = released }
        deinit { released.values.append(value) }
    }
    final class Released { var values: [Int] = [] }

    @Test("elements come out in the order they went in, across the wrap and the growth of the ring")
    func firstInFirstOut() {
        var queue = RingQueue<Int>()
        #expect(queue.isEmpty && queue.first == nil && queue.removeFirst() == nil)
        var expected: [Int] = []
        var next = 0
        var taken: [Int] = []
        // Push three, take two, so the front moves round the ring while it grows.
        for _ in 0..<200 {
            for _ in 0..<3 { queue.append(next); expected.append(next); next += 1 }
            for _ in 0..<2 { taken.append(queue.removeFirst()!) }
            #expect(queue.count == expected.count - taken.count)
            #expect(queue.first == expected[taken.count])
        }
        while let value = queue.removeFirst() { taken.append(value) }
        #expect(taken == expected)
        #expect(queue.isEmpty && queue.count == 0)
    }

    @Test("each removal lets go of exactly the element it took, at once; the ring keeps nothing behind")
    func removalReleasesOneElement() {
        let released = Released()
        var queue = RingQueue<Tracked>()
        for value in 0..<1_000 { queue.append(Tracked(value, released)) }
        #expect(released.values.isEmpty)
        for value in 0..<1_000 {
            // Discarding the result: the element is gone as soon as the call returns.
            queue.removeFirst()
            #expect(released.values == Array(0...value))
            if released.values.count != value + 1 { break }
        }
        #expect(queue.slotCount == 1_024)
    }

    @Test("a queue held at a bound stops growing: its slots stay at the first power of two above it")
    func boundedQueueKeepsItsSlots() {
        var queue = RingQueue<String>()
        for index in 0..<100_000 {
            queue.append("e\(index)")
            if queue.count > 1_000 { queue.removeFirst() }
        }
        #expect(queue.count == 1_000)
        #expect(queue.slotCount == 1_024)
        #expect(queue.first == "e99000")
    }

    @Test("an element is read by its place behind the front, across the wrap")
    func indexedRead() {
        var queue = RingQueue<Int>()
        for value in 0..<16 { queue.append(value) }
        for _ in 0..<10 { queue.removeFirst() }
        for value in 16..<24 { queue.append(value) }
        #expect(queue.slotCount == 16, "wrapped, not grown")
        #expect((0..<queue.count).map { queue[$0] } == Array(10..<24))
    }

    @Test("replaceAll keeps the order given and the slots already made")
    func replaceAll() {
        var queue = RingQueue<Int>()
        for value in 0..<40 { queue.append(value) }
        for _ in 0..<30 { queue.removeFirst() }
        queue.replaceAll(with: [7, 8, 9])
        #expect(queue.count == 3 && queue.slotCount == 64)
        var values: [Int] = []
        while let value = queue.removeFirst() { values.append(value) }
        #expect(values == [7, 8, 9])
    }
}
