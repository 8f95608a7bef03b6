// An app that wants deep link routing and navigation and nothing of the WebView bridge: it links
// DeeplinkRouting and DeeplinkNavigation only (no JSON Schema checker, no jansson, no PCRE2;
// scripts/check-layers.mjs keeps it so). It routes a push payload, a KakaoTalk AlimTalk link, an
// auth-required link, directions to a map app and a link routes.json does not enable from the web
// through the one shared navigator, across a cold start and a login, with an async/await navigation host (the top level
// awaits each navigation), and prints what the app would have done. `make test` compares the
// output with expected-output.txt.
//
// Routes come from contracts/routes.json, embedded at build time by the EmbedResources plugin
// (this target gets that one file, not the bridge contracts). Embedded rather than read from disk
// because that is how an app ships it: the routes a build understands are the ones it was built
// with, whatever the working directory, and editing routes.json rebuilds this program.
import DeeplinkNavigation
import DeeplinkRouting
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The app's own link settings. A bridge app gets the same values from its contract manifest;
/// an app without the bridge states them in its configuration.
let links = LinkConfiguration(
    universalLinkHosts: ["sendy.co.kr", "www.sendy.co.kr"], customScheme: "sendy",
    webBaseURL: "https://sendy.co.kr", pushURLKey: "deeplink")

/// Stands in for the app's coordinator: prints each navigation step instead of moving screens.
/// The steps are async, as in an app: the tab switch and the detail fetch suspend (here they only
/// yield), and the navigator runs one navigation at a time.
@MainActor
final class PrintingApp: NavigationHost, AuthState {
    var isLoggedIn = false

    func selectTab(for destination: NavigationDestination) async throws(NavigationStepError) {
        print("    app: select tab \(destination.tab) for \(destination.envelopeID)")
        await Task.yield()  // the tab bar animates
    }

    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {
        if let list = destination.list { print("    app: attach list \(list) beneath \(destination.envelopeID)") }
    }

    func resolveDetail(for destination: NavigationDestination, in stack: Void) async throws(NavigationStepError) -> String? {
        await Task.yield()  // the detail screen's one fetch
        return destination.screen
    }

    func show(_ screen: String, in stack: Void, for destination: NavigationDestination) throws(NavigationStepError) {
        let campaign = destination.deeplink.campaignMetadata
        let fields = campaign.queryItems.map { "\($0.name)=\($0.value)" } + ["source=\(campaign.source.rawValue)"]
        print("    app: \(destination.presentation.rawValue) \(screen) \(destination.url) for \(destination.envelopeID)")
        print("         campaign: \(fields.joined(separator: " "))")
    }

    func presentLogin() {
        print("    app: present login")
    }
}

/// Stands in for UIApplication's canOpenURL and open: Kakao Map is the one map app installed.
@MainActor
final class PrintingOpener: ApplicationOpening {
    let installed: Set<String> = ["kakaomap", "https"]

    func canOpen(_ url: String) -> Bool {
        installed.contains(String(url.prefix { $0 != ":" }))
    }

    func open(_ url: String, completion: @escaping @MainActor (Bool) -> Void) {
        print("    app: open \(url)")
        completion(true)
    }
}

func describe(_ disposition: NavigationDisposition) -> String {
    switch disposition {
    case .navigated(let id): return "navigated \(id)"
    case .opened(let id, let outcome): return "\(id) \(outcome)"
    case .inProgress(let id): return "\(id) is navigating"
    case .pendingLogin(let id): return "\(id) waits for login"
    case .waitingForReady(let id): return "\(id) waits until the app is ready"
    case .duplicate(let id, let original): return "\(id) is a duplicate of \(original), consumed once"
    case .failed(let id, let failure): return "\(id) failed: \(failure)"
    case .refused(let id, let refusal): return "\(id) refused: \(refusal)"
    case .cancelled(let id, _): return "\(id) cancelled"
    case .offered(let id): return "\(id) offered, not navigated (the person is browsing)"
    }
}

func fail(_ message: String) -> Never {
    let line = Array("RoutingOnly: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let handler: DeeplinkHandler
do {
    guard let text = BundledRoutes.files["routes.json"] else { fail("routes.json was not embedded") }
    // The routes and the entry channels they declare (the messenger rules live in routes.json).
    let routes = try RoutesFile.routes(fromJSON: text)
    handler = DeeplinkHandler(routes: try RouteTable(routes: routes), links: links, channels: try RoutesFile.channels(fromJSON: text))
} catch {
    fail("\(error)")
}
print("routes: \(handler.routes.names.joined(separator: ", "))")

let app = PrintingApp()
let opener = PrintingOpener()
let navigator = DeeplinkNavigator(host: app, auth: app, clock: ManualNavigationClock(), duplicateWindowMs: 2_000,
                                  appState: .coldStart)
navigator.opener = opener

/// Parses one entry and hands it to the navigator, printing both steps; when the navigation
/// runs, waits for its outcome.
@MainActor
func open(_ title: String, _ parse: () throws(DeeplinkError) -> ParsedDeeplink) async {
    print("\n\(title)")
    do {
        let link = try parse()
        print("  parsed: \(link.configuration.name) \(link.path) (source \(link.campaignMetadata.source.rawValue))")
        for warning in link.warnings { print("  warning: \(warning)") }
        let disposition = navigator.navigate(link)
        print("  navigator: \(describe(disposition))")
        if case .inProgress(let id) = disposition, let outcome = await navigator.consumption(of: id) {
            print("  navigator: \(id) \(outcome)")
        }
    } catch {
        print("  not routed: \(error)" + (error.fallbackURL.map { "; fallback \($0)" } ?? ""))
    }
}

/// Waits until every envelope the navigator holds is consumed (after ready or login).
@MainActor
func settle() async {
    var held = navigator.waiting.map(\.id)
    if let current = navigator.current { held.insert(current.envelope.id, at: 0) }
    for id in held {
        if let outcome = await navigator.consumption(of: id) { print("  navigator: \(id) \(outcome)") }
    }
}

print("\ncold start, logged out: the navigator holds entries until the tab bar exists")

let pushPayload = """
    {"aps": {"alert": "가을 이벤트 시작"}, "deeplink": "https://sendy.co.kr/event/new-user-promo?utm_source=braze&utm_medium=push",
     "campaign_id": "2025Q3_signup_retarget", "group_id": "B"}
    """
await open("push notification tapped (payload as delivered)") { () throws(DeeplinkError) in
    try handler.parse(pushPayloadJSON: pushPayload)
}
await open("the same push delivered again") { () throws(DeeplinkError) in
    try handler.parse(pushPayloadJSON: pushPayload)
}

print("\napp ready")
navigator.becomeReady()
await settle()

await open("KakaoTalk AlimTalk button") { () throws(DeeplinkError) in
    try handler.parse(
        "https://sendy.co.kr/vehicles?vehicleType=1ton&region=%EC%84%9C%EC%9A%B8&campaign_id=2025Q3_fleet&variant=list_cta&utm_source=kakaotalk&utm_medium=alimtalk")
}
await open("order link from an e-mail (needs login)") { () throws(DeeplinkError) in
    try handler.parse("https://sendy.co.kr/order/12?utm_source=newsletter", source: .externalURL)
}

print("\nlogin completed")
app.isLoggedIn = true
navigator.didCompleteLogin()
await settle()

await open("AlimTalk 길찾기 button: directions to the pickup point in Kakao Map (installed)") { () throws(DeeplinkError) in
    try handler.parse("https://sendy.co.kr/directions?lat=37.4979502&lng=127.0276368&name=%EA%B0%95%EB%82%A8%EC%97%AD%202%EB%B2%88%20%EC%B6%9C%EA%B5%AC&provider=kakaomap&utm_source=kakaotalk")
}
await open("the same directions in TMAP, which is not installed: its App Store page") { () throws(DeeplinkError) in
    try handler.parse("https://sendy.co.kr/directions?lat=37.4979502&lng=127.0276368&name=%EA%B0%95%EB%82%A8%EC%97%AD&provider=tmap&utm_source=kakaotalk")
}

await open("a checkout link posted on the web (routes.json enables checkout from push, AlimTalk, the app and CTAs)") { () throws(DeeplinkError) in
    try handler.parse("https://sendy.co.kr/checkout/k-77?utm_source=blog", source: .externalURL)
}

await open("a link this build does not know") { () throws(DeeplinkError) in
    try handler.parse("sendy://coupons/autumn")
}

print("\nenvelopes")
for entry in navigator.log.entries {
    print("  \(entry.envelopeID) \(entry.routeName): \(entry.outcome)")
}
