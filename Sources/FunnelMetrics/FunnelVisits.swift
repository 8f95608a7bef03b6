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
    var screen: Symbol?
    var campaign: Symbol?
    var source: Symbol?
    var variant: Symbol?
    /// A page opened inside the app (source appInternal): browsing on, not a campaign step.
    let inApp: Bool

    mutating func rename(_ renaming: inout SymbolRenaming) {
        screen = renaming.rename(screen)
        campaign = renaming.rename(campaign)
        source = renaming.rename(source)
        variant = renaming.rename(variant)
    }
}

/// A visit still open: its person may send more events.
struct OpenVisit {
    let entry: VisitEntry
    /// target_screen, else the screen of the entry's link.
    var target: Symbol?
    /// What the entry pointed at (target_screen or link), to recognise the same push tap logged twice.
    var entryLink: Symbol?
    /// The entry's source, "cold_start" read as none.
    var entrySource: Symbol?
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

    mutating func rename(_ renaming: inout SymbolRenaming) {
        target = renaming.rename(target)
        entryLink = renaming.rename(entryLink)
        entrySource = renaming.rename(entrySource)
        for index in steps.indices { steps[index].rename(&renaming) }
    }
}

/// The symbols of the names the tracker looks for: the vocabulary's and the few values of
/// properties that mean something to it. They are the first symbols of the table.
struct TrackedNames {
    let pushClicked, deeplinkOpened, pageOpened, ctaClicked, screenView, signIn, hostSignIn, loginPresented, coldStartWait: Symbol
    let homeScreens: [Symbol]
    /// Values of source, app_state and launch.
    let appInternal, coldStartSource, coldStartState, coldLaunch: Symbol
    /// How many symbols these are: the first of the table.
    let count: Int

    init(_ vocabulary: FunnelVocabulary, symbols: inout SymbolTable) {
        pushClicked = symbols.symbol(vocabulary.pushClicked)
        deeplinkOpened = symbols.symbol("deeplink_opened")
        pageOpened = symbols.symbol(vocabulary.pageOpened)
        ctaClicked = symbols.symbol(vocabulary.ctaClicked)
        screenView = symbols.symbol(vocabulary.screenView)
        signIn = symbols.symbol(vocabulary.signIn)
        hostSignIn = symbols.symbol(FunnelEvent.hostSignIn)
        loginPresented = symbols.symbol(FunnelEvent.loginPresented)
        coldStartWait = symbols.symbol(FunnelEvent.coldStartWait)
        homeScreens = vocabulary.homeScreens.map { symbols.symbol($0) }
        appInternal = symbols.symbol("appInternal")
        coldStartSource = symbols.symbol("cold_start")
        coldStartState = symbols.symbol("coldStart")
        coldLaunch = symbols.symbol("cold")
        count = symbols.count
    }

    /// The kind of step an event of this name is, when it is not an entry.
    func kind(of name: Symbol) -> VisitStep.Kind? {
        switch name {
        case pageOpened: return .page
        case ctaClicked: return .cta
        case screenView: return .screenView
        case signIn, hostSignIn: return .signIn
        case loginPresented: return .loginPresented
        case coldStartWait: return .coldStartWait
        case let name where homeScreens.contains(name): return .home
        default: return nil
        }
    }
}

/// Cuts a stream of events into visits person by person and counts each visit as it closes, so
/// what it holds is one open visit per person (its steps, reduced), never the log's events.
/// Bounds: at most `maxOpenVisits` visits are open at once (beyond that the least recently active
/// are closed and counted, and counted in `visitsClosedEarly`), and a visit keeps at most
/// `maxStepsPerVisit` steps (the ones after are counted in `stepsDropped`). Texts (campaign ids,
/// screens) are symbols of `symbols`; when it holds more than `symbolLimit`, it is made anew with
/// the symbols open visits still use (`shareSymbolsAnew`).
struct VisitTracker {
    static let maxStepsPerVisit = 1_000
    /// Symbols held before the table is made anew (a few megabytes of texts).
    static let symbolLimit = 1 << 16

    let vocabulary: FunnelVocabulary
    let resolver: ScreenResolver
    let maxOpenVisits: Int
    var symbols = SymbolTable()
    private let names: TrackedNames
    private let minimumSymbolLimit: Int
    private var symbolLimit: Int
    private var open: [String: OpenVisit] = [:]
    private var linkScreens = SymbolAnswers<Symbol?>()
    private var routeScreens = SymbolAnswers<Symbol?>()
    private var screensNeedingLogin = SymbolAnswers<Bool>()
    var tally: FunnelTally
    var eventCount = 0
    var eventsOutside = 0
    var visitsClosedEarly = 0
    var stepsDropped = 0

    init(vocabulary: FunnelVocabulary, resolver: ScreenResolver, dimensions: [FunnelDimension], maxOpenVisits: Int,
         symbolLimit: Int = VisitTracker.symbolLimit) {
        self.vocabulary = vocabulary
        self.resolver = resolver
        self.maxOpenVisits = maxOpenVisits
        names = TrackedNames(vocabulary, symbols: &symbols)
        minimumSymbolLimit = symbolLimit
        self.symbolLimit = symbolLimit
        tally = FunnelTally(dimensions: dimensions)
    }

    /// Adds an event of the public shape (`FunnelReport(events:)`).
    mutating func add(_ event: FunnelEvent) {
        add(TrackedEvent(event, symbols: &symbols))
        shareSymbolsAnew()
    }

    mutating func add(_ event: TrackedEvent) {
        eventCount += 1
        let key = event.sessionKey ?? ""
        if event.name == names.pushClicked {
            addPush(event, key: key)
        } else if event.name == names.deeplinkOpened {
            start(.link, event, key: key)
        } else if event.name == names.pageOpened, event.source != names.appInternal {
            addPage(event, key: key)
        } else if let at = open.index(forKey: key) {
            // Changed in place (one lookup, and the visit's steps are not copied).
            if let kind = names.kind(of: event.name), !open.values[at].add(step(event, kind)) { stepsDropped += 1 }
            if event.time == nil { open.values[at].untimed = true }
            open.values[at].lastSeen = event.line
        } else {
            eventsOutside += 1
        }
    }

    private mutating func addPush(_ event: TrackedEvent, key: String) {
        if !event.hasSource, let at = open.index(forKey: key), open.values[at].entry == .push,
           (event.targetScreen ?? event.link).map({ $0 == open.values[at].entryLink }) ?? true,
           event.campaign.map({ $0 == open.values[at].steps[0].campaign }) ?? true {
            // The same tap logged again without a source (a second SDK): part of the open visit.
            append(step(event, .push), at: at)
        } else {
            start(.push, event, key: key)
        }
    }

    private mutating func addPage(_ event: TrackedEvent, key: String) {
        let source = self.source(event)
        if let at = open.index(forKey: key), open.values[at].entry == .push, !open.values[at].hasPage,
           source == nil || source == open.values[at].entrySource {
            // The page a push opens says the push's source (or none).
            append(step(event, .page), at: at)
        } else {
            start(.link, event, key: key)
        }
    }

    /// `source`, with the seed's `source: "cold_start"` read as what it is: a cold start, no channel.
    private func source(_ event: TrackedEvent) -> Symbol? {
        event.source == names.coldStartSource ? nil : event.source
    }

    private mutating func append(_ step: VisitStep, at index: Dictionary<String, OpenVisit>.Index) {
        if !open.values[index].add(step) { stepsDropped += 1 }
    }

    private mutating func step(_ event: TrackedEvent, _ kind: VisitStep.Kind) -> VisitStep {
        var screen: Symbol?
        switch kind {
        case .screenView: screen = event.screen
        case .home: screen = event.name
        case .page: screen = event.link.flatMap { self.screen(forLink: $0) }
        case .cta: screen = event.targetScreen ?? event.route.flatMap { self.screen(forRoute: $0) }
        default: screen = nil
        }
        let tagged = kind == .push || kind == .page || kind == .cta || kind == .screenView
        return VisitStep(
            kind: kind, time: event.time, line: event.line, screen: screen,
            campaign: tagged ? event.campaign : nil, source: tagged ? source(event) : nil, variant: tagged ? event.variant : nil,
            inApp: kind == .page && event.source == names.appInternal)
    }

    private mutating func start(_ entry: VisitEntry, _ event: TrackedEvent, key: String) {
        let first = step(event, entry == .push ? .push : .page)
        let coldStart = event.coldStart || event.appState == names.coldStartState || event.appState == names.coldStartSource
            || event.source == names.coldStartSource || event.launch == names.coldLaunch
        let visit = OpenVisit(
            entry: entry, target: event.targetScreen ?? event.link.flatMap { screen(forLink: $0) },
            entryLink: event.targetScreen ?? event.link, entrySource: first.source, entryColdStart: coldStart, steps: [first],
            untimed: event.time == nil, hasPage: first.kind == .page && entry == .push, lastSeen: event.line)
        if let at = open.index(forKey: key) {
            close(open.values[at])
            open.values[at] = visit
        } else {
            open[key] = visit
            if open.count > maxOpenVisits { closeLeastRecent() }
        }
    }

    private mutating func screen(forLink link: Symbol) -> Symbol? {
        if let known = linkScreens[link] { return known }
        let screen = resolver.screen(forLink: symbols.text(link)).map { symbols.symbol($0) }
        linkScreens[link] = .some(screen)
        return screen
    }

    private mutating func screen(forRoute route: Symbol) -> Symbol? {
        if let known = routeScreens[route] { return known }
        let screen = resolver.screen(forRoute: symbols.text(route)).map { symbols.symbol($0) }
        routeScreens[route] = .some(screen)
        return screen
    }

    private mutating func requiresLogin(_ screen: Symbol) -> Bool {
        if let known = screensNeedingLogin[screen] { return known }
        let needs = resolver.requiresLogin(screen: symbols.text(screen))
        screensNeedingLogin[screen] = needs
        return needs
    }

    /// Makes the symbol table anew when it holds more than its limit, with the symbols open
    /// visits still use; call it between lines (an event read holds symbols of the old table).
    mutating func shareSymbolsAnew() {
        guard symbols.count > symbolLimit else { return }
        var renaming = SymbolRenaming(symbols, keeping: names.count)
        for index in open.indices { open.values[index].rename(&renaming) }
        symbols = renaming.table
        linkScreens.removeAll()
        routeScreens.removeAll()
        screensNeedingLogin.removeAll()
        // Room to grow again before the next time, however many symbols are in use.
        symbolLimit = max(minimumSymbolLimit, 2 * symbols.count)
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
        tally.add(outcome(of: visit), untimed: visit.untimed)
    }

    /// Closes every open visit (the end of the log).
    mutating func finish() {
        let remaining = open.values.sorted { $0.steps[0].line < $1.steps[0].line }
        open = [:]
        for visit in remaining { close(visit) }
    }

    /// The rules of docs/operations.md, for one visit.
    mutating func outcome(of visit: OpenVisit) -> VisitOutcome {
        var steps = visit.steps
        // In time order when every step has a time; the entry stays first.
        if steps.count > 2, steps.allSatisfy({ $0.time != nil }) {
            steps[1...].sort { ($0.time!, $0.line) < ($1.time!, $1.line) }
        }
        let entryStep = steps[0]
        func first(_ field: KeyPath<VisitStep, Symbol?>) -> Symbol? {
            entryStep[keyPath: field] ?? steps.lazy.compactMap { $0[keyPath: field] }.first
        }
        let campaign = first(\.campaign)
        let shown: [(index: Int, screen: Symbol)] = steps.indices.compactMap { index in
            switch steps[index].kind {
            case .screenView, .home, .page: return steps[index].screen.map { (index, $0) }
            default: return nil
            }
        }
        // A visit intends a screen or three: a list costs less than a set.
        var intended: [Symbol] = []
        if let target = visit.target { intended.append(target) }
        for step in steps where step.kind == .cta { if let screen = step.screen, !intended.contains(screen) { intended.append(screen) } }
        let coldStart = visit.entryColdStart || steps.contains { $0.kind == .coldStartWait }
        let consumption = coldStartConsumption(steps, shown: shown, intended: intended, applies: visit.entry == .push && coldStart)
        let (missing, other) = campaignGaps(steps, campaign: campaign, intended: intended)
        return VisitOutcome(
            campaignID: campaign.map(symbols.text),
            source: first(\.source).map(symbols.text) ?? (visit.entry == .push ? "push" : nil),
            variant: first(\.variant).map(symbols.text), day: entryStep.time.map(UTCDay.init(seconds:))?.text,
            coldStart: coldStart, reachedTarget: visit.target.map { target in shown.contains { $0.screen == target } },
            landedOnHome: landedOnHome(steps, shown: shown), coldStartConsumed: consumption.consumed,
            coldStartSignedIn: consumption.signedIn, campaignAtEveryStep: campaign != nil && missing.isEmpty && other.isEmpty,
            missingCampaignAt: missing, otherCampaignAt: other)
    }

    /// Whether a home screen came within the window after the entry (without times: first).
    private func landedOnHome(_ steps: [VisitStep], shown: [(index: Int, screen: Symbol)]) -> Bool {
        guard let home = shown.first(where: { names.homeScreens.contains($0.screen) }) else { return false }
        if let entryTime = steps[0].time, let homeTime = steps[home.index].time {
            return homeTime - entryTime <= Double(FunnelReport.wrongLandingWindowMs) / 1000  // log times are seconds
        }
        // Without times the window cannot be measured: home counts when it is the first screen.
        return shown.first?.index == home.index
    }

    /// Of a cold-start push visit that needed a sign-in: whether an intended screen came after the
    /// sign-in (nil when the metric does not apply), and whether it signed in.
    private mutating func coldStartConsumption(_ steps: [VisitStep], shown: [(index: Int, screen: Symbol)], intended: [Symbol],
                                               applies: Bool) -> (consumed: Bool?, signedIn: Bool) {
        guard applies else { return (nil, false) }
        let signIn = steps.firstIndex { $0.kind == .signIn }
        var neededSignIn = signIn != nil || steps.contains { $0.kind == .loginPresented }
        for screen in intended where !neededSignIn { neededSignIn = requiresLogin(screen) }
        guard neededSignIn else { return (nil, false) }
        let consumed = signIn.map { signIn in shown.contains { $0.index > signIn && intended.contains($0.screen) } } ?? false
        return (consumed, signIn != nil)
    }

    /// The funnel steps without a campaign_id, and those with another, by event name.
    private func campaignGaps(_ steps: [VisitStep], campaign: Symbol?, intended: [Symbol]) -> (missing: [String], other: [String]) {
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
        return (missing, other)
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
