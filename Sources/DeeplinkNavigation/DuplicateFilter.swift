#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The fingerprints of the duplicate window: an entry with the same fingerprint as one received
/// less than `window` ago is a duplicate of it.
///
/// Bounded twice: a fingerprint is forgotten once its window has passed, and at most `capacity`
/// (default 1024) are remembered at all. A page or a link source that sends more distinct entries
/// than that within one window (a flood, a burst of a fast clock) makes the filter forget the
/// oldest first. Forgetting can only let a duplicate through (it navigates again); it never turns
/// an entry away. Each check costs amortised O(1): fingerprints leave in arrival order.
struct DuplicateFilter {
    static let defaultCapacity = 1024

    let window: TimeInterval
    let capacity: Int
    private struct Remembered {
        let id: EnvelopeID
        let at: Date
        /// Which arrival this is: a fingerprint seen again after it was forgotten is a new arrival.
        let arrival: Int
    }
    private var seen: [FingerprintKey: Remembered] = [:]
    /// Fingerprints in arrival order; an arrival no longer in `seen` is skipped when it comes up.
    private var order = RingQueue<(fingerprint: FingerprintKey, arrival: Int)>()
    private var arrivals = 0

    init(windowMs: Int, capacity: Int = DuplicateFilter.defaultCapacity) {
        window = Double(max(0, windowMs)) / 1000
        self.capacity = max(1, capacity)
    }

    /// How many fingerprints are remembered now.
    var count: Int { seen.count }

    /// The earlier envelope this one duplicates, or nil after remembering it as the first.
    mutating func check(_ envelope: RouteEnvelope) -> EnvelopeID? {
        let now = envelope.receivedAt
        forgetExpired(now: now)
        let key = envelope.fingerprintKey
        let earlier = seen[key]
        if let earlier, now.timeIntervalSince(earlier.at) < window {
            return earlier.id
        }
        if earlier == nil {
            while seen.count >= capacity { forgetOldest() }
        }
        arrivals += 1
        seen[key] = Remembered(id: envelope.id, at: now, arrival: arrivals)
        order.append((key, arrivals))
        // Only a clock that keeps stepping back leaves forgotten arrivals behind a remembered one.
        if order.count > 2 * capacity { rebuildOrder() }
        return nil
    }

    /// Forgets `envelope`'s fingerprint if it is remembered for that envelope: an entry the
    /// navigator turned away (no room) must not make its own retry a duplicate.
    mutating func forget(_ envelope: RouteEnvelope) {
        if seen[envelope.fingerprintKey]?.id == envelope.id { seen[envelope.fingerprintKey] = nil }
    }

    private mutating func rebuildOrder() {
        order.replaceAll(with: seen.map { (fingerprint: $0.key, arrival: $0.value.arrival) }.sorted { $0.arrival < $1.arrival })
    }

    private mutating func forgetExpired(now: Date) {
        while let (fingerprint, arrival) = order.first {
            guard let index = seen.index(forKey: fingerprint), seen.values[index].arrival == arrival else {
                order.removeFirst()  // forgotten already, or remembered again as a later arrival
                continue
            }
            // A clock that stepped back leaves the entry in place until time catches up (or capacity).
            guard now.timeIntervalSince(seen.values[index].at) >= window else { break }
            seen.remove(at: index)
            order.removeFirst()
        }
    }

    private mutating func forgetOldest() {
        while let (fingerprint, arrival) = order.removeFirst() {
            if let index = seen.index(forKey: fingerprint), seen.values[index].arrival == arrival {
                seen.remove(at: index)
                return
            }
        }
    }

    /// Arrivals queued for forgetting, stale ones included (for the tests of the bound).
    var queuedArrivals: Int { order.count }
}
