import JSONCore

/// A count of sessions that met a rule out of the sessions the rule applies to.
public struct Ratio: Sendable, Equatable {
    public var numerator = 0
    public var denominator = 0

    public init(_ numerator: Int = 0, of denominator: Int = 0) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// nil when no session applies.
    public var rate: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }

    /// "83.3%", or "-" when no session applies.
    public var percent: String {
        guard let rate else { return "-" }
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    mutating func count(_ met: Bool) {
        denominator += 1
        if met { numerator += 1 }
    }
}

/// The four metrics of the routing seed for one group of sessions (the type is not named after the
/// module, so `FunnelMetrics.X` always means the module). The counting rules are in
/// docs/operations.md ("Funnel metrics"); each property says its numerator / denominator.
public struct MetricCounts: Sendable, Equatable {
    public var sessions = 0
    /// Sessions whose target screen was shown / sessions with a known target.
    public var targetReach = Ratio()
    /// Sessions with no known target (no target_screen, a link no route matches): not in targetReach.
    public var targetUnknown = 0
    /// Sessions that showed the home screen within the window after the entry / all sessions.
    public var wrongLanding = Ratio()
    /// Cold-start push sessions that signed in and then showed an intended screen / cold-start push
    /// sessions that needed a sign-in.
    public var coldStartConsumption = Ratio()
    /// Of those cold-start sessions, how many signed in (the funnel's middle step).
    public var coldStartSignedIn = 0
    /// Sessions whose every funnel step carries the session's campaign_id / all sessions.
    public var metadataConsistency = Ratio()
    /// Funnel-step events without a campaign_id, by event name.
    public var missingCampaignByStep: [String: Int] = [:]
    /// Funnel-step events whose campaign_id differs from the session's, by event name.
    public var otherCampaignByStep: [String: Int] = [:]

    public init() {}
}

/// What one session counted as, metric by metric (nil: the metric does not apply to it).
public struct SessionOutcome: Sendable, Equatable {
    public var reachedTarget: Bool?
    public var landedOnHome: Bool
    public var coldStartConsumed: Bool?
    public var coldStartSignedIn: Bool
    public var campaignAtEveryStep: Bool
    public var missingCampaignAt: [String]
    public var otherCampaignAt: [String]
}

/// The split a result row belongs to.
public struct FunnelGroup: Sendable, Hashable, Comparable {
    public let campaignID: String?
    public let source: String?
    public let variant: String?

    public init(campaignID: String?, source: String?, variant: String?) {
        self.campaignID = campaignID
        self.source = source
        self.variant = variant
    }

    public static func < (lhs: FunnelGroup, rhs: FunnelGroup) -> Bool {
        func key(_ group: FunnelGroup) -> [String] {
            [group.campaignID ?? "\u{10FFFF}", group.source ?? "\u{10FFFF}", group.variant ?? "\u{10FFFF}"]
        }
        return key(lhs).lexicographicallyPrecedes(key(rhs))
    }

    /// `campaign_id=X source=push variant=A`, "(none)" for a missing value.
    public var label: String {
        "campaign_id=\(campaignID ?? "(none)") source=\(source ?? "(none)") variant=\(variant ?? "(none)")"
    }
}

/// The funnel over a whole log: every session counted, in total and per campaign_id / source / variant.
public struct FunnelReport: Sendable, Equatable {
    /// A home_screen this many milliseconds or less after the entry is a wrong landing (the seed's 10 s).
    public static let wrongLandingWindowMs = 10_000

    public let eventCount: Int
    public let summary: FunnelLogSummary
    /// Events before a person's first deep link: in no session.
    public let eventsOutsideSessions: Int
    /// Sessions with an event without a time: there the 10 s window is read as "the first screen".
    public let sessionsWithoutTimes: Int
    public let all: MetricCounts
    public let groups: [(group: FunnelGroup, metrics: MetricCounts)]

    public static func == (lhs: FunnelReport, rhs: FunnelReport) -> Bool {
        lhs.eventCount == rhs.eventCount && lhs.summary == rhs.summary && lhs.eventsOutsideSessions == rhs.eventsOutsideSessions
            && lhs.sessionsWithoutTimes == rhs.sessionsWithoutTimes && lhs.all == rhs.all
            && lhs.groups.map(\.group) == rhs.groups.map(\.group) && lhs.groups.map(\.metrics) == rhs.groups.map(\.metrics)
    }

    public init(events: [FunnelEvent], summary: FunnelLogSummary = FunnelLogSummary(), resolver: ScreenResolver,
                vocabulary: FunnelVocabulary = .neutral) {
        let (sessions, outside) = FunnelSession.sessions(of: events, vocabulary: vocabulary)
        var all = MetricCounts()
        var byGroup: [FunnelGroup: MetricCounts] = [:]
        var untimed = 0
        for session in sessions {
            let outcome = Self.outcome(of: session, resolver)
            if session.events.contains(where: { $0.time == nil }) { untimed += 1 }
            let group = FunnelGroup(
                campaignID: session.campaignValue("campaign_id"),
                source: session.campaignValue("source") ?? (session.entry == .push ? "push" : nil),
                variant: session.campaignValue("variant"))
            all.add(outcome)
            byGroup[group, default: MetricCounts()].add(outcome)
        }
        eventCount = events.count
        self.summary = summary
        eventsOutsideSessions = outside
        sessionsWithoutTimes = untimed
        self.all = all
        groups = byGroup.keys.sorted().map { ($0, byGroup[$0]!) }
    }

    /// The rules of docs/operations.md, for one session.
    public static func outcome(of session: FunnelSession, _ resolver: ScreenResolver) -> SessionOutcome {
        let events = session.events
        // Every screen the visit showed, with its position (the entry itself may be a page).
        let shown: [(index: Int, screen: String)] = events.indices.compactMap { index in
            session.screen(of: events[index], resolver).map { (index, $0) }
        }

        let target = session.target(resolver)
        let reached: Bool? = target.map { target in shown.contains { $0.screen == target } }

        let entryTime = session.entryEvent.time
        let landedOnHome: Bool
        if let first = shown.first(where: { session.isHome($0.screen) }) {
            if let entryTime, let homeTime = events[first.index].time {
                landedOnHome = homeTime - entryTime <= Double(wrongLandingWindowMs) / 1000  // log times are seconds
            } else {
                // Without times the window cannot be measured: a home screen counts when it is the
                // first screen the visit showed.
                landedOnHome = shown.first?.index == first.index
            }
        } else {
            landedOnHome = false
        }

        let intended = session.intendedScreens(resolver)
        var consumed: Bool?
        var signedIn = false
        if session.entry == .push && session.isColdStart {
            let signIn = events.firstIndex { $0.name == session.vocabulary.signIn || $0.name == FunnelEvent.hostSignIn }
            let neededSignIn = signIn != nil
                || events.contains { $0.name == FunnelEvent.loginPresented }
                || intended.contains { resolver.requiresLogin(screen: $0) }
            if neededSignIn {
                signedIn = signIn != nil
                consumed = signIn.map { signIn in shown.contains { $0.index > signIn && intended.contains($0.screen) } } ?? false
            }
        }

        let campaign = session.campaignValue("campaign_id")
        var missing: [String] = []
        var other: [String] = []
        for event in events where isFunnelStep(event, intended: intended, session.vocabulary) {
            guard let value = event.string("campaign_id") else {
                missing.append(event.name)
                continue
            }
            if value != campaign { other.append(event.name) }
        }
        return SessionOutcome(
            reachedTarget: reached, landedOnHome: landedOnHome, coldStartConsumed: consumed, coldStartSignedIn: signedIn,
            campaignAtEveryStep: campaign != nil && missing.isEmpty && other.isEmpty,
            missingCampaignAt: missing, otherCampaignAt: other)
    }

    /// The funnel's steps: the push tap, the page opened (not an in-app page), the CTA click, and
    /// the screen view of a screen the visit meant to reach. Other screen views (the person browsing on)
    /// are not campaign steps.
    static func isFunnelStep(_ event: FunnelEvent, intended: Set<String>, _ vocabulary: FunnelVocabulary) -> Bool {
        switch event.name {
        case vocabulary.pushClicked, vocabulary.ctaClicked: return true
        // An in-app page the person opened later is not the campaign's (it has no campaign to carry).
        case vocabulary.pageOpened: return event.string("source") != "appInternal"
        case vocabulary.screenView: return event.string("screen").map(intended.contains) ?? false
        default: return false
        }
    }
}

extension MetricCounts {
    mutating func add(_ outcome: SessionOutcome) {
        sessions += 1
        if let reached = outcome.reachedTarget { targetReach.count(reached) } else { targetUnknown += 1 }
        wrongLanding.count(outcome.landedOnHome)
        if let consumed = outcome.coldStartConsumed {
            coldStartConsumption.count(consumed)
            if outcome.coldStartSignedIn { coldStartSignedIn += 1 }
        }
        metadataConsistency.count(outcome.campaignAtEveryStep)
        for name in outcome.missingCampaignAt { missingCampaignByStep[name, default: 0] += 1 }
        for name in outcome.otherCampaignAt { otherCampaignByStep[name, default: 0] += 1 }
    }
}
