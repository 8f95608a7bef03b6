import DeeplinkRouting

/// The app's door to other apps (the map-app seed's `ApplicationOpening`): whether a URL can be
/// opened, and opening it. On iOS this is `UIApplication.shared.canOpenURL` and
/// `open(_:options:completionHandler:)`; tests and `MockBridgeHost` answer from a set of installed
/// apps. URLs are strings here (the routing layer builds them); the app makes `URL`s of them.
///
/// The trap this protocol cannot hide: `canOpenURL` says no for any scheme Info.plist's
/// `LSApplicationQueriesSchemes` does not list, even when the app is installed. `bridgectl lint`
/// checks the manifest's `queriedURLSchemes` against every scheme routes.json opens.
@MainActor
public protocol ApplicationOpening: AnyObject {
    func canOpen(_ url: String) -> Bool
    /// Opens `url`; `completion(true)` once it opened, `false` when it did not. Call it once.
    func open(_ url: String, completion: @escaping @MainActor (Bool) -> Void)
}

/// Where an external destination went.
public enum ExternalOpenOutcome: Sendable, Equatable, CustomStringConvertible {
    /// The provider's app opened with the destination.
    case openedApp(provider: String)
    /// The app could not be opened; its fallback (mobile web or App Store page) did.
    case openedFallback(provider: String)

    public var provider: String {
        switch self {
        case .openedApp(let provider), .openedFallback(let provider): return provider
        }
    }

    /// "app" or "fallback".
    public var target: String {
        switch self {
        case .openedApp: return "app"
        case .openedFallback: return "fallback"
        }
    }

    public var description: String { "opened_\(target)(\(provider))" }
}

/// Why an external destination was not opened: the map-app seed's `ExternalMapRoutingError`.
public enum ExternalRouteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The destination is incomplete or out of range (the contract and routes.json keep these out;
    /// this is the last check).
    case invalidDestination(String)
    /// No URL could be built for the provider (routes.json does not know it, or a field is missing).
    case schemeCreationFailed(provider: String)
    /// The app cannot be opened and the provider has no fallback.
    case fallbackUnavailable(provider: String)
    /// Neither the app nor its fallback can be opened.
    case appNotInstalled(provider: String)
    /// `open` reported failure (for the app, or for the fallback).
    case openFailed(provider: String)

    /// A stable snake_case name: the `reason` of the reply's `details`.
    public var code: String {
        switch self {
        case .invalidDestination: return "invalid_destination"
        case .schemeCreationFailed: return "scheme_creation_failed"
        case .fallbackUnavailable: return "fallback_unavailable"
        case .appNotInstalled: return "app_not_installed"
        case .openFailed: return "open_failed"
        }
    }

    public var provider: String? {
        switch self {
        case .invalidDestination: return nil
        case .schemeCreationFailed(let provider), .fallbackUnavailable(let provider), .appNotInstalled(let provider),
             .openFailed(let provider):
            return provider
        }
    }

    public var description: String {
        switch self {
        case .invalidDestination(let reason): return "invalid destination: \(reason)"
        case .schemeCreationFailed(let provider): return "no URL can be built for \(provider)"
        case .fallbackUnavailable(let provider): return "\(provider) is not installed and has no fallback"
        case .appNotInstalled(let provider): return "\(provider) is not installed and its fallback cannot be opened"
        case .openFailed(let provider): return "opening \(provider) failed"
        }
    }
}

/// The map-app seed's router policy, for any external route of routes.json: check the destination,
/// build the provider's app URL, open the app if it can be opened; else its fallback if it has one
/// and it can be opened; else a typed failure.
@MainActor
public struct ExternalRouter {
    public let opener: any ApplicationOpening

    public init(opener: any ApplicationOpening) {
        self.opener = opener
    }

    public func open(_ deeplink: ParsedDeeplink, completion: @escaping @MainActor (Result<ExternalOpenOutcome, ExternalRouteError>) -> Void) {
        guard let external = deeplink.configuration.external else {
            return completion(.failure(.invalidDestination("route \(deeplink.configuration.name) is not an external destination")))
        }
        let provider = deeplink.fieldValues[external.providerField] ?? ""
        if let problem = external.problem(with: deeplink.fieldValues) {
            if external.provider(named: provider) == nil, !provider.isEmpty {
                return completion(.failure(.schemeCreationFailed(provider: provider)))
            }
            return completion(.failure(.invalidDestination(problem)))
        }
        let links: ExternalLinks
        switch deeplink.externalLinks() {
        case .failure: return completion(.failure(.schemeCreationFailed(provider: provider)))
        case .success(let built): links = built
        }
        if opener.canOpen(links.app) {
            return opener.open(links.app) { opened in
                completion(opened ? .success(.openedApp(provider: links.provider)) : .failure(.openFailed(provider: links.provider)))
            }
        }
        guard let fallback = links.fallback else {
            return completion(.failure(.fallbackUnavailable(provider: links.provider)))
        }
        guard opener.canOpen(fallback) else {
            return completion(.failure(.appNotInstalled(provider: links.provider)))
        }
        opener.open(fallback) { opened in
            completion(opened ? .success(.openedFallback(provider: links.provider)) : .failure(.openFailed(provider: links.provider)))
        }
    }
}
