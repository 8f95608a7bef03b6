#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeeplinkRouting

/// What happened to an envelope. `waitingForReady`, `pendingLogin` and `queued` park it; every
/// other case consumes it, and an envelope is consumed exactly once.
public enum EnvelopeOutcome: Sendable, Equatable, CustomStringConvertible {
    /// Held at the ready gate (cold start) until `becomeReady()`.
    case waitingForReady
    /// Held until login completes; login was presented.
    case pendingLogin
    /// Waiting behind the navigation that is running (one navigation at a time, in order).
    case queued(behind: EnvelopeID)
    /// A deferred deep link that came after the person started browsing (or after the window):
    /// consumed by being offered (a snackbar), not navigated. Taking the offer
    /// (`acceptOffer`) navigates it as a new envelope whose `acceptedOffer` names this one.
    case offered
    case navigated
    /// An external destination opened: the provider's app, or its fallback.
    case opened(ExternalOpenOutcome)
    /// A later auth-required link took the pending slot (latest wins); this one is dropped, on record.
    case replacedWhilePending(by: EnvelopeID)
    /// Same fingerprint as an envelope received within the duplicate window.
    case duplicate(of: EnvelopeID)
    /// A step failed, returned nothing, or timed out.
    case failed(NavigationFailure)
    /// The route may not be opened from the channel the request came through.
    case refused(NavigationRefusal)
    /// The person logged out while this auth-required envelope waited (for login, for ready, in
    /// the queue) or while its steps ran.
    case cancelledByLogout
    /// The app cancelled it (`DeeplinkNavigator.cancel`).
    case cancelled

    public var isTerminal: Bool {
        switch self {
        case .waitingForReady, .pendingLogin, .queued: return false
        default: return true
        }
    }

    /// Whether a caller waiting for "what became of my request" has its answer: the envelope was
    /// consumed, or it is parked for something only the person or the app can bring (login, ready).
    public var settlesRequest: Bool {
        switch self {
        case .queued: return false
        default: return true
        }
    }

    /// A stable snake_case name for records and JSON lines.
    public var name: String {
        switch self {
        case .waitingForReady: return "waiting_for_ready"
        case .pendingLogin: return "pending_login"
        case .queued: return "queued"
        case .navigated: return "navigated"
        case .opened(let outcome): return "opened_\(outcome.target)"
        case .replacedWhilePending: return "replaced_while_pending"
        case .duplicate: return "duplicate"
        case .failed: return "failed"
        case .refused: return "refused"
        case .cancelledByLogout: return "cancelled_by_logout"
        case .cancelled: return "cancelled"
        case .offered: return "offered"
        }
    }

    public var description: String {
        switch self {
        case .queued(let other): return "\(name)(behind \(other))"
        case .opened(let outcome): return "\(name)(\(outcome.provider))"
        case .replacedWhilePending(let other): return "\(name)(by \(other))"
        case .duplicate(let other): return "\(name)(of \(other))"
        case .failed(let failure): return "\(name)(\(failure.code): \(failure))"
        case .refused(let refusal): return "\(name)(\(refusal))"
        default: return name
        }
    }
}

/// What the navigator tells its observers when it records an outcome: the whole envelope.
public struct EnvelopeLogEntry: Sendable, Equatable {
    public let envelope: RouteEnvelope
    public let outcome: EnvelopeOutcome
    public let at: Date

    public var envelopeID: EnvelopeID { envelope.id }
    public var routeName: String { envelope.route.configuration.name }
}

/// One line of the audit log: which envelope, where it went, through which door, and what became
/// of it.
///
/// The log keeps this rather than the envelope. A kept envelope holds its parsed link (a dozen
/// small objects: parameters, query, campaign) until a thousand outcomes later, when the line is
/// overwritten and they are freed cold, each a cache miss, on the path of whichever message
/// overwrote it. A record holds one string of its own; the link goes when the envelope is done.
public struct EnvelopeLogRecord: Sendable, Equatable {
    public let envelopeID: EnvelopeID
    /// The route's name in routes.json.
    public let routeName: String
    /// The destination's canonical URL (no campaign fields).
    public let url: String
    public let channel: EntryChannel
    /// The offer of a deferred deep link this envelope was made from, if any.
    public let acceptedOffer: EnvelopeID?
    public let outcome: EnvelopeOutcome
    public let at: Date

    public init(_ entry: EnvelopeLogEntry) {
        envelopeID = entry.envelope.id
        routeName = entry.routeName
        url = entry.envelope.route.url
        channel = entry.envelope.channel
        acceptedOffer = entry.envelope.acceptedOffer
        outcome = entry.outcome
        at = entry.at
    }
}

/// The audit log, bounded so a long-running app does not grow without limit: the newest
/// `capacity` records are kept and `droppedCount` says how many older ones were let go.
///
/// A ring (`RingQueue`): once full, each append lets go of the oldest record alone, so no append
/// ever moves the others (a batch drop did, a pause of tens of microseconds every few hundred
/// messages).
public struct EnvelopeLog: Sendable {
    public let capacity: Int
    private var records = RingQueue<EnvelopeLogRecord>()
    public private(set) var droppedCount = 0

    public init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The records kept, oldest first.
    public var entries: [EnvelopeLogRecord] {
        (0..<records.count).map { records[$0] }
    }

    /// How many entries are kept.
    public var count: Int { records.count }

    /// The ring's slots (for the test of the bound): the capacity rounded up to a power of two, 16 at least.
    var slotCount: Int { records.slotCount }

    mutating func append(_ entry: EnvelopeLogEntry) {
        // The oldest goes first, so the ring never grows past the capacity to make room.
        if records.count == capacity {
            records.removeFirst()
            droppedCount += 1
        }
        records.append(EnvelopeLogRecord(entry))
    }

    /// The outcomes recorded for one envelope, in order.
    public func outcomes(of id: EnvelopeID) -> [EnvelopeOutcome] {
        entries.filter { $0.envelopeID == id }.map(\.outcome)
    }

    /// The last outcome recorded for one envelope, if it is still in the log.
    public func lastOutcome(of id: EnvelopeID) -> EnvelopeOutcome? {
        var offset = records.count
        while offset > 0 {
            offset -= 1
            let record = records[offset]
            if record.envelopeID == id { return record.outcome }
        }
        return nil
    }
}
