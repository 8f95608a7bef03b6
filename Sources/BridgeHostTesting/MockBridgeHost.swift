import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost

/// A recording stand-in for the app around a `BridgeHost`, for an app's own tests, `bridgectl
/// simulate` and `bridgectl host --stdio`. It is the NavigationHost (records navigations instead of
/// pushing screens), the AuthState (a flag the test sets) and the analytics recorder, and it drives
/// the real `DeeplinkNavigator` and `BridgeHost` with a manual clock, so every run is deterministic.
public final class MockBridgeHost: NavigationHost, AuthState, HostRecorder {
    public let contracts: ContractSet
    public let clock: NavigationClock
    public let navigator: DeeplinkNavigator
    /// Created right after the navigator; never nil once `init` returned.
    public private(set) var bridge: BridgeHost!

    public var isLoggedIn: Bool
    public private(set) var navigations: [NavigationRecord] = []
    public private(set) var analyticsEvents: [AnalyticsEvent] = []
    public private(set) var replies: [BridgeReply] = []
    public private(set) var loginPresentations = 0
    public private(set) var campaignConflicts: [CampaignConflict] = []
    /// Everything above plus envelope outcomes and notifications, in the order it happened.
    public private(set) var records: [MockRecord] = []
    /// Called with each record as it is made (host --stdio prints and flushes each at once).
    public var onRecord: ((MockRecord) -> Void)?

    /// Make a navigation step fail, to exercise NAVIGATION_FAILED: step name ("selectTab",
    /// "attachList", "show") -> reason.
    public var failingSteps: [String: String] = [:]

    /// `clock` defaults to a manual clock (moved with `advanceClock`); `host --stdio` passes the
    /// system clock so a live harness sees real duplicate windows.
    public convenience init(contracts: ContractSet, loggedIn: Bool = true, appState: AppState = .foreground,
                            clock: NavigationClock = ManualNavigationClock()) throws(BridgeHostSetupError) {
        let compiled: CompiledContracts
        do {
            compiled = try CompiledContracts(contracts: contracts)
        } catch {
            throw .contracts(error)
        }
        try self.init(compiled: compiled, loggedIn: loggedIn, appState: appState, clock: clock)
    }

    /// Many mock hosts can share contracts compiled once (test suites that create a host per case).
    public init(compiled: CompiledContracts, loggedIn: Bool = true, appState: AppState = .foreground,
                clock: NavigationClock = ManualNavigationClock()) throws(BridgeHostSetupError) {
        let contracts = compiled.contracts
        self.contracts = contracts
        self.isLoggedIn = loggedIn
        self.clock = clock
        self.navigator = DeeplinkNavigator(host: nil, auth: nil, clock: clock,
                                           duplicateWindowMs: contracts.manifest.limits.duplicateWindowMs,
                                           appState: appState, logCapacity: 100_000)
        navigator.host = self
        navigator.auth = self
        navigator.addObserver { [weak self] entry in
            self?.append(.envelope(id: entry.envelopeID, route: entry.routeName, outcome: entry.outcome))
        }
        bridge = try BridgeHost(compiled: compiled, navigator: navigator, recorder: self)
    }

    /// With the contracts compiled into this binary.
    public convenience init(loggedIn: Bool = true, appState: AppState = .foreground) throws {
        try self.init(contracts: ContractSet.bundled(), loggedIn: loggedIn, appState: appState)
    }

    // MARK: - Driving

    /// The origin a message comes from when the caller does not say: the first allowed origin
    /// of the contracts in use (so a contract set for another site works without options).
    public var defaultOrigin: String { contracts.manifest.allowedOrigins.first ?? "" }

    /// The page was opened from `entry` (nil: an in-app page without a link).
    @discardableResult
    public func open(entry: String?, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> ParsedDeeplink? {
        try bridge.open(entry: entry, source: source)
    }

    @discardableResult
    public func receive(_ body: String, origin: String? = nil, isMainFrame: Bool = true) -> BridgeReply? {
        receive(bytes: Array(body.utf8), origin: origin, isMainFrame: isMainFrame)
    }

    @discardableResult
    public func receive(bytes: [UInt8], origin: String? = nil, isMainFrame: Bool = true) -> BridgeReply? {
        let reply = bridge.receive(body: bytes, origin: origin ?? defaultOrigin, isMainFrame: isMainFrame)
        if let reply {
            replies.append(reply)
            append(.reply(reply))
        }
        return reply
    }

    /// Routes a link the way a push tap or an AlimTalk link does (not through the bridge).
    @discardableResult
    public func openLink(_ url: String, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> NavigationDisposition {
        navigator.navigate(try bridge.handler.parse(url, source: source))
    }

    public func completeLogin() {
        isLoggedIn = true
        navigator.didCompleteLogin()
    }

    public func logout() {
        isLoggedIn = false
        navigator.didLogout()
    }

    public func becomeReady() { navigator.becomeReady() }

    public func setAppState(_ state: AppState) { navigator.setAppState(state) }

    /// Moves the manual clock (the duplicate window is measured on it). False with a real clock.
    @discardableResult
    public func advanceClock(milliseconds: Int) -> Bool {
        guard let manual = clock as? ManualNavigationClock else { return false }
        manual.advance(milliseconds: milliseconds)
        return true
    }

    // MARK: - NavigationHost

    public func selectTab(_ tab: String, for destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failingSteps["selectTab"] { throw NavigationStepError(reason) }
    }

    public func attachList(_ listRoute: String, for destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failingSteps["attachList"] { throw NavigationStepError(reason) }
        guard contracts.route(named: listRoute) != nil else {
            throw NavigationStepError("route \(destination.route.name) names list \(listRoute), which is not a route")
        }
    }

    public func show(_ destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failingSteps["show"] { throw NavigationStepError(reason) }
        let deeplink = destination.deeplink
        let record = NavigationRecord(
            envelopeID: destination.envelopeID, route: destination.route.name, url: destination.url,
            tab: destination.tab, list: destination.list, screen: destination.screen,
            presentation: destination.presentation, parameters: deeplink.pathParameters,
            query: deeplink.queryParameters, campaign: deeplink.campaignMetadata)
        navigations.append(record)
        append(.navigation(record))
    }

    public func presentLogin() {
        loginPresentations += 1
        append(.loginPresented)
    }

    // MARK: - HostRecorder

    public func record(_ record: HostRecord) {
        switch record {
        case .analytics(let event):
            analyticsEvents.append(event)
            append(.event(event))
        case .campaignConflict(let conflict):
            campaignConflicts.append(conflict)
            append(.campaignConflict(conflict))
        case .notification(let action, let version, let outcome):
            append(.notification(action: action, version: version, outcome: outcome))
        }
    }

    private func append(_ record: MockRecord) {
        records.append(record)
        onRecord?(record)
    }

    /// The analytics events with a given name.
    public func events(named name: String) -> [AnalyticsEvent] {
        analyticsEvents.filter { $0.name == name }
    }
}
