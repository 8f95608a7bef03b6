import BridgeKit

/// Once per app: the contracts compiled into the build (shared by every WebView), and the app's
/// one navigator (shared with push, AlimTalk and Universal Links).
@MainActor
func makeNavigator(coordinator: some NavigationHost, session: AuthState) throws -> (CompiledContracts, DeeplinkNavigator) {
    let compiled = try CompiledContracts(contracts: try ContractSet.bundled())
    let navigator = DeeplinkNavigator(host: coordinator,          // your NavigationHost (async/await)
                                      auth: session,              // your AuthState
                                      duplicateWindowMs: compiled.contracts.manifest.limits.duplicateWindowMs,
                                      appState: .coldStart)
    return (compiled, navigator)
}

/// One bridge per WebView, opened with the link that opened the page (nil for an in-app page);
/// the recorder receives the analytics events.
@MainActor
func makeBridge(compiled: CompiledContracts, navigator: DeeplinkNavigator, analytics: HostRecorder,
                linkThatOpenedThePage: String?) throws -> WebKitMessageAdapter {
    let bridge = try BridgeHost(compiled: compiled, navigator: navigator, recorder: analytics)
    try bridge.open(entry: linkThatOpenedThePage)
    return WebKitMessageAdapter(host: bridge)
}

/// Each message, as the WebView's handler receives it (BridgeScriptMessageHandler does exactly
/// this with a WKScriptMessage): the body as WebKit delivered it, the origin and the frame from
/// message.frameInfo, never from the page. Returns what WebKit's reply handler takes.
@MainActor
func handle(body: Any, securityOrigin: (protocol: String, host: String, port: Int), isMainFrame: Bool,
            adapter: WebKitMessageAdapter) async -> (Any?, String?) {
    let origin = WebOrigin(scheme: securityOrigin.protocol, host: securityOrigin.host, port: securityOrigin.port)
    let reply = await adapter.receive(body: body, origin: origin, isMainFrame: isMainFrame)
    return (reply?.text, nil)                                  // nil reply: a notification
}
