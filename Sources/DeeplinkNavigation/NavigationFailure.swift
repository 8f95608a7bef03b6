import DeeplinkRouting

/// One step of a navigation, in the order of the coordinator seed: select the tab (closing
/// modals), attach the list for back navigation, resolve the detail (fetch what the screen needs),
/// show it.
public enum NavigationStep: String, Sendable, CaseIterable {
    case selectTab, attachList, resolveDetail, show
    /// The one step of a destination outside the app: open the provider's app or its fallback.
    case openExternal

    /// Steps that take time (an animation, a fetch, another app opening) complete later; the
    /// others answer at once.
    public var isAsynchronous: Bool { self == .selectTab || self == .resolveDetail || self == .openExternal }
}

/// Why a navigation step could not be carried out, in the app's words ("list coordinator
/// unavailable"). The navigator wraps it in a `NavigationFailure` that names the step.
public struct NavigationStepError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Why a navigation ended without showing its destination. Each case is one early return of the
/// coordinator seed's flow, so the envelope is consumed with a reason a person can act on.
public enum NavigationFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No navigation host was attached when the navigation started (or it went away).
    case noHost
    /// The tab could not be selected (modals would not close, the tab bar is gone).
    case tabNotSelected(NavigationStepError)
    /// The list could not be attached beneath the destination (`ensureServiceListAttached` gave nil).
    case listNotAttached(NavigationStepError)
    /// The detail resolved to nothing: the item does not exist (any more).
    case detailNotFound
    /// The detail could not be resolved (the fetch failed).
    case detailFailed(NavigationStepError)
    /// The destination could not be pushed or presented.
    case showFailed(NavigationStepError)
    /// An asynchronous step did not complete within the navigator's step timeout; it was cancelled.
    case timedOut(NavigationStep, afterMs: Int)
    /// The navigator already held `capacity` envelopes waiting (behind the running navigation, at
    /// the ready gate, for login), so this new one was not taken: consumed at once, on record.
    case queueFull(capacity: Int)
    /// An external destination: no opener is attached to the navigator.
    case noOpener
    /// An external destination could not be opened (the map-app seed's errors).
    case external(ExternalRouteError)

    /// A stable snake_case name for records, JSON lines and reply details.
    public var code: String {
        switch self {
        case .noHost: return "no_host"
        case .tabNotSelected: return "tab_not_selected"
        case .listNotAttached: return "list_not_attached"
        case .detailNotFound: return "detail_not_found"
        case .detailFailed: return "detail_failed"
        case .showFailed: return "show_failed"
        case .timedOut: return "timed_out"
        case .queueFull: return "queue_full"
        case .noOpener: return "no_opener"
        case .external(let error): return error.code
        }
    }

    /// The step that failed (nil when no step ran).
    public var step: NavigationStep? {
        switch self {
        case .noHost, .queueFull: return nil
        case .tabNotSelected: return .selectTab
        case .listNotAttached: return .attachList
        case .detailNotFound, .detailFailed: return .resolveDetail
        case .showFailed: return .show
        case .timedOut(let step, _): return step
        case .noOpener, .external: return .openExternal
        }
    }

    public var description: String {
        switch self {
        case .noHost: return "no navigation host is attached"
        case .tabNotSelected(let error): return "the tab could not be selected: \(error.reason)"
        case .listNotAttached(let error): return "the list could not be attached: \(error.reason)"
        case .detailNotFound: return "the detail resolved to nothing (the item is not there)"
        case .detailFailed(let error): return "the detail could not be resolved: \(error.reason)"
        case .showFailed(let error): return "the destination could not be shown: \(error.reason)"
        case .timedOut(let step, let milliseconds): return "\(step.rawValue) did not complete within \(milliseconds) ms"
        case .queueFull(let capacity): return "the navigator already holds \(capacity) waiting navigations (its limit); this one was not queued"
        case .noOpener: return "no application opener is attached"
        case .external(let error): return error.description
        }
    }
}

/// A route the request's channel may not open (routes.json `enabledFrom`): consumed as refused.
public struct NavigationRefusal: Sendable, Equatable, CustomStringConvertible {
    public let route: String
    public let channel: EntryChannel
    public let enabledFrom: Set<EntryChannel>

    public init(route: String, channel: EntryChannel, enabledFrom: Set<EntryChannel>) {
        self.route = route
        self.channel = channel
        self.enabledFrom = enabledFrom
    }

    /// A stable name for records and reply details.
    public var code: String { "not_enabled" }

    public var description: String {
        "route \(route) is not enabled from \(channel.rawValue) (enabled from: \(EntryChannel.names(enabledFrom)))"
    }
}
