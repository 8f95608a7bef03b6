import Foundation
import Testing
import JSONCore
import BridgeContracts
import BridgeHost
import BridgeHostTesting
import BridgeWebKit
import TestSupport

/// The WebKit event transport with its web view replaced by a URL and a script log.
@Suite("Events into a WebKit page")
@MainActor
struct WebKitPageEventsTests {
    final class FakeWebView {
        var url: URL?
        var scripts: [String] = []
    }

    func host() throws -> (MockBridgeHost, FakeWebView, WebKitPageEvents) {
        let host = try MockBridgeHost(contracts: try ContractSet.load(directory: RepositoryPaths.contracts.path))
        let view = FakeWebView()
        let events = WebKitPageEvents(bridge: host.contracts.manifest.bridge, currentURL: { view.url },
                                      evaluate: { view.scripts.append($0) })
        host.bridge.pageEvents = events
        return (host, view, events)
    }

    @Test func anEventIsCalledIntoTheReceiveFunctionAsOneStringLiteral() throws {
        let (host, view, events) = try host()
        view.url = URL(string: "https://event.sendy.co.kr/event/new-user-promo?utm_source=kakaotalk")
        try host.bridge.emit(event: "login_state_changed", version: 1, payload: ["loggedIn": true])
        #expect(view.scripts == [#"typeof window.sendyBridgeReceive === "function" && window.sendyBridgeReceive("{\"v\":1,\"event\":\"login_state_changed\",\"version\":1,\"payload\":{\"loggedIn\":true}}")"#])
        _ = events
    }

    @Test func aPageThatNavigatedElsewhereOrHasNothingLoadedGetsNothing() throws {
        let (host, view, events) = try host()
        for url in [URL(string: "https://evil.example/phish"), URL(string: "about:blank"), URL(string: "http://sendy.co.kr/"), nil] {
            view.url = url
            #expect(throws: PageEventError.self, "\(url?.absoluteString ?? "nothing loaded")") {
                try host.bridge.emit(event: "login_state_changed", version: 1, payload: ["loggedIn": true])
            }
        }
        #expect(view.scripts.isEmpty)
        _ = events
    }

    @Test func textThatCouldCloseAScriptIsEscaped() throws {
        let (_, _, events) = try host()
        let script = events.script(for: PageEvent(event: "note", version: 1, payload: ["text": "</script>\u{2028}"]))
        #expect(!script.contains("</script>") && !script.contains("\u{2028}"))
    }

    @Test func theOriginKeepsANonDefaultPortAndDropsTheDefaultOne() throws {
        let (_, view, events) = try host()
        view.url = URL(string: "https://sendy.co.kr:443/a")
        #expect(events.pageLocation == PageLocation(origin: "https://sendy.co.kr", isMainFrame: true))
        view.url = URL(string: "https://sendy.co.kr:8443/a")
        #expect(events.pageLocation == PageLocation(origin: "https://sendy.co.kr:8443", isMainFrame: true))
    }
}
