/// What the funnel asks the app's routes (a link's screen, a CTA's screen, which screens need a
/// login): the CLI answers from routes.json. The funnel itself knows no routes.
public protocol ScreenResolver: Sendable {
    /// The analytics screen name a deep link path (or URL) opens, e.g. "/order/42" -> "order_detail".
    func screen(forLink link: String) -> String?
    /// The screen of a route name, as a CTA click names it ("applyForm" -> "event_apply").
    func screen(forRoute route: String) -> String?
    /// Whether showing the screen needs a logged-in person.
    func requiresLogin(screen: String) -> Bool
}

/// How a visit began.
public enum VisitEntry: String, Sendable {
    case push
    case link
}

/// One event of an open visit, reduced to what the metrics read (the rest of its properties are
/// dropped as the line is read).
struct VisitStep {
    enum Kind: UInt8 {
        case push, page, cta, screenView, home, signIn, loginPresented, coldStartWait
    }

    let kind: Kind
    let time: Double?
    let line: Int
    /// The screen it shows (a screen view, a home screen, a page), or for a CTA the screen it leads to.
    let screen: String?
    let campaign: String?
    let source: String?
    let variant: String?
    /// A page opened inside the app (source appInternal): browsing on, not a campaign step.
    let inApp: Bool
}

/// A visit still open: its person may send more events.
struct OpenVisit {
    let entry: VisitEntry
    /// target_screen, else the screen of the entry's link.
    let target: String?
    /// What the entry pointed at (target_screen or link), to recognise the same push tap logged twice.
    let entryLink: String?
    /// The entry's source, "cold_start" read as none.
    let entrySource: String?
    let entryColdStart: Bool
    var steps: [VisitStep]
    var untimed: Bool
    var hasPage: Bool
    var lastSeen: Int

    /// Adds a step; false when the visit already holds `VisitTracker.maxStepsPerVisit` (it is dropped).
    mutating func add(_ step: VisitStep) -> Bool {
        let kept = steps.count < VisitTracker.maxStepsPerVisit
        if kept { steps.append(step) }
        if step.kind == .page { hasPage = true }
        if step.time == nil { untimed = true }
        lastSeen = step.line
        return kept
    }
}

/// Cuts a stream of events into visits person by person and counts each visit as it closes, so
/// what it holds is one open visit per person (its steps, reduced), never the log's events.
/// Bounds: at most `maxOpenVisits` visits are open at once (beyond that the least recently active
/// are closed and counted, and counted in `visitsClosedEarly`), and a visit keeps at most
/// `maxStepsPerVisit` steps (the ones after are counted in `stepsDropped`). Strings that repeat
/// (campaign ids, screens) are shared, so a value is held once however often it occurs.
struct VisitTracker {
    static let maxStepsPerVisit = 1_000

    let vocabulary: FunnelVocabulary
    let resolver: ScreenResolver
    let maxOpenVisits: Int
    private var open: [String: OpenVisit] = [:]
    private var interned: Set<String> = []
    private var linkScreens: [String: String?] = [:]
    var tally: FunnelTally
    var eventCount = 0
    var eventsOutside = 0
    var visitsClosedEarly = 0
    var stepsDropped = 0

    init(vocabulary: FunnelVocabulary, resolver: ScreenResolver, dimensions: [FunnelDimension], maxOpenVisits: Int) {
        self.vocabulary = vocabulary
        self.resolver = resolver
        self.maxOpenVisits = maxOpenVisits
        tally = FunnelTally(dimensions: dimensions)
    }

    private mutating func intern(_ value: String?) -> String? {
        guard let value else { return nil }
        if let shared = interned.firstIndex(of: value) { return interned[shared] }
        if interned.count < 100_000 { interned.insert(value) }
        return value
    }

    private mutating func screen(forLink link: String) -> String? {
        if let known = linkScreens[link] { return known }
        let screen = intern(resolver.screen(forLink: link))
        if linkScreens.count < 100_000 { linkScreens[link] = screen }
        return screen
    }

    /// `source`, with the seed's `source: "cold_start"` read as what it is: a cold start, no channel.
    static func source(_ event: FunnelEvent) -> String? {
        let source = event.string("source")
        return source == "cold_start" ? nil : source
    }

    static func link(_ event: FunnelEvent) -> String? {
        event.string("path") ?? event.string("url") ?? event.string("deeplink")
    }

    mutating func add(_ event: FunnelEvent) {
        eventCount += 1
        let key = event.sessionKey ?? ""
        let name = event.name
        if name == vocabulary.pushClicked {
            if event.properties["source"] == nil, var visit = open[key], visit.entry == .push,
               (event.string("target_screen") ?? Self.link(event)).map({ $0 == visit.entryLink }) ?? true,
               event.string("campaign_id").map({ $0 == visit.steps[0].campaign }) ?? true {
                // The same tap logged again without a source (a second SDK): part of the open visit.
                open[key] = nil
                append(step(event, .push), to: &visit)
                open[key] = visit
            } else {
                start(.push, event, key: key)
            }
        } else if name == "deeplink_opened" {
            start(.link, event, key: key)
        } else if name == vocabulary.pageOpened, event.string("source") != "appInternal" {
            let source = Self.source(event)
            if var visit = open[key], visit.entry == .push, !visit.hasPage, source == nil || source == visit.entrySource {
                // The page a push opens says the push's source (or none).
                open[key] = nil
                append(step(event, .page), to: &visit)
                open[key] = visit
            } else {
                start(.link, event, key: key)
            }
        } else if let at = open.index(forKey: key) {
            // Changed in place (one lookup, and the visit's steps are not copied).
            let found = kind(of: name).map { step(event, $0) }
            if let found, !open.values[at].add(found) { stepsDropped += 1 }
            if event.time == nil { open.values[at].untimed = true }
            open.values[at].lastSeen = event.line
        } else {
            eventsOutside += 1
        }
    }

    private func kind(of name: String) -> VisitStep.Kind? {
        switch name {
        case vocabulary.pageOpened: return .page
        case vocabulary.ctaClicked: return .cta
        case vocabulary.screenView: return .screenView
        case vocabulary.signIn, FunnelEvent.hostSignIn: return .signIn
        case FunnelEvent.loginPresented: return .loginPresented
        case FunnelEvent.coldStartWait: return .coldStartWait
        case let name where vocabulary.homeScreens.contains(name): return .home
        default: return nil
        }
    }

    private mutating func append(_ step: VisitStep, to visit: inout OpenVisit) {
        if !visit.add(step) { stepsDropped += 1 }
    }

    private mutating func step(_ event: FunnelEvent, _ kind: VisitStep.Kind) -> VisitStep {
        var screen: String?
        switch kind {
        case .screenView: screen = event.string("screen")
        case .home: screen = event.name
        case .page: screen = Self.link(event).flatMap { self.screen(forLink: $0) }
        case .cta: screen = event.string("target_screen") ?? event.string("route").flatMap(resolver.screen(forRoute:))
        default: screen = nil
        }
        let tagged = kind == .push || kind == .page || kind == .cta || kind == .screenView
        return VisitStep(
            kind: kind, time: event.time, line: event.line, screen: intern(screen),
            campaign: tagged ? intern(event.string("campaign_id")) : nil,
            source: tagged ? intern(Self.source(event)) : nil,
            variant: tagged ? intern(event.string("variant")) : nil,
            inApp: kind == .page && event.string("source") == "appInternal")
    }

    private mutating func start(_ entry: VisitEntry, _ event: FunnelEvent, key: String) {
        if let finished = open.removeValue(forKey: key) { close(finished) }
        let first = step(event, entry == .push ? .push : .page)
        let target = event.string("target_screen") ?? Self.link(event).flatMap { screen(forLink: $0) }
        let coldStart = event.properties["cold_start"] == .bool(true)
            || event.string("app_state").map { $0 == "coldStart" || $0 == "cold_start" } == true
            || event.string("source") == "cold_start" || event.string("launch") == "cold"
        open[key] = OpenVisit(
            entry: entry, target: intern(target), entryLink: event.string("target_screen") ?? Self.link(event),
            entrySource: first.source, entryColdStart: coldStart, steps: [first], untimed: event.time == nil,
            hasPage: first.kind == .page && entry == .push, lastSeen: event.line)
        if open.count > maxOpenVisits { closeLeastRecent() }
    }

    /// Closes the quarter of open visits that were least recently active.
    private mutating func closeLeastRecent() {
        let byAge = open.map { ($0.value.lastSeen, $0.key) }.sorted { $0.0 < $1.0 }
        for (_, key) in byAge.prefix(max(1, open.count / 4)) {
            if let visit = open.removeValue(forKey: key) {
                close(visit)
                visitsClosedEarly += 1
            }
        }
    }

    private mutating func close(_ visit: OpenVisit) {
        tally.add(Self.outcome(of: visit, vocabulary: vocabulary, resolver: resolver), untimed: visit.untimed)
    }

    /// Closes every open visit (the end of the log).
    mutating func finish() {
        let remaining = open.values.sorted { $0.steps[0].line < $1.steps[0].line }
        open = [:]
        for visit in remaining { close(visit) }
    }

    /// The rules of docs/operations.md, for one visit.
    static func outcome(of visit: OpenVisit, vocabulary: FunnelVocabulary, resolver: ScreenResolver) -> VisitOutcome {
        var steps = visit.steps
        // In time order when every step has a time; the entry stays first.
        if steps.count > 2, steps.allSatisfy({ $0.time != nil }) {
            let rest = steps[1...].sorted { ($0.time!, $0.line) < ($1.time!, $1.line) }
            steps = [steps[0]] + rest
        }
        let entryStep = steps[0]
        func first(_ field: KeyPath<VisitStep, String?>) -> String? {
            entryStep[keyPath: field] ?? steps.lazy.compactMap { $0[keyPath: field] }.first
        }
        let campaign = first(\.campaign)
        let source = first(\.source) ?? (visit.entry == .push ? "push" : nil)
        let variant = first(\.variant)

        let shown: [(index: Int, screen: String)] = steps.indices.compactMap { index in
            switch steps[index].kind {
            case .screenView, .home, .page: return steps[index].screen.map { (index, $0) }
            default: return nil
            }
        }
        let reached: Bool? = visit.target.map { target in shown.contains { $0.screen == target } }

        let landedOnHome: Bool
        if let home = shown.first(where: { vocabulary.homeScreens.contains($0.screen) }) {
            if let entryTime = entryStep.time, let homeTime = steps[home.index].time {
                landedOnHome = homeTime - entryTime <= Double(FunnelReport.wrongLandingWindowMs) / 1000  // log times are seconds
            } else {
                // Without times the window cannot be measured: home counts when it is the first screen.
                landedOnHome = shown.first?.index == home.index
            }
        } else {
            landedOnHome = false
        }

        // A visit intends a screen or three: a list costs less than hashing them into a set.
        var intended: [String] = []
        if let target = visit.target { intended.append(target) }
        for step in steps where step.kind == .cta { if let screen = step.screen, !intended.contains(screen) { intended.append(screen) } }

        var consumed: Bool?
        var signedIn = false
        let coldStart = visit.entryColdStart || steps.contains { $0.kind == .coldStartWait }
        if visit.entry == .push && coldStart {
            let signIn = steps.firstIndex { $0.kind == .signIn }
            let neededSignIn = signIn != nil || steps.contains { $0.kind == .loginPresented }
                || intended.contains { resolver.requiresLogin(screen: $0) }
            if neededSignIn {
                signedIn = signIn != nil
                consumed = signIn.map { signIn in shown.contains { $0.index > signIn && intended.contains($0.screen) } } ?? false
            }
        }

        var missing: [String] = []
        var other: [String] = []
        for step in steps {
            let name: String
            switch step.kind {
            case .push: name = vocabulary.pushClicked
            case .cta: name = vocabulary.ctaClicked
            case .page where !step.inApp: name = vocabulary.pageOpened
            case .screenView where step.screen.map({ intended.contains($0) }) == true: name = vocabulary.screenView
            default: continue
            }
            guard let value = step.campaign else {
                missing.append(name)
                continue
            }
            if value != campaign { other.append(name) }
        }
        let day = entryStep.time.map(UTCDay.init(seconds:))?.text
        return VisitOutcome(
            campaignID: campaign, source: source, variant: variant, day: day, coldStart: coldStart,
            reachedTarget: reached, landedOnHome: landedOnHome, coldStartConsumed: consumed, coldStartSignedIn: signedIn,
            campaignAtEveryStep: campaign != nil && missing.isEmpty && other.isEmpty,
            missingCampaignAt: missing, otherCampaignAt: other)
    }
}

/// A calendar day in UTC, "2025-12-01".
struct UTCDay {
    let text: String

    init(seconds: Double) {
        // Days since 1970 to a civil date (the proleptic Gregorian calendar's 400-year cycle).
        let days = Int((seconds / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        guard (1000...9999).contains(year) else {
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            text = "\(year)-\(two(month))-\(two(day))"
            return
        }
        // Digit by digit: a day is counted per visit, and ten bytes make a small string without a heap allocation.
        let digits = [year / 1000, year / 100 % 10, year / 10 % 10, year % 10, -1, month / 10, month % 10, -1, day / 10, day % 10]
        text = String(unsafeUninitializedCapacity: digits.count) { buffer in
            for (at, digit) in digits.enumerated() { buffer[at] = digit < 0 ? UInt8(ascii: "-") : UInt8(0x30 + digit) }
            return digits.count
        }
    }
}
