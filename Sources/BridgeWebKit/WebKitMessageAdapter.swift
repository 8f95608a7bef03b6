import Foundation
import JSONCore
import BridgeContracts
import BridgeHost

/// `BridgeHost` for messages exactly as WebKit hands them over (`WKScriptMessage`): the body as
/// JSON text or as an already-converted JavaScript value (a Foundation tree), the origin as
/// (protocol, host, port), and whether the frame is the main frame. Platform-independent: the
/// `WKScriptMessageHandlerWithReply` shell (`BridgeScriptMessageHandler`, Apple platforms only)
/// only unpacks a `WKScriptMessage` and calls `receive`.
///
/// - A string body is the page's JSON text and goes to the host byte for byte (duplicate keys,
///   the size limit and every parse error as for any raw message).
/// - Any other body is converted by `ScriptMessageBody` (no JSONSerialization, limits measured on
///   the tree, NaN and non-string keys refused with their JSON Pointer), then handed to the host
///   as its canonical JSON text. A body that cannot be converted is answered with
///   `INVALID_MESSAGE`, echoing the top-level `id` when one can be read, like any message.
///
/// On the main actor, like the host: WebKit delivers script messages there.
@MainActor
public final class WebKitMessageAdapter {
    public let host: BridgeHost

    public init(host: BridgeHost) {
        self.host = host
    }

    /// The reply to hand to WebKit's `replyHandler` (`reply.text`), or nil for a notification;
    /// returns once the host has answered (after the navigation's first steps).
    public func receive(body: Any, origin: WebOrigin, isMainFrame: Bool) async -> BridgeReply? {
        await withCheckedContinuation { continuation in
            receive(body: body, origin: origin, isMainFrame: isMainFrame) { continuation.resume(returning: $0) }
        }
    }

    /// The callback form: `reply` is called exactly once, perhaps later (nil for a notification).
    public func receive(body: Any, origin: WebOrigin, isMainFrame: Bool, reply: @escaping @MainActor (BridgeReply?) -> Void) {
        if let text = body as? String {
            host.receive(body: text, origin: origin.serialization, isMainFrame: isMainFrame, reply: reply)
            return
        }
        let limits = host.contracts.manifest.limits
        let converted: ScriptMessageBody.Converted
        do {
            converted = try ScriptMessageBody.convert(body, limits: .init(maxBytes: limits.maxMessageBytes, maxDepth: limits.maxDepth))
        } catch {
            reply(BridgeReply(id: Self.readableID(in: body), outcome: .failure(BridgeError(.invalidMessage,
                "the message is not a JSON value: \(error)",
                details: [["instanceLocation": .string(error.pointer), "reason": .string(error.kind.rawValue), "error": .string(error.message)]]))))
            return
        }
        host.receive(body: converted.canonicalText, origin: origin.serialization, isMainFrame: isMainFrame, reply: reply)
    }

    /// The request id the page can settle its promise with, read from a body that is not JSON:
    /// a top-level string `id` of 1...128 characters, as the host reads it from text.
    private static func readableID(in body: Any) -> String? {
        guard let dictionary = body as? NSDictionary, let id = dictionary["id"] as? String,
              !id.isEmpty, id.unicodeScalars.count <= 128 else { return nil }
        return id
    }
}
