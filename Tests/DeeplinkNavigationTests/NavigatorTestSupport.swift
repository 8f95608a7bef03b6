import DeeplinkRouting
import DeeplinkNavigation
import JSONCore
import TestSupport

/// A handler over the repository's contracts/routes.json, with the link settings of its
/// manifest.json, read by the routing layer alone (no contract set, no JSON Schema).
func repositoryHandler() throws -> DeeplinkHandler {
    let text = try RepositoryPaths.text("contracts/routes.json")
    let routes = try RoutesFile.routes(fromJSON: text)
    let manifest = JSONFieldReader(try JSONValue(parsing: try RepositoryPaths.text("contracts/manifest.json")))
    let links = LinkConfiguration(
        universalLinkHosts: try manifest.child("universalLinkHosts").strings(),
        customScheme: try manifest.child("customScheme").string(),
        webBaseURL: try manifest.child("webBaseURL").string(),
        pushURLKey: try manifest.child("pushURLKey").string())
    return DeeplinkHandler(routes: try RouteTable(routes: routes), links: links, channels: try RoutesFile.channels(fromJSON: text))
}

extension EntryChannel {
    /// The example set's declared messenger channel.
    static let kakaotalk = EntryChannel(rawValue: "kakaotalk")
}

/// A host whose steps complete when the test says so: the deterministic double of an app whose
/// tab switch animates and whose detail screen fetches. With `holdsAsyncSteps` false, selectTab and
/// resolveDetail complete before they return (an app with nothing to wait for).
///
/// It also checks, at the moment of each call, what must never happen: an auth-required step while
/// logged out, a step for a route its channel may not open, two navigations at once.
@MainActor
final class ScriptedHost: CallbackNavigationHost, AuthState, ApplicationOpening {
    enum Call: Equatable {
        case selectTab(String, EnvelopeID)
        case attachList(String?, EnvelopeID)
        case resolveDetail(EnvelopeID)
        case show(String, EnvelopeID)
        case presentLogin
        case cancelSteps(EnvelopeID)
    }

    /// A step waiting for the test.
    struct Outstanding {
        let step: NavigationStep
        let destination: NavigationDestination
        let complete: @MainActor (Result<Void, NavigationStepError>?) -> Void
    }

    var isLoggedIn: Bool
    var calls: [Call] = []
    var holdsAsyncSteps = false
    /// Steps that fail (synchronously or when completed with `.success`) with this reason.
    var failing: [NavigationStep: String] = [:]
    /// Routes whose detail resolves to nothing.
    var notFoundRoutes: Set<String> = []
    private(set) var outstanding: [Outstanding] = []
    /// Completions already used, kept so a test can call them again (they must be ignored).
    private(set) var spent: [Outstanding] = []
    /// Broken rules, described at the moment they happened: must stay empty.
    private(set) var violations: [String] = []
    /// The envelope whose steps run now, to see that navigations never overlap.
    private var active: EnvelopeID?
    /// Run inside `show`, to test re-entrant navigation.
    var onShow: ((NavigationDestination) -> Void)?
    /// As an opener of other apps: the schemes `canOpen` says yes to, and whether opens wait for
    /// `completeOpen`.
    var openableSchemes: Set<String> = ["https"]
    var holdsOpens = false
    private(set) var heldOpens: [@MainActor (Bool) -> Void] = []
    private(set) var opens: [String] = []
    private var openInFlight = false

    init(loggedIn: Bool) { isLoggedIn = loggedIn }

    var shown: [EnvelopeID] {
        calls.compactMap { if case .show(_, let id) = $0 { return id } else { return nil } }
    }
    var shownRoutes: [String] {
        calls.compactMap { if case .show(let route, _) = $0 { return route } else { return nil } }
    }
    /// Envelopes in the order their navigation started (selectTab).
    var started: [EnvelopeID] {
        calls.compactMap { if case .selectTab(_, let id) = $0 { return id } else { return nil } }
    }
    var loginPresentations: Int { calls.filter { $0 == .presentLogin }.count }

    private func check(_ step: NavigationStep, _ destination: NavigationDestination) {
        let id = destination.envelopeID
        if openInFlight { violations.append("\(step.rawValue) for \(id) while another app is being opened") }
        if step == .selectTab {
            if let active { violations.append("\(id) started while \(active) was still navigating") }
            active = id
        } else if active != id {
            violations.append("\(step.rawValue) for \(id) while \(String(describing: active)) is the active navigation")
        }
        if destination.route.requiresAuth && !isLoggedIn {
            violations.append("\(step.rawValue) of auth-required \(destination.route.name) (\(id)) while logged out")
        }
        if !destination.route.isEnabled(from: destination.channel) {
            violations.append("\(step.rawValue) of \(destination.route.name) from \(destination.channel.rawValue), which may not open it")
        }
    }

    private func failure(_ step: NavigationStep) -> NavigationStepError? {
        failing[step].map(NavigationStepError.init)
    }

    private func ended(_ id: EnvelopeID) {
        if active == id { active = nil }
    }

    func selectTab(for destination: NavigationDestination, completion: @escaping @MainActor (Result<Void, NavigationStepError>) -> Void) {
        check(.selectTab, destination)
        calls.append(.selectTab(destination.tab, destination.envelopeID))
        let finish: @MainActor (Result<Void, NavigationStepError>?) -> Void = { [weak self] result in
            let result = result ?? self?.failure(.selectTab).map { .failure($0) } ?? .success(())
            if case .failure = result { self?.ended(destination.envelopeID) }
            completion(result)
        }
        hold(.selectTab, destination, finish)
    }

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {
        check(.attachList, destination)
        if let error = failure(.attachList) {
            ended(destination.envelopeID)
            throw error
        }
        calls.append(.attachList(destination.list, destination.envelopeID))
    }

    func resolveDetail(for destination: NavigationDestination, completion: @escaping @MainActor (DetailResolution) -> Void) {
        check(.resolveDetail, destination)
        calls.append(.resolveDetail(destination.envelopeID))
        let finish: @MainActor (Result<Void, NavigationStepError>?) -> Void = { [weak self, notFound = notFoundRoutes.contains(destination.route.name)] result in
            let resolution: DetailResolution
            switch result ?? self?.failure(.resolveDetail).map({ .failure($0) }) ?? .success(()) {
            case .failure(let error): resolution = .failed(error)
            case .success: resolution = notFound ? .notFound : .found
            }
            if resolution != .found { self?.ended(destination.envelopeID) }
            completion(resolution)
        }
        hold(.resolveDetail, destination, finish)
    }

    func show(for destination: NavigationDestination) throws(NavigationStepError) {
        check(.show, destination)
        ended(destination.envelopeID)
        if let error = failure(.show) { throw error }
        calls.append(.show(destination.route.name, destination.envelopeID))
        onShow?(destination)
    }

    func presentLogin() { calls.append(.presentLogin) }

    func cancelSteps(for destination: NavigationDestination) {
        calls.append(.cancelSteps(destination.envelopeID))
        if destination.route.isExternal { openInFlight = false }
        outstanding.removeAll { $0.destination.envelopeID == destination.envelopeID }
        ended(destination.envelopeID)
    }

    func canOpen(_ url: String) -> Bool {
        openableSchemes.contains(String(url.prefix { $0 != ":" }))
    }

    func open(_ url: String, completion: @escaping @MainActor (Bool) -> Void) {
        if active != nil || openInFlight { violations.append("opening \(url) while another navigation runs") }
        openInFlight = true
        opens.append(url)
        let finish: @MainActor (Bool) -> Void = { [weak self] opened in
            self?.openInFlight = false
            completion(opened)
        }
        if holdsOpens { heldOpens.append(finish) } else { finish(true) }
    }

    /// Completes the oldest held open (false: the open failed).
    @discardableResult
    func completeOpen(_ opened: Bool = true) -> Bool {
        guard !heldOpens.isEmpty else { return false }
        heldOpens.removeFirst()(opened)
        return true
    }

    private func hold(_ step: NavigationStep, _ destination: NavigationDestination,
                      _ finish: @escaping @MainActor (Result<Void, NavigationStepError>?) -> Void) {
        let item = Outstanding(step: step, destination: destination, complete: finish)
        if holdsAsyncSteps {
            outstanding.append(item)
        } else {
            spent.append(item)
            finish(nil)
        }
    }

    /// Completes the oldest outstanding step: nil result = as configured (`failing`, `notFoundRoutes`).
    @discardableResult
    func completeNext(_ result: Result<Void, NavigationStepError>? = nil) -> Outstanding? {
        guard !outstanding.isEmpty else { return nil }
        let item = outstanding.removeFirst()
        spent.append(item)
        item.complete(result)
        return item
    }
}

/// A navigator wired to a scripted host and a manual clock.
@MainActor
struct NavigatorFixture {
    let handler: DeeplinkHandler
    let host: ScriptedHost
    let clock = ManualNavigationClock()
    let navigator: DeeplinkNavigator

    init(loggedIn: Bool = true, appState: AppState = .foreground, windowMs: Int = 2_000, holdsAsyncSteps: Bool = false,
         stepTimeoutMs: Int = 10_000) throws {
        handler = try repositoryHandler()
        host = ScriptedHost(loggedIn: loggedIn)
        host.holdsAsyncSteps = holdsAsyncSteps
        navigator = DeeplinkNavigator(host: host, auth: host, clock: clock, duplicateWindowMs: windowMs,
                                      appState: appState, stepTimeoutMs: stepTimeoutMs, logCapacity: 1_000_000)
    }

    func link(_ path: String, source: CampaignMetadata.Source? = nil) throws -> ParsedDeeplink {
        try handler.parse("https://sendy.co.kr" + path, source: source)
    }

    func outcomes(_ id: EnvelopeID) -> [EnvelopeOutcome] { navigator.log.outcomes(of: id) }

    func login() {
        host.isLoggedIn = true
        navigator.didCompleteLogin()
    }

    func logout() {
        host.isLoggedIn = false
        navigator.didLogout()
    }
}
