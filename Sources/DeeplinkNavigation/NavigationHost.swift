import DeeplinkRouting

/// What the navigator asks the app to show: the routed link plus where it lives.
public struct NavigationDestination: Sendable, Equatable {
    public let envelopeID: EnvelopeID
    public let deeplink: ParsedDeeplink

    public init(envelopeID: EnvelopeID, deeplink: ParsedDeeplink) {
        self.envelopeID = envelopeID
        self.deeplink = deeplink
    }

    public var route: RouteDefinition { deeplink.configuration }
    public var tab: String { route.tab }
    /// The route whose screen goes beneath the destination for back navigation, if any.
    public var list: String? { route.list }
    public var screen: String { route.screen }
    public var presentation: Presentation { route.presentation }
    public var url: String { deeplink.url }
}

/// A navigation step the app could not carry out; the envelope is then consumed as failed.
public struct NavigationStepError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The app side of navigation, split in the three steps of the coordinator seed so each can fail
/// on its own: select the tab (closing modals), attach the list for back navigation, then push or
/// present the destination. Login presentation is separate because it is not a destination.
///
/// Calls are synchronous: a UIKit/SwiftUI implementation that animates should do so after
/// returning (the navigator only needs to know whether the step was accepted).
public protocol NavigationHost: AnyObject {
    func selectTab(_ tab: String, for destination: NavigationDestination) throws(NavigationStepError)
    func attachList(_ listRoute: String, for destination: NavigationDestination) throws(NavigationStepError)
    /// Pushes or presents (per `destination.presentation`) the destination screen.
    func show(_ destination: NavigationDestination) throws(NavigationStepError)
    func presentLogin()
}

/// Whether a person is logged in, read at the moment a route needing auth is about to be shown.
public protocol AuthState: AnyObject {
    var isLoggedIn: Bool { get }
}
