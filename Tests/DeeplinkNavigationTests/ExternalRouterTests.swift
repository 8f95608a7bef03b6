import Testing
import DeeplinkRouting
import DeeplinkNavigation

/// A device for the router: which schemes `canOpen` says yes to, which opens fail, and whether
/// opens answer at once or when the test says.
@MainActor
final class MockOpener: ApplicationOpening {
    var openable: Set<String>
    var failingOpens: Set<String> = []
    var holdsOpens = false
    private(set) var asked: [String] = []
    private(set) var opened: [String] = []
    private(set) var held: [(url: String, completion: @MainActor (Bool) -> Void)] = []

    init(openable: Set<String>) { self.openable = openable }

    static func scheme(_ url: String) -> String { String(url.prefix { $0 != ":" }) }

    func canOpen(_ url: String) -> Bool {
        asked.append(url)
        return openable.contains(Self.scheme(url))
    }

    func open(_ url: String, completion: @escaping @MainActor (Bool) -> Void) {
        opened.append(url)
        if holdsOpens { return held.append((url, completion)) }
        completion(!failingOpens.contains(Self.scheme(url)))
    }

    func finishHeld(_ ok: Bool = true) {
        let item = held.removeFirst()
        item.completion(ok)
    }
}

@Suite("The map-app seed's router policy, with a mock opener")
@MainActor
struct ExternalRouterTests {
    let handler: DeeplinkHandler
    init() throws { handler = try repositoryHandler() }

    func directions(_ provider: String, name: String = "강남역") throws -> ParsedDeeplink {
        try handler.route(named: "directions", parameters: [:],
                          query: [("lat", "37.4979502"), ("lng", "127.0276368"), ("name", name), ("provider", provider)])
    }

    func route(_ deeplink: ParsedDeeplink, _ opener: MockOpener) -> Result<ExternalOpenOutcome, ExternalRouteError>? {
        var answer: Result<ExternalOpenOutcome, ExternalRouteError>?
        ExternalRouter(opener: opener).open(deeplink) { answer = $0 }
        return answer
    }

    @Test("installed: the app opens with the destination")
    func installed() throws {
        let opener = MockOpener(openable: ["kakaomap", "https"])
        #expect(route(try directions("kakaomap"), opener) == .success(.openedApp(provider: "kakaomap")))
        #expect(opener.opened == ["kakaomap://route?ep=37.4979502,127.0276368&by=CAR"])
    }

    @Test("not installed, the fallback can be opened: the fallback opens")
    func fallback() throws {
        let opener = MockOpener(openable: ["https"])
        #expect(route(try directions("nmap"), opener) == .success(.openedFallback(provider: "nmap")))
        #expect(opener.asked.first?.hasPrefix("nmap://route/car?") == true)
        #expect(opener.opened == ["https://apps.apple.com/kr/app/id311867728"])
    }

    @Test("not installed and the fallback cannot be opened either (https undeclared): appNotInstalled, nothing opened")
    func appNotInstalled() throws {
        let opener = MockOpener(openable: [])
        #expect(route(try directions("tmap"), opener) == .failure(.appNotInstalled(provider: "tmap")))
        #expect(opener.opened.isEmpty)
        #expect(ExternalRouteError.appNotInstalled(provider: "tmap").code == "app_not_installed")
    }

    @Test("not installed and no fallback: fallbackUnavailable")
    func noFallback() throws {
        let route = RouteDefinition(
            name: "go", pattern: "/go", requiresAuth: false, query: [.init(name: "p", type: .string), .init(name: "q", type: .string)],
            tab: "", screen: "go",
            external: ExternalRoute(providerField: "p", providers: [ExternalProvider(name: "x", app: try ExternalURLTemplate("xapp://go?q={q}"), fallback: nil)]))
        let deeplink = ParsedDeeplink(configuration: route, pathParameters: [:], queryParameters: ["p": ["x"], "q": ["here"]],
                                      campaignMetadata: CampaignMetadata(source: .appInternal), webBaseURL: "https://sendy.co.kr")
        let opener = MockOpener(openable: ["https"])
        #expect(self.route(deeplink, opener) == .failure(.fallbackUnavailable(provider: "x")))
        #expect(opener.opened.isEmpty)
    }

    @Test("open fails, for the app and for the fallback: openFailed")
    func openFailed() throws {
        let app = MockOpener(openable: ["kakaomap"])
        app.failingOpens = ["kakaomap"]
        #expect(route(try directions("kakaomap"), app) == .failure(.openFailed(provider: "kakaomap")))
        let web = MockOpener(openable: ["https"])
        web.failingOpens = ["https"]
        #expect(route(try directions("kakaomap"), web) == .failure(.openFailed(provider: "kakaomap")))
        #expect(web.opened.count == 1, "no second attempt after a failed fallback")
    }

    @Test("a provider routes.json does not know: schemeCreationFailed; an incomplete destination: invalidDestination")
    func uncheckedDestinations() throws {
        let route = try #require(handler.routes.route(named: "directions"))
        func deeplink(_ query: [String: [String]]) -> ParsedDeeplink {
            ParsedDeeplink(configuration: route, pathParameters: [:], queryParameters: query,
                           campaignMetadata: CampaignMetadata(source: .appInternal), webBaseURL: "https://sendy.co.kr")
        }
        let opener = MockOpener(openable: ["kakaomap", "https"])
        let full = ["lat": ["37.5"], "lng": ["127"], "name": ["a"]]
        #expect(self.route(deeplink(full.merging(["provider": ["googlemaps"]]) { $1 }), opener) == .failure(.schemeCreationFailed(provider: "googlemaps")))
        #expect(self.route(deeplink(["lat": ["37.5"], "lng": ["127"], "provider": ["kakaomap"]]), opener) == .failure(.invalidDestination("name is missing")))
        #expect(opener.asked.isEmpty && opener.opened.isEmpty)
    }
}

@Suite("External destinations through the navigator")
@MainActor
struct ExternalNavigationTests {
    func fixture(appState: AppState = .foreground, openable: Set<String>) throws -> (NavigatorFixture, MockOpener) {
        let fixture = try NavigatorFixture(appState: appState, stepTimeoutMs: 3_000)
        let opener = MockOpener(openable: openable)
        fixture.navigator.opener = opener
        return (fixture, opener)
    }

    static let link = "/directions?lat=37.4979502&lng=127.0276368&name=%EA%B0%95%EB%82%A8%EC%97%AD&provider=kakaomap"

    @Test("opened on record, consumed once; no tab, no list, no screen of the app")
    func openedOnRecord() throws {
        let (fixture, opener) = try fixture(openable: ["kakaomap", "https"])
        let disposition = fixture.navigator.navigate(try fixture.link(Self.link), from: .bridge)
        #expect(disposition == .opened(EnvelopeID(1), .openedApp(provider: "kakaomap")))
        #expect(fixture.outcomes(EnvelopeID(1)) == [.opened(.openedApp(provider: "kakaomap"))])
        #expect(fixture.host.calls.isEmpty)
        #expect(opener.opened.count == 1)
    }

    @Test("cold start: it waits at the ready gate with the rest, in order")
    func readyGate() throws {
        let (fixture, opener) = try fixture(appState: .coldStart, openable: ["https"])
        let event = fixture.navigator.navigate(try fixture.link("/event/pickup")).envelopeID
        let map = fixture.navigator.navigate(try fixture.link(Self.link)).envelopeID
        #expect(fixture.outcomes(map) == [.waitingForReady])
        #expect(opener.opened.isEmpty)
        fixture.navigator.becomeReady()
        #expect(fixture.outcomes(event) == [.waitingForReady, .navigated])
        #expect(fixture.outcomes(map) == [.waitingForReady, .opened(.openedFallback(provider: "kakaomap"))])
    }

    @Test("the same directions twice within the window: opened once")
    func duplicate() throws {
        let (fixture, opener) = try fixture(openable: ["kakaomap"])
        let link = try fixture.link(Self.link)
        fixture.navigator.navigate(link)
        #expect(fixture.navigator.navigate(link) == .duplicate(EnvelopeID(2), of: EnvelopeID(1)))
        #expect(opener.opened.count == 1)
    }

    @Test("a failure reaches the log typed, with the seed's reason")
    func failure() throws {
        let (fixture, opener) = try fixture(openable: [])
        let disposition = withExtendedLifetime(opener) { fixture.navigator.navigate(try! fixture.link(Self.link)) }
        #expect(disposition == .failed(EnvelopeID(1), .external(.appNotInstalled(provider: "kakaomap"))))
        #expect(NavigationFailure.external(.appNotInstalled(provider: "kakaomap")).code == "app_not_installed")
        #expect(NavigationFailure.external(.appNotInstalled(provider: "kakaomap")).step == .openExternal)
    }

    @Test("no opener attached: failed(no_opener)")
    func noOpener() throws {
        let fixture = try NavigatorFixture()
        #expect(fixture.navigator.navigate(try fixture.link(Self.link)) == .failed(EnvelopeID(1), .noOpener))
    }

    @Test("an open that answers later: the next navigation waits; an open that never answers times out")
    func slowOpen() throws {
        let (fixture, opener) = try fixture(openable: ["kakaomap"])
        opener.holdsOpens = true
        let map = fixture.navigator.navigate(try fixture.link(Self.link)).envelopeID
        let next = fixture.navigator.navigate(try fixture.link("/vehicles")).envelopeID
        #expect(fixture.outcomes(next) == [.queued(behind: map)])
        opener.finishHeld()
        #expect(fixture.outcomes(map) == [.opened(.openedApp(provider: "kakaomap"))])
        #expect(fixture.outcomes(next) == [.queued(behind: map), .navigated])

        let hung = fixture.navigator.navigate(try fixture.link(Self.link.replacingOccurrences(of: "lat=37.4979502", with: "lat=37.5"))).envelopeID
        fixture.clock.advance(byMs: 3_000)
        #expect(fixture.outcomes(hung) == [.failed(.timedOut(.openExternal, afterMs: 3_000))])
        opener.finishHeld()  // too late: ignored
        #expect(fixture.outcomes(hung).count == 1)
    }
}
