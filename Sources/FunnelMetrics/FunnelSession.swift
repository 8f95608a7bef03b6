import JSONCore

/// What the funnel needs to know about the app's destinations: the screen a link path opens and
/// whether it needs login. The command line answers from routes.json (DeeplinkRouting); tests
/// answer from a table. The funnel itself knows no routes.
public protocol ScreenResolver: Sendable {
    /// The analytics screen name a deep link path (or URL) opens, e.g. "/order/42" -> "order_detail".
    func screen(forLink link: String) -> String?
    /// The screen of a route name, as a CTA click names it ("applyForm" -> "event_apply").
    func screen(forRoute route: String) -> String?
    /// Whether showing the screen needs a logged-in person.
    func requiresLogin(screen: String) -> Bool
}

/// One visit that started with a deep link: the entry event (a push tap, or a page opened from a
/// link) and every event of the same person until the next entry.
public struct FunnelSession: Sendable, Equatable {
    public enum Entry: String, Sendable {
        case push
        case link
    }

    public let key: String
    public let entry: Entry
    /// The entry event first.
    public let events: [FunnelEvent]

    public var entryEvent: FunnelEvent { events[0] }

    /// The event and screen names of the log (the contract set's manifest).
    public let vocabulary: FunnelVocabulary

    public init(key: String, entry: Entry, events: [FunnelEvent], vocabulary: FunnelVocabulary = .neutral) {
        self.key = key
        self.entry = entry
        self.events = events
        self.vocabulary = vocabulary
    }

    /// Splits a log into sessions. Events are grouped by person (`distinct_id`/`session_id`; a log
    /// without either is one stream), put in time order when every event of the person has a time
    /// (else kept in line order), and cut at each entry: a `push_clicked`, a `deeplink_opened`, or an
    /// `event_webview_opened` whose source is not appInternal (a page opened from a link), except
    /// the page a push just opened (the first page after it, with the push's source or none). Events before a person's first entry belong to no session.
    public static func sessions(of events: [FunnelEvent], vocabulary: FunnelVocabulary = .neutral) -> (sessions: [FunnelSession], outside: Int) {
        var order: [String] = []
        var byKey: [String: [FunnelEvent]] = [:]
        for event in events {
            let key = event.sessionKey ?? ""
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(event)
        }
        var sessions: [FunnelSession] = []
        var outside = 0
        for key in order {
            var stream = byKey[key]!
            if stream.allSatisfy({ $0.time != nil }) {
                stream.sort { ($0.time!, $0.line) < ($1.time!, $1.line) }
            }
            var current: (entry: Entry, events: [FunnelEvent])?
            for event in stream {
                let startsSession: Entry?
                switch event.name {
                case vocabulary.pushClicked: startsSession = .push
                case "deeplink_opened": startsSession = .link
                case vocabulary.pageOpened where event.string("source") != "appInternal":
                    // The page a push opens says the push's source (or none); a page from another
                    // channel (a messenger link tapped later) is a visit of its own.
                    let pageOfThisPush = current.map {
                        $0.entry == .push && !$0.events.contains { $0.name == vocabulary.pageOpened }
                            && (event.string("source") == nil || event.string("source") == $0.events[0].string("source"))
                    } ?? false
                    startsSession = pageOfThisPush ? nil : .link
                default: startsSession = nil
                }
                if let startsSession {
                    if let finished = current { sessions.append(FunnelSession(key: key, entry: finished.entry, events: finished.events, vocabulary: vocabulary)) }
                    current = (startsSession, [event])
                } else if current != nil {
                    current!.events.append(event)
                } else {
                    outside += 1
                }
            }
            if let finished = current { sessions.append(FunnelSession(key: key, entry: finished.entry, events: finished.events, vocabulary: vocabulary)) }
        }
        return (sessions, outside)
    }

    // MARK: what a session says

    /// The campaign fields of the visit: the entry's, else the first step that has them.
    public func campaignValue(_ field: String) -> String? {
        if let value = entryEvent.string(field) { return value }
        return events.lazy.filter { vocabulary.steps.contains($0.name) }.compactMap { $0.string(field) }.first
    }

    /// The screen the entry meant to open: its `target_screen`, else the screen of its link.
    public func target(_ resolver: ScreenResolver) -> String? {
        if let explicit = entryEvent.string("target_screen") { return explicit }
        guard let link = entryEvent.string("path") ?? entryEvent.string("url") ?? entryEvent.string("deeplink") else { return nil }
        return resolver.screen(forLink: link)
    }

    /// The screens the visit was meant to reach: the target, and the destination of every CTA the
    /// person clicked (the page's button names its route, or a `target_screen`).
    public func intendedScreens(_ resolver: ScreenResolver) -> Set<String> {
        var screens = Set<String>()
        if let target = target(resolver) { screens.insert(target) }
        for event in events where event.name == vocabulary.ctaClicked {
            if let screen = event.string("target_screen") ?? event.string("route").flatMap(resolver.screen(forRoute:)) {
                screens.insert(screen)
            }
        }
        return screens
    }

    /// The screen an event shows, if it shows one: screen_view's `screen`, home_screen, the page an
    /// event_webview_opened shows.
    public func screen(of event: FunnelEvent, _ resolver: ScreenResolver) -> String? {
        switch event.name {
        case vocabulary.screenView: return event.string("screen")
        case let name where vocabulary.homeScreens.contains(name): return name
        case vocabulary.pageOpened: return (event.string("path") ?? event.string("url")).flatMap(resolver.screen(forLink:))
        default: return nil
        }
    }

    /// Whether `screen` is one of the home screens the set declares.
    public func isHome(_ screen: String) -> Bool {
        vocabulary.homeScreens.contains(screen)
    }

    /// A cold start: the push_clicked says so (cold_start true, app_state coldStart, or, the seed's
    /// naming, source cold_start), or (a host log) a navigation of the visit waited at the ready gate.
    public var isColdStart: Bool {
        let event = entryEvent
        if event.properties["cold_start"] == .bool(true) { return true }
        if let state = event.string("app_state"), state == "coldStart" || state == "cold_start" { return true }
        if event.string("source") == "cold_start" || event.string("launch") == "cold" { return true }
        return events.contains { $0.name == FunnelEvent.coldStartWait }
    }
}
