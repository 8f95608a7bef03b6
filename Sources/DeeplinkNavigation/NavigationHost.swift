import DeeplinkRouting

/// What the navigator asks the app to show: the routed link plus where it lives.
public struct NavigationDestination: Sendable, Equatable {
    public let envelopeID: EnvelopeID
    public let deeplink: ParsedDeeplink
    /// The channel the request came through.
    public let channel: EntryChannel

    public init(envelopeID: EnvelopeID, deeplink: ParsedDeeplink, channel: EntryChannel? = nil) {
        self.envelopeID = envelopeID
        self.deeplink = deeplink
        self.channel = channel ?? EntryChannel(deeplink.campaignMetadata.source)
    }

    public init(_ envelope: RouteEnvelope) {
        self.init(envelopeID: envelope.id, deeplink: envelope.route, channel: envelope.channel)
    }

    public var route: RouteDefinition { deeplink.configuration }
    public var tab: String { route.tab }
    /// The route whose screen goes beneath the destination for back navigation, if any.
    public var list: String? { route.list }
    public var screen: String { route.screen }
    public var presentation: Presentation { route.presentation }
    public var url: String { deeplink.url }
}

/// The app side of navigation with async/await, in the steps of the coordinator seed
/// (`selectTab` -> `ensureServiceListAttached` -> `resolveDetail` -> `pushDetail`), each able to
/// fail on its own with a reason. This is what an app's coordinator implements; hand it to
/// `DeeplinkNavigator(host:...)`.
///
/// The navigator runs one navigation at a time, so between `attachList` and `show` nothing else
/// touches the stack; the values one step returns are handed to the next (`Stack` is typically the
/// tab's `UINavigationController`, `Detail` the screen or the model fetched for it). They never
/// leave the main actor, so they need not be `Sendable`.
@MainActor
public protocol NavigationHost: AnyObject {
    /// Where the destination goes (a navigation controller); `Void` when the app needs none.
    associatedtype Stack = Void
    /// What `resolveDetail` produced for `show`; `Void` when there is nothing to carry.
    associatedtype Detail = Void

    /// Closes modals and switches to `destination.tab`; returns once the switch is done.
    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError)
    /// Attaches `destination.list` beneath the destination (when the route names one) for back
    /// navigation, and returns the stack the destination goes on.
    func attachList(for destination: NavigationDestination) throws(NavigationStepError) -> Stack
    /// Fetches what the destination needs (the single item of a detail screen). nil: there is
    /// nothing to show (the item is gone). Runs in a task the navigator cancels when it gives up
    /// (logout, step timeout, `cancel`): honour `Task.isCancelled` in long fetches.
    func resolveDetail(for destination: NavigationDestination, in stack: Stack) async throws(NavigationStepError) -> Detail?
    /// Pushes or presents (per `destination.presentation`) the resolved destination.
    func show(_ detail: Detail, in stack: Stack, for destination: NavigationDestination) throws(NavigationStepError)
    /// Presents login (an auth-required destination waits for `didCompleteLogin`).
    func presentLogin()
}

/// How a detail resolved, for `CallbackNavigationHost`.
public enum DetailResolution: Sendable, Equatable {
    case found
    /// There is nothing to show (the coordinator seed's `resolveDetail` returning nil).
    case notFound
    case failed(NavigationStepError)
}

/// The same steps with completion handlers, the shape of the coordinator seed's
/// `selectTab(for:completion:)`. This is what the navigator drives: a step completes when its
/// completion is called, so a test (or `MockBridgeHost`, or `bridgectl host --stdio`) decides the
/// moment, and every interleaving can be replayed exactly. `AsyncNavigationHostAdapter` turns a
/// `NavigationHost` into one.
///
/// Rules for implementations: call each completion once (later calls, and calls after
/// `cancelSteps`, are ignored); a completion may be called before the method returns.
@MainActor
public protocol CallbackNavigationHost: AnyObject {
    func selectTab(for destination: NavigationDestination, completion: @escaping @MainActor (Result<Void, NavigationStepError>) -> Void)
    func attachList(for destination: NavigationDestination) throws(NavigationStepError)
    func resolveDetail(for destination: NavigationDestination, completion: @escaping @MainActor (DetailResolution) -> Void)
    func show(for destination: NavigationDestination) throws(NavigationStepError)
    func presentLogin()
    /// The navigator gave up on this destination (logout, step timeout, cancel): stop its work
    /// and forget what was prepared for it.
    func cancelSteps(for destination: NavigationDestination)
}

/// Whether a person is logged in, read at every step of an auth-required navigation.
@MainActor
public protocol AuthState: AnyObject {
    var isLoggedIn: Bool { get }
}
