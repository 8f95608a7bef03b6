// The app-integration doc's example, compiled and run with `import BridgeKit` alone: the doc's
// code block is WireItIntoAnApp.swift, byte for byte (scripts/check-doc-snippets.mjs); this file
// gives it an app's stand-ins and drives one CTA message across a cold start, then a custom action.
// `make example` compares the output with expected-output.txt.
//
// Its contracts/ is a link to the test contract set Tests/contracts/custom-action (the example
// set's apply v1 next to share v1, `"handler": "custom"`, which the example set has not), embedded
// by BridgeContractsPlugin as an app's own set is.
import BridgeKit

/// The app's coordinator: prints each navigation step instead of moving screens.
final class PrintingCoordinator: NavigationHost, AuthState {
    var isLoggedIn = true

    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {
        print("  app: select tab \(destination.tab)")
    }

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {
        if let list = destination.list { print("  app: attach list \(list)") }
    }

    func resolveDetail(for destination: NavigationDestination, in stack: Void) async throws(NavigationStepError) -> Void? {
        ()
    }

    func show(_ detail: Void, in stack: Void, for destination: NavigationDestination) throws(NavigationStepError) {
        print("  app: \(destination.presentation.rawValue) \(destination.screen) \(destination.url)")
    }

    func presentLogin() {
        print("  app: present login")
    }
}

/// The app's share sheet: prints what it would show, and the person picks KakaoTalk.
struct PrintingShareSheet: ShareSheet {
    func present(url: String, title: String, text: String?) async -> String? {
        print("  app: share sheet \(title) \(url)")
        return "kakaotalk"
    }
}

/// The app's analytics adapter: prints each event.
final class PrintingAnalytics: HostRecorder {
    func record(_ record: HostRecord) {
        if case .analytics(let event) = record {
            print("  analytics: \(event)")  // an SDK takes event.name and event.anyProperties
        }
    }
}

let coordinator = PrintingCoordinator()
let analytics = PrintingAnalytics()
do {
    let (compiled, links, navigator) = try makeNavigator(contracts: try ContractSet.embedded(),
                                                         coordinator: coordinator, session: coordinator)
    let adapter = try makeBridge(compiled: compiled, links: links, navigator: navigator,
        customActions: customActions(shareSheet: PrintingShareSheet()), analytics: analytics,
        linkThatOpenedThePage: "https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3_signup_retarget&utm_source=kakaotalk")
    print("a CTA message during the cold start (the body as WebKit delivers an object):")
    let body: [String: Any] = ["v": 1, "id": "app-000001", "action": "apply", "version": 1,
                               "payload": ["slug": "new-user-promo"]]
    let (reply, _) = await handle(body: body, securityOrigin: (protocol: "https", host: "sendy.co.kr", port: 0),
                                  isMainFrame: true, adapter: adapter)
    print("  reply: \(reply ?? "none")")
    print("the app is ready:")
    let held = navigator.waiting.map(\.id)
    navigator.becomeReady()
    for id in held { _ = await navigator.consumption(of: id) }
    print("a custom action: the app's own code answers share, and its result is checked before the reply:")
    let share: [String: Any] = ["v": 1, "id": "app-000002", "action": "share", "version": 1,
                                "payload": ["url": "https://sendy.co.kr/event/new-user-promo", "title": "센디 첫 이용 혜택"]]
    let (shared, _) = await handle(body: share, securityOrigin: (protocol: "https", host: "sendy.co.kr", port: 0),
                                   isMainFrame: true, adapter: adapter)
    print("  reply: \(shared ?? "none")")
} catch {
    print("AppIntegration: \(error)")
}
