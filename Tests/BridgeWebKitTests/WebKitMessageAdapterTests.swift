import Foundation
import Testing
import JSONCore
import BridgeHost
import BridgeHostTesting
import BridgeWebKit
import BridgeContracts
import TestSupport

@Suite("WebKitMessageAdapter: the host fed exactly as WebKit hands messages over")
@MainActor
struct WebKitMessageAdapterTests {
    static let sendy = WebOrigin(scheme: "https", host: "sendy.co.kr", port: 0)

    static func adapter() throws -> (WebKitMessageAdapter, MockBridgeHost) {
        let mock = try MockBridgeHost(contracts: ContractSet.load(directory: ExampleContracts.path))
        try mock.open(entry: "https://sendy.co.kr/event/new-user-promo?campaign_id=c1&utm_source=kakaotalk")
        return (WebKitMessageAdapter(host: mock.bridge), mock)
    }

    @Test("the recorded object shape (an NSDictionary body) navigates, as its JSON text would")
    func dictionaryBodyNavigates() async throws {
        let (adapter, mock) = try Self.adapter()
        let reply = await adapter.receive(body: try WebKitShape.named("object").foundationBody, origin: Self.sendy, isMainFrame: true)
        #expect(reply?.ok == true, "\(String(describing: reply?.text))")
        #expect(reply?.id == "shape-object")
        #expect(reply?.result?.route == "applyForm")
        #expect(mock.navigations.map(\.route) == ["applyForm"])
    }

    @Test("the recorded string shape goes to the host as text")
    func stringBodyNavigates() async throws {
        let (adapter, mock) = try Self.adapter()
        let reply = await adapter.receive(body: try WebKitShape.named("string").foundationBody, origin: Self.sendy, isMainFrame: true)
        #expect(reply?.ok == true)
        #expect(reply?.id == "shape-string")
        #expect(mock.navigations.count == 1)
    }

    @Test("NaN in the payload: INVALID_MESSAGE naming /payload/…, the id echoed, nothing navigates")
    func notANumberIsAnswered() async throws {
        let (adapter, mock) = try Self.adapter()
        let body: NSDictionary = ["v": 1, "id": "req-nan", "action": "apply", "version": 1,
                                  "payload": ["slug": "new-user-promo", "count": Double.nan]]
        let reply = await adapter.receive(body: body, origin: Self.sendy, isMainFrame: true)
        #expect(reply?.id == "req-nan")
        #expect(reply?.error?.code == .invalidMessage)
        #expect(reply?.error?.details.first?["instanceLocation"] == "/payload/count")
        #expect(mock.navigations.isEmpty)
    }

    @Test("a body nested past the manifest's depth is answered INVALID_MESSAGE, not walked further")
    func tooDeepIsAnswered() async throws {
        let (adapter, _) = try Self.adapter()
        var payload: Any = NSArray()
        for _ in 0..<70 { payload = NSDictionary(dictionary: ["x": payload]) }
        let body: NSDictionary = ["v": 1, "id": "req-deep", "action": "apply", "version": 1, "payload": payload]
        let reply = await adapter.receive(body: body, origin: Self.sendy, isMainFrame: true)
        #expect(reply?.error?.code == .invalidMessage)
        #expect(reply?.error?.details.first?["reason"] == "tooDeep")
    }

    @Test("a dictionary with a non-string key is answered, never thrown as an Objective-C exception")
    func nonStringKeyIsAnswered() async throws {
        let (adapter, _) = try Self.adapter()
        let body = NSDictionary(dictionary: [NSNumber(value: 1): "x", "id": "req-key"])
        let reply = await adapter.receive(body: body, origin: Self.sendy, isMainFrame: true)
        #expect(reply?.error?.code == .invalidMessage)
        #expect(reply?.id == "req-key")
    }

    @Test("the origin comes from WebKit's parts: an opaque frame and another host are rejected, port 443 is the same origin")
    func originFromParts() async throws {
        let (adapter, _) = try Self.adapter()
        let body = try WebKitShape.named("object").foundationBody
        #expect(await adapter.receive(body: body, origin: .opaque, isMainFrame: true)?.error?.code == .originRejected)
        #expect(await adapter.receive(body: body, origin: WebOrigin(scheme: "https", host: "evil.example", port: 0), isMainFrame: true)?.error?.code == .originRejected)
        #expect(await adapter.receive(body: body, origin: Self.sendy, isMainFrame: false)?.error?.code == .originRejected)
        #expect(await adapter.receive(body: body, origin: WebOrigin(scheme: "https", host: "sendy.co.kr", port: 443), isMainFrame: true)?.ok == true)
    }

    @Test("a top-level null body (WebKit's NSNull) is answered INVALID_MESSAGE with id null")
    func nullBody() async throws {
        let (adapter, _) = try Self.adapter()
        let reply = await adapter.receive(body: try WebKitShape.named("null").foundationBody, origin: Self.sendy, isMainFrame: true)
        #expect(reply?.id == nil)
        #expect(reply?.error?.code == .invalidMessage)
    }
}
