// An app that wants deep link routing and navigation and nothing of the WebView bridge: it links
// DeeplinkRouting and DeeplinkNavigation only (no JSON Schema checker, no jansson, no PCRE2;
// scripts/check-layers.mjs keeps it so). It routes a push payload, a KakaoTalk AlimTalk link and
// an auth-required link through the one shared navigator, across a cold start and a login, and
// prints what the app would have done. `make test` compares the output with expected-output.txt.
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
final class PrintingApp: NavigationHost, AuthState {
    var isLoggedIn = false

    func selectTab(_ tab: String, for destination: NavigationDestination) throws(NavigationStepError) {
        print("    app: select tab \(tab) for \(destination.envelopeID)")
    }

    func attachList(_ listRoute: String, for destination: NavigationDestination) throws(NavigationStepError) {
        print("    app: attach list \(listRoute) beneath \(destination.envelopeID)")
    }

    func show(_ destination: NavigationDestination) throws(NavigationStepError) {
        let campaign = destination.deeplink.campaignMetadata
        let fields = campaign.queryItems.map { "\($0.name)=\($0.value)" } + ["source=\(campaign.source.rawValue)"]
        print("    app: \(destination.presentation.rawValue) \(destination.screen) \(destination.url) for \(destination.envelopeID)")
        print("         campaign: \(fields.joined(separator: " "))")
    }

    func presentLogin() {
        print("    app: present login")
    }
}

func describe(_ disposition: NavigationDisposition) -> String {
    switch disposition {
    case .navigated(let id): return "navigated \(id)"
    case .pendingLogin(let id): return "\(id) waits for login"
    case .waitingForReady(let id): return "\(id) waits until the app is ready"
    case .duplicate(let id, let original): return "\(id) is a duplicate of \(original), consumed once"
    case .failed(let id, let reason): return "\(id) failed: \(reason)"
    }
}

func fail(_ message: String) -> Never {
    let line = Array("RoutingOnly: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let handler: DeepLinkHandler
do {
    guard let text = BundledRoutes.files["routes.json"] else { fail("routes.json was not embedded") }
    let routes = try RoutesFile.routes(fromJSON: text)
    handler = DeepLinkHandler(routes: try RouteTable(routes: routes), links: links)
} catch {
    fail("\(error)")
}
print("routes: \(handler.routes.names.joined(separator: ", "))")

let app = PrintingApp()
let navigator = DeeplinkNavigator(host: app, auth: app, clock: ManualNavigationClock(), duplicateWindowMs: 2_000,
                                  appState: .coldStart)

/// Parses one entry and hands it to the navigator, printing both steps.
@MainActor
func open(_ title: String, _ parse: () throws(DeeplinkError) -> ParsedDeeplink) {
    print("\n\(title)")
    do {
        let link = try parse()
        print("  parsed: \(link.configuration.name) \(link.path) (source \(link.campaignMetadata.source.rawValue))")
        for warning in link.warnings { print("  warning: \(warning)") }
        print("  navigator: \(describe(navigator.navigate(link)))")
    } catch {
        print("  not routed: \(error)" + (error.fallbackURL.map { "; fallback \($0)" } ?? ""))
    }
}

print("\ncold start, logged out: the navigator holds entries until the tab bar exists")

let pushPayload = """
    {"aps": {"alert": "가을 이벤트 시작"}, "deeplink": "https://sendy.co.kr/event/new-user-promo?utm_source=braze&utm_medium=push",
     "campaign_id": "2025Q3_signup_retarget", "group_id": "B"}
    """
open("push notification tapped (payload as delivered)") { () throws(DeeplinkError) in
    try handler.parse(pushPayloadJSON: pushPayload)
}
open("the same push delivered again") { () throws(DeeplinkError) in
    try handler.parse(pushPayloadJSON: pushPayload)
}

print("\napp ready")
navigator.becomeReady()

open("KakaoTalk AlimTalk button") { () throws(DeeplinkError) in
    try handler.parse(
        "https://sendy.co.kr/vehicles?vehicleType=1ton&region=%EC%84%9C%EC%9A%B8&campaign_id=2025Q3_fleet&variant=list_cta&utm_source=kakaotalk&utm_medium=alimtalk")
}
open("order link from an e-mail (needs login)") { () throws(DeeplinkError) in
    try handler.parse("https://sendy.co.kr/order/12?utm_source=newsletter", source: .externalURL)
}

print("\nlogin completed")
app.isLoggedIn = true
navigator.didCompleteLogin()

open("a link this build does not know") { () throws(DeeplinkError) in
    try handler.parse("sendy://coupons/autumn")
}

print("\nenvelopes")
for entry in navigator.log.entries {
    print("  \(entry.envelopeID) \(entry.routeName): \(entry.outcome)")
}
