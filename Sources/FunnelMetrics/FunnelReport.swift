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
        return Self.tenths(rate) + "%"
    }

    /// "66.7" for 2/3: one decimal, rounded half up.
    static func tenths(_ rate: Double) -> String {
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The 95% Wilson interval; nil when no session applies.
    public var interval: ConfidenceInterval? { ConfidenceInterval(wilson: self) }

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

/// What one visit counted as, metric by metric (nil: the metric does not apply to it), and the
/// values it is grouped by.
public struct VisitOutcome: Sendable, Equatable {
    public var campaignID: String?
    public var source: String?
    public var variant: String?
    /// The UTC day of the entry, "2025-12-01"; nil without a time.
    public var day: String?
    /// An attribute of the visit, never a source.
    public var coldStart: Bool
    public var reachedTarget: Bool?
    public var landedOnHome: Bool
    public var coldStartConsumed: Bool?
    public var coldStartSignedIn: Bool
    public var campaignAtEveryStep: Bool
    public var missingCampaignAt: [String]
    public var otherCampaignAt: [String]

    func value(_ dimension: FunnelDimension) -> String? {
        switch dimension {
        case .campaign: return campaignID
        case .source: return source
        case .variant: return variant
        case .day: return day
        }
    }
}

/// What a report can be broken down by (`--by`).
public enum FunnelDimension: String, Sendable, CaseIterable {
    case campaign, source, variant, day

    /// The breakdown without `--by`.
    public static let standard: [FunnelDimension] = [.campaign, .source, .variant]

    /// The field's name in the log and in every output ("campaign_id").
    public var field: String { self == .campaign ? "campaign_id" : rawValue }
}

/// The split a result row belongs to: one value (nil: the visit had none) per dimension, in the
/// order the dimensions were asked for.
public struct FunnelGroup: Sendable, Hashable, Comparable {
    public let dimensions: [FunnelDimension]
    public let values: [String?]

    public init(dimensions: [FunnelDimension], values: [String?]) {
        self.dimensions = dimensions
        self.values = values
    }

    /// A group of the standard breakdown.
    public init(campaignID: String?, source: String?, variant: String?) {
        self.init(dimensions: FunnelDimension.standard, values: [campaignID, source, variant])
    }

    public func value(_ dimension: FunnelDimension) -> String? {
        dimensions.firstIndex(of: dimension).flatMap { values[$0] }
    }

    public static func < (lhs: FunnelGroup, rhs: FunnelGroup) -> Bool {
        // A missing value sorts last.
        lhs.values.map { $0 ?? "\u{10FFFF}" }.lexicographicallyPrecedes(rhs.values.map { $0 ?? "\u{10FFFF}" })
    }

    /// `campaign_id=X source=push variant=A`, "(none)" for a missing value.
    public var label: String {
        zip(dimensions, values).map { "\($0.field)=\($1 ?? "(none)")" }.joined(separator: " ")
    }
}

/// Counts visits as they close: in total, per group and per day.
struct FunnelTally {
    let dimensions: [FunnelDimension]
    var all = MetricCounts()
    var byGroup: [[String?]: MetricCounts] = [:]
    var byDay: [String: MetricCounts] = [:]
    var untimed = 0

    init(dimensions: [FunnelDimension]) { self.dimensions = dimensions }

    mutating func add(_ outcome: VisitOutcome, untimed isUntimed: Bool) {
        all.add(outcome)
        byGroup[dimensions.map(outcome.value), default: MetricCounts()].add(outcome)
        if let day = outcome.day { byDay[day, default: MetricCounts()].add(outcome) }
        if isUntimed { untimed += 1 }
    }
}

/// A bad line skipped with `--skip-bad-lines`.
public struct SkippedLines: Sendable, Equatable {
    /// How many of the first ones are named.
    public static let named = 5
    public var count = 0
    public var first: [FunnelLogError] = []

    public init() {}

    mutating func add(_ error: FunnelLogError) {
        count += 1
        if first.count < Self.named { first.append(error) }
    }
}

/// Reads a log as it arrives, chunk by chunk (a chunk may end anywhere in a line), and counts
/// each visit as it closes: what it holds is the line being read and the open visits (see
/// `VisitTracker`), never the whole log.
public struct FunnelLogStream {
    /// Visits open at once before the least recently active are closed (about 50 MB of them).
    public static let maxOpenVisits = 100_000
    private var reader: FunnelLineReader
    private var tracker: VisitTracker
    private var partial: [UInt8] = []
    private var pending: [TrackedEvent] = []
    private var lineNumber = 0
    /// Lines read so far (for a progress line).
    public var linesRead: Int { lineNumber }
    private let skipBadLines: Bool
    public private(set) var skipped = SkippedLines()
    public private(set) var bytesRead = 0

    public init(format: FunnelInputFormat = .auto, resolver: ScreenResolver, vocabulary: FunnelVocabulary = .neutral,
                dimensions: [FunnelDimension] = FunnelDimension.standard, skipBadLines: Bool = false,
                maxOpenVisits: Int = FunnelLogStream.maxOpenVisits) {
        self.init(format: format, resolver: resolver, vocabulary: vocabulary, dimensions: dimensions, skipBadLines: skipBadLines,
                  maxOpenVisits: maxOpenVisits, symbolLimit: VisitTracker.symbolLimit)
    }

    /// With a limit of symbols of its own, so tests see the symbol table made anew.
    init(format: FunnelInputFormat = .auto, resolver: ScreenResolver, vocabulary: FunnelVocabulary = .neutral,
         dimensions: [FunnelDimension] = FunnelDimension.standard, skipBadLines: Bool = false,
         maxOpenVisits: Int = FunnelLogStream.maxOpenVisits, symbolLimit: Int) {
        reader = FunnelLineReader(format: format)
        tracker = VisitTracker(vocabulary: vocabulary, resolver: resolver, dimensions: dimensions, maxOpenVisits: maxOpenVisits,
                               symbolLimit: symbolLimit)
        self.skipBadLines = skipBadLines
    }

    /// Reads the complete lines of `chunk`; the end of an unfinished line waits for the next chunk.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(FunnelLogError) {
        bytesRead += chunk.count
        var start = 0
        let bytes = chunk.bindMemory(to: UInt8.self)
        while start < bytes.count {
            guard let newline = Self.newline(in: bytes, from: start) else {
                if partial.count + bytes.count - start > FunnelLog.maxLineBytes + 2 {
                    throw FunnelLogError(line: lineNumber + 1, message: "longer than \(FunnelLog.maxLineBytes) bytes")
                }
                partial.append(contentsOf: bytes[start...])
                return
            }
            if partial.isEmpty {
                try line(UnsafeBufferPointer(rebasing: bytes[start..<newline]))
            } else {
                partial.append(contentsOf: bytes[start..<newline])
                let whole = partial
                partial.removeAll(keepingCapacity: true)
                try line(whole)
            }
            start = newline + 1
        }
    }

    /// The next "\n" at or after `start`. Eight bytes at a time: a byte-by-byte search was a
    /// twentieth of the funnel's time.
    static func newline(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var at = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while at + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: at, as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
                // Nonzero exactly when some byte of `word` is zero, that is, some byte was "\n".
                if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
                at += 8
            }
        }
        while at < bytes.count {
            if bytes[at] == 0x0A { return at }
            at += 1
        }
        return nil
    }

    public mutating func feed(_ bytes: [UInt8]) throws(FunnelLogError) {
        let result = bytes.withUnsafeBytes { buffer -> Result<Void, FunnelLogError> in
            do throws(FunnelLogError) { try feed(buffer) } catch { return .failure(error) }
            return .success(())
        }
        try result.get()
    }

    private mutating func line(_ bytes: [UInt8]) throws(FunnelLogError) {
        let result = bytes.withUnsafeBufferPointer { bytes -> Result<Void, FunnelLogError> in
            do throws(FunnelLogError) { try line(bytes) } catch { return .failure(error) }
            return .success(())
        }
        try result.get()
    }

    private mutating func line(_ bytes: UnsafeBufferPointer<UInt8>) throws(FunnelLogError) {
        lineNumber += 1
        do {
            try reader.read(line: bytes, number: lineNumber, symbols: &tracker.symbols, into: &pending)
        } catch {
            pending.removeAll(keepingCapacity: true)
            guard skipBadLines else { throw error }
            skipped.add(error)
            return
        }
        for event in pending { tracker.add(event) }
        pending.removeAll(keepingCapacity: true)
        tracker.shareSymbolsAnew()
    }

    /// The last line (one without a newline at its end), then every visit still open.
    public consuming func finish() throws(FunnelLogError) -> FunnelReport {
        if !partial.isEmpty {
            let last = partial
            partial = []
            try line(last)
        }
        tracker.finish()
        return FunnelReport(tracker: tracker, summary: reader.summary, skipped: skipped)
    }
}

/// The funnel over a whole log: every visit counted, in total, per group and per day.
public struct FunnelReport: Sendable, Equatable {
    /// A home_screen this many milliseconds or less after the entry is a wrong landing (the seed's 10 s).
    public static let wrongLandingWindowMs = 10_000

    public let eventCount: Int
    public let summary: FunnelLogSummary
    /// Bad lines left out (`--skip-bad-lines`).
    public let skipped: SkippedLines
    /// Events before a person's first deep link: in no session.
    public let eventsOutsideSessions: Int
    /// Sessions with an event without a time: there the 10 s window is read as "the first screen".
    public let sessionsWithoutTimes: Int
    /// Visits closed before the person's next deep link because too many were open at once.
    public let visitsClosedEarly: Int
    /// Steps past a visit's limit of `VisitTracker.maxStepsPerVisit`, not read.
    public let stepsDropped: Int
    public let dimensions: [FunnelDimension]
    public let all: MetricCounts
    public let groups: [(group: FunnelGroup, metrics: MetricCounts)]
    /// Per UTC day of the visits' entries (visits without a time are in no day).
    public let days: [(day: String, metrics: MetricCounts)]

    public static func == (lhs: FunnelReport, rhs: FunnelReport) -> Bool {
        lhs.eventCount == rhs.eventCount && lhs.summary == rhs.summary && lhs.skipped == rhs.skipped
            && lhs.eventsOutsideSessions == rhs.eventsOutsideSessions
            && lhs.sessionsWithoutTimes == rhs.sessionsWithoutTimes && lhs.visitsClosedEarly == rhs.visitsClosedEarly
            && lhs.stepsDropped == rhs.stepsDropped && lhs.dimensions == rhs.dimensions && lhs.all == rhs.all
            && lhs.groups.map(\.group) == rhs.groups.map(\.group) && lhs.groups.map(\.metrics) == rhs.groups.map(\.metrics)
            && lhs.days.map(\.day) == rhs.days.map(\.day) && lhs.days.map(\.metrics) == rhs.days.map(\.metrics)
    }

    init(tracker: VisitTracker, summary: FunnelLogSummary, skipped: SkippedLines) {
        eventCount = tracker.eventCount
        self.summary = summary
        self.skipped = skipped
        eventsOutsideSessions = tracker.eventsOutside
        sessionsWithoutTimes = tracker.tally.untimed
        visitsClosedEarly = tracker.visitsClosedEarly
        stepsDropped = tracker.stepsDropped
        dimensions = tracker.tally.dimensions
        all = tracker.tally.all
        let dimensions = tracker.tally.dimensions
        groups = tracker.tally.byGroup.map { (FunnelGroup(dimensions: dimensions, values: $0.key), $0.value) }.sorted { $0.0 < $1.0 }
        days = tracker.tally.byDay.keys.sorted().map { ($0, tracker.tally.byDay[$0]!) }
    }

    /// The report of events already read (tests, small logs).
    public init(events: [FunnelEvent], summary: FunnelLogSummary = FunnelLogSummary(), resolver: ScreenResolver,
                vocabulary: FunnelVocabulary = .neutral, dimensions: [FunnelDimension] = FunnelDimension.standard) {
        var tracker = VisitTracker(vocabulary: vocabulary, resolver: resolver, dimensions: dimensions,
                                   maxOpenVisits: FunnelLogStream.maxOpenVisits)
        for event in events { tracker.add(event) }
        tracker.finish()
        self.init(tracker: tracker, summary: summary, skipped: SkippedLines())
    }
}

extension MetricCounts {
    mutating func add(_ outcome: VisitOutcome) {
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
