import DeeplinkRouting
import DeeplinkNavigation
import JSONCore
import TestSupport

/// A handler over the repository's contracts/routes.json, with the link settings of its
/// manifest.json, read by the routing layer alone (no contract set, no JSON Schema).
func repositoryHandler() throws -> DeepLinkHandler {
    let routes = try RoutesFile.routes(fromJSON: try RepositoryPaths.text("contracts/routes.json"))
    let manifest = JSONFieldReader(try JSONValue(parsing: try RepositoryPaths.text("contracts/manifest.json")))
    let links = LinkConfiguration(
        universalLinkHosts: try manifest.child("universalLinkHosts").strings(),
        customScheme: try manifest.child("customScheme").string(),
        webBaseURL: try manifest.child("webBaseURL").string(),
        pushURLKey: try manifest.child("pushURLKey").string())
    return DeepLinkHandler(routes: try RouteTable(routes: routes), links: links)
}

/// A NavigationHost and AuthState that writes down every call, and can be told to fail a step.
final class RecordingHost: NavigationHost, AuthState {
    enum Call: Equatable {
        case selectTab(String, EnvelopeID)
        case attachList(String, EnvelopeID)
        case show(String, EnvelopeID)
        case presentLogin
    }

    var isLoggedIn: Bool
    var calls: [Call] = []
    var failing: [String: String] = [:]
    /// Auth-required screens shown while logged out: must stay empty.
    var authViolations: [EnvelopeID] = []
    /// Run inside `show`, to test re-entrant navigation.
    var onShow: ((NavigationDestination) -> Void)?

    init(loggedIn: Bool) { isLoggedIn = loggedIn }

    var shown: [EnvelopeID] {
        calls.compactMap { if case .show(_, let id) = $0 { return id } else { return nil } }
    }

    var shownRoutes: [String] {
        calls.compactMap { if case .show(let route, _) = $0 { return route } else { return nil } }
    }

    var loginPresentations: Int { calls.filter { $0 == .presentLogin }.count }

    func selectTab(_ tab: String, for destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failing["selectTab"] { throw NavigationStepError(reason) }
        calls.append(.selectTab(tab, destination.envelopeID))
    }

    func attachList(_ listRoute: String, for destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failing["attachList"] { throw NavigationStepError(reason) }
        calls.append(.attachList(listRoute, destination.envelopeID))
    }

    func show(_ destination: NavigationDestination) throws(NavigationStepError) {
        if let reason = failing["show"] { throw NavigationStepError(reason) }
        if destination.route.requiresAuth && !isLoggedIn { authViolations.append(destination.envelopeID) }
        calls.append(.show(destination.route.name, destination.envelopeID))
        onShow?(destination)
    }

    func presentLogin() { calls.append(.presentLogin) }
}

/// A navigator wired to a recording host and a manual clock.
struct NavigatorFixture {
    let handler: DeepLinkHandler
    let host: RecordingHost
    let clock = ManualNavigationClock()
    let navigator: DeeplinkNavigator

    init(loggedIn: Bool = true, appState: AppState = .foreground, windowMs: Int = 2_000) throws {
        handler = try repositoryHandler()
        host = RecordingHost(loggedIn: loggedIn)
        navigator = DeeplinkNavigator(host: host, auth: host, clock: clock, duplicateWindowMs: windowMs,
                                      appState: appState, logCapacity: 1_000_000)
    }

    func link(_ path: String, source: CampaignMetadata.Source? = nil) throws -> ParsedDeeplink {
        try handler.parse("https://sendy.co.kr" + path, source: source)
    }

    func outcomes(_ id: EnvelopeID) -> [EnvelopeOutcome] { navigator.log.outcomes(of: id) }
}
