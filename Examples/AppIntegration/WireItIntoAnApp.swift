import BridgeKit

/// Once per app: the app's own contracts, embedded at build time by BridgeContractsPlugin from the
/// target's contracts/ folder (`ContractSet.embedded()`, shared by every WebView), the app's one
/// deep link handler and one navigator (shared with push, AlimTalk and Universal Links).
@MainActor
func makeNavigator(contracts: ContractSet, coordinator: some NavigationHost,
                   session: AuthState) throws -> (CompiledContracts, DeeplinkHandler, DeeplinkNavigator) {
    let compiled = try CompiledContracts(contracts: contracts)
    let links = try DeeplinkHandler(contracts: contracts)
    let navigator = DeeplinkNavigator(host: coordinator,          // your NavigationHost (async/await)
                                      auth: session,              // your AuthState
                                      duplicateWindowMs: contracts.manifest.limits.duplicateWindowMs,
                                      appState: .coldStart)
    return (compiled, links, navigator)
}

/// share v1's payload, read with the app's own Decodable type (a payload type of `bridgectl generate
/// swift` works the same), and the result its schema (share.result.v1.json) allows.
struct SharePayload: Decodable, Sendable {
    let url: String
    let title: String
    let text: String?
}

struct ShareOutcome: Encodable, Sendable {
    let shared: Bool
    let target: String?
}

/// The app's share sheet, behind a protocol so that tests inject a double.
protocol ShareSheet: Sendable {
    /// Where the person shared to, or nil when they closed the sheet.
    func present(url: String, title: String, text: String?) async -> String?
}

/// The app's code for the custom actions (`"handler": "custom"`) this build takes: the host
/// refuses to start without a handler for each, and checks each result against its schema.
func customActions(shareSheet: some ShareSheet) -> CustomActions {
    var actions = CustomActions()
    actions.register("share", version: 1, payload: SharePayload.self) { request in
        // request.campaign (the page's campaign metadata) and request.origin are there too.
        let target = await shareSheet.present(url: request.payload.url, title: request.payload.title,
                                              text: request.payload.text)
        return ShareOutcome(shared: target != nil, target: target)
    }
    return actions
}

/// One bridge per WebView, opened with the link that opened the page (nil for an in-app page);
/// the recorder receives the analytics events.
@MainActor
func makeBridge(compiled: CompiledContracts, links: DeeplinkHandler, navigator: DeeplinkNavigator,
                customActions: CustomActions, analytics: HostRecorder,
                linkThatOpenedThePage: String?) throws -> WebKitMessageAdapter {
    let bridge = try BridgeHost(compiled: compiled, navigator: navigator, handler: links,
                                customActions: customActions, recorder: analytics)
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
