import BridgeKit

/// Once per app: the contracts compiled into the build (shared by every WebView), and the app's
/// one navigator (shared with push, AlimTalk and Universal Links).
func makeNavigator(coordinator: NavigationHost, session: AuthState) throws -> (CompiledContracts, DeeplinkNavigator) {
    let compiled = try CompiledContracts(contracts: try ContractSet.bundled())
    let navigator = DeeplinkNavigator(host: coordinator,          // your NavigationHost
                                      auth: session,              // your AuthState
                                      duplicateWindowMs: compiled.contracts.manifest.limits.duplicateWindowMs,
                                      appState: .coldStart)
    return (compiled, navigator)
}

/// One bridge per WebView, opened with the link that opened the page (nil for an in-app page);
/// the recorder receives the analytics events.
func makeBridge(compiled: CompiledContracts, navigator: DeeplinkNavigator, analytics: HostRecorder,
                linkThatOpenedThePage: String?) throws -> WebKitMessageAdapter {
    let bridge = try BridgeHost(compiled: compiled, navigator: navigator, recorder: analytics)
    try bridge.open(entry: linkThatOpenedThePage)
    return WebKitMessageAdapter(host: bridge)
}

/// Each message, as the WebView's handler receives it (BridgeScriptMessageHandler does exactly
/// this with a WKScriptMessage): the body as WebKit delivered it, the origin and the frame from
/// message.frameInfo, never from the page.
func handle(body: Any, securityOrigin: (protocol: String, host: String, port: Int), isMainFrame: Bool,
            adapter: WebKitMessageAdapter, replyHandler: (Any?, String?) -> Void) {
    let origin = WebOrigin(scheme: securityOrigin.protocol, host: securityOrigin.host, port: securityOrigin.port)
    let reply = adapter.receive(body: body, origin: origin, isMainFrame: isMainFrame)
    replyHandler(reply?.text, nil)                             // nil reply: a notification
}
