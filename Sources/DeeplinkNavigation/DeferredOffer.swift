/// Shows the offer of a deferred deep link: the routing seed's answer to install attribution
/// that arrives after the person started browsing ("a snackbar, not a jump"). The app shows
/// something like "이어서 보던 이벤트로 갈까요?" and calls `navigator.acceptOffer(id)` when it is
/// tapped, `dismissOffer(id)` when it is swiped away; the navigator takes the offer back itself
/// when it expires, is replaced by a newer one, or a logout ends it.
@MainActor
public protocol DeferredOfferPresenting: AnyObject {
    /// Show the offer; `destination.envelopeID` is the offer's id (its envelope was consumed as
    /// `offered`).
    func presentOffer(_ destination: NavigationDestination)
    /// Take the offer away (it ended: taken, dismissed, expired, replaced, logged out).
    func withdrawOffer(_ destination: NavigationDestination, because end: OfferEnd)
}

/// How an offer ended. An offer ends exactly once; taking it is possible only while it is shown.
public enum OfferEnd: Sendable, Equatable, CustomStringConvertible {
    /// The person took it: the destination navigates as envelope `by`.
    case taken(by: EnvelopeID)
    /// The person swiped it away.
    case dismissed
    /// Nobody took it within its lifetime.
    case expired
    /// A newer deferred link is offered instead (one offer at a time, the latest wins).
    case replaced(by: EnvelopeID)
    /// The person logged out and the destination needs login: it belonged to that session.
    case loggedOut

    /// A stable snake_case name for records and JSON lines.
    public var name: String {
        switch self {
        case .taken: return "taken"
        case .dismissed: return "dismissed"
        case .expired: return "expired"
        case .replaced: return "replaced"
        case .loggedOut: return "logged_out"
        }
    }

    public var description: String {
        switch self {
        case .taken(let envelope): return "was already taken (it navigated as envelope \(envelope))"
        case .dismissed: return "was dismissed"
        case .expired: return "expired"
        case .replaced(let newer): return "was replaced by a newer offer (\(newer))"
        case .loggedOut: return "ended with a logout"
        }
    }
}

/// Why an offer cannot be taken or dismissed: a clear answer for a stale tap, never a crash.
public struct OfferError: Error, Sendable, Equatable, CustomStringConvertible {
    public let offer: EnvelopeID
    /// How the offer ended; nil when nothing with that id was ever offered.
    public let end: OfferEnd?

    public init(offer: EnvelopeID, end: OfferEnd?) {
        self.offer = offer
        self.end = end
    }

    public var description: String {
        guard let end else { return "no offer \(offer): nothing with that id was offered" }
        return "offer \(offer) \(end)"
    }
}
