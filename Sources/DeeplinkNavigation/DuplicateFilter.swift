#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Remembers fingerprints for the duplicate window only, so memory stays bounded by the number of
/// distinct entries within one window.
struct DuplicateFilter {
    let window: TimeInterval
    private var seen: [String: (id: EnvelopeID, at: Date)] = [:]

    init(windowMilliseconds: Int) {
        window = Double(max(0, windowMilliseconds)) / 1000
    }

    /// The earlier envelope this one duplicates, or nil after remembering it as the first.
    mutating func check(_ envelope: RouteEnvelope) -> EnvelopeID? {
        prune(now: envelope.receivedAt)
        if let earlier = seen[envelope.fingerprint], envelope.receivedAt.timeIntervalSince(earlier.at) < window {
            return earlier.id
        }
        seen[envelope.fingerprint] = (envelope.id, envelope.receivedAt)
        return nil
    }

    private mutating func prune(now: Date) {
        // Cheap amortised pruning: only when the table has grown.
        guard seen.count > 64 else { return }
        seen = seen.filter { now.timeIntervalSince($0.value.at) < window }
    }
}
