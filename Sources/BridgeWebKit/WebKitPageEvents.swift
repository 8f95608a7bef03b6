import Foundation
import JSONCore
import BridgeHost

/// How events reach a page in a WebKit web view: the page's receive function
/// (`window.<bridge>Receive`, which the shim installs) is called in the main frame with the
/// message's JSON text. Platform-independent: it reads the web view's current URL and runs script
/// through the two closures the WebKit shell (`init(webView:bridge:)`, Apple platforms only) fills
/// in with `WKWebView.url` and `evaluateJavaScript`; tests fill them in with doubles.
///
/// The host asks `pageLocation` before every post and posts only into an allowed origin; script
/// evaluated on the web view runs in its main frame, so a subframe never gets an event.
@MainActor
public final class WebKitPageEvents: PageEventTransport {
    /// The page's receive function, e.g. "sendyBridgeReceive".
    public let receiveFunction: String
    private let currentURL: @MainActor () -> URL?
    private let evaluate: @MainActor (String) -> Void

    /// - bridge: the manifest's bridge name; the shim's receive function is `<bridge>Receive`.
    public init(bridge: String, currentURL: @escaping @MainActor () -> URL?, evaluate: @escaping @MainActor (String) -> Void) {
        receiveFunction = bridge + "Receive"
        self.currentURL = currentURL
        self.evaluate = evaluate
    }

    /// The origin of the web view's current URL, main frame; nil before anything loaded.
    public var pageLocation: PageLocation? {
        guard let url = currentURL() else { return nil }
        return PageLocation(origin: Self.origin(of: url).serialization, isMainFrame: true)
    }

    public func post(_ event: PageEvent) {
        evaluate(script(for: event))
    }

    /// `typeof window.f === "function" && window.f("<message text>")`: the text as one JSON string
    /// literal that is safe inside a script (the shim parses it as a reply or an event).
    public func script(for event: PageEvent) -> String {
        let argument = JSONValue.string(event.text).serialized(escapeForScript: true)
        return "typeof window.\(receiveFunction) === \"function\" && window.\(receiveFunction)(\(argument))"
    }

    /// The URL's origin as WebKit's security origin would give it; opaque for URLs without a host
    /// (about:blank, data:), which no allowed origin matches.
    static func origin(of url: URL) -> WebOrigin {
        guard let scheme = url.scheme, let host = url.host, !host.isEmpty else { return .opaque }
        return WebOrigin(scheme: scheme, host: host, port: url.port ?? 0)
    }
}

#if canImport(WebKit)
import WebKit

extension WebKitPageEvents {
    /// Events for the page in `webView`: set the result as `host.pageEvents` and keep it alive
    /// (the host holds it weakly), e.g. beside the script message handler.
    public convenience init(webView: WKWebView, bridge: String) {
        self.init(bridge: bridge, currentURL: { [weak webView] in webView?.url },
                  evaluate: { [weak webView] script in webView?.evaluateJavaScript(script, completionHandler: nil) })
    }
}
#endif
