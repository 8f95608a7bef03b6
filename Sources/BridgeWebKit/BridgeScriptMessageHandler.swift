#if canImport(WebKit)
import WebKit
import BridgeHost

/// The app's script message handler: register it for the manifest's bridge name, e.g.
/// `controller.addScriptMessageHandler(BridgeScriptMessageHandler(host: bridge), contentWorld: .page, name: contracts.manifest.bridge)`.
/// A thin shell: the origin and frame come from `WKScriptMessage.frameInfo` (filled in by WebKit,
/// never by the page), the body goes to `WebKitMessageAdapter` as WebKit delivered it.
@MainActor
public final class BridgeScriptMessageHandler: NSObject, WKScriptMessageHandlerWithReply {
    public let adapter: WebKitMessageAdapter

    public init(host: BridgeHost) {
        adapter = WebKitMessageAdapter(host: host)
    }

    public func userContentController(_ userContentController: WKUserContentController, didReceive message: WKScriptMessage,
                                      replyHandler: @escaping @MainActor @Sendable (Any?, String?) -> Void) {
        let origin = message.frameInfo.securityOrigin
        adapter.receive(body: message.body,
                        origin: WebOrigin(scheme: origin.protocol, host: origin.host, port: origin.port),
                        isMainFrame: message.frameInfo.isMainFrame) { reply in
            replyHandler(reply?.text, nil)  // exactly once; a notification (no id) settles with null
        }
    }
}
#endif
