import Testing
import DeeplinkRouting
import JSONCore

/// The map-app seed's URL builders, as routes.json declares them: one template per provider, each
/// value encoded exactly once.
@Suite("External destinations: provider URL templates and plain-decimal coordinates")
struct ExternalDestinationTests {
    let handler: DeeplinkHandler

    init() throws {
        handler = DeeplinkHandler(routes: try RouteTable(routes: RoutingFixtures.routes),
                                  links: LinkConfiguration(universalLinkHosts: ["sendy.co.kr"], customScheme: "sendy",
                                                           webBaseURL: "https://sendy.co.kr"))
    }

    func links(_ name: String, _ provider: String, lat: String = "37.4979502", lng: String = "127.0276368") throws -> ExternalLinks {
        let parsed = try handler.route(named: "directions", parameters: [:],
                                       query: [("lat", lat), ("lng", lng), ("name", name), ("provider", provider)])
        return try parsed.externalLinks().get()
    }

    static let awkwardName = "센디 물류센터 A+B동 & 주차장"
    static let awkwardEncoded = "%EC%84%BC%EB%94%94%20%EB%AC%BC%EB%A5%98%EC%84%BC%ED%84%B0%20A%2BB%EB%8F%99%20%26%20%EC%A3%BC%EC%B0%A8%EC%9E%A5"

    @Test("Naver Map: nmap://route/car with dlat, dlng, dname and appname; App Store fallback")
    func naverMap() throws {
        let built = try links(Self.awkwardName, "nmap")
        #expect(built.app == "nmap://route/car?dlat=37.4979502&dlng=127.0276368&dname=\(Self.awkwardEncoded)&appname=kr.co.sendy")
        #expect(built.appScheme == "nmap")
        #expect(built.fallback == "https://apps.apple.com/kr/app/id311867728")
    }

    @Test("TMAP: tmap://route with goalname, goalx = longitude, goaly = latitude; App Store fallback")
    func tmap() throws {
        let built = try links(Self.awkwardName, "tmap")
        #expect(built.app == "tmap://route?goalname=\(Self.awkwardEncoded)&goalx=127.0276368&goaly=37.4979502")
        #expect(built.fallback == "https://apps.apple.com/kr/app/id431589174")
    }

    @Test("Kakao Map: kakaomap://route?ep=lat,lng&by=CAR; the mobile web fallback carries the name in its path")
    func kakaoMap() throws {
        let built = try links(Self.awkwardName, "kakaomap")
        #expect(built.app == "kakaomap://route?ep=37.4979502,127.0276368&by=CAR")
        #expect(built.fallback == "https://map.kakao.com/link/to/\(Self.awkwardEncoded),37.4979502,127.0276368")
    }

    @Test("a name that is already percent-encoded is encoded once more, as text: never decoded, never double-decoded")
    func encodedOnce() throws {
        let built = try links("50%20off", "tmap")
        #expect(built.app.hasPrefix("tmap://route?goalname=50%2520off&"))
    }

    @Test("numbers from a message become plain decimal: no exponent, no locale comma, no trailing .0",
          arguments: [(0.00001, "0.00001"), (-0.0000001, "-0.0000001"), (1e-7, "0.0000001"), (37.4979502, "37.4979502"),
                      (127.0, "127"), (-180.0, "-180"), (1.5e20, "150000000000000000000"), (123.456e-2, "1.23456"),
                      (-0.0, "0"), (0.1, "0.1"), (90.0, "90"), (8.99667664028123e-8, "0.0000000899667664028123")])
    func plainDecimal(value: Double, text: String) {
        #expect(DecimalText.plain(value) == text)
        #expect(DeeplinkHandler.parameterText(.number(value)) == text)
    }

    @Test("non-finite numbers have no URL text")
    func nonFinite() {
        #expect(DecimalText.plain(.nan) == nil)
        #expect(DecimalText.plain(.infinity) == nil)
        #expect(DeeplinkHandler.parameterText(.number(-.infinity)) == nil)
    }

    @Test("latitude and longitude in links: plain decimal within range", arguments: [
        ("37.4979502", ParameterType.latitude, true), ("-90", .latitude, true), ("90.0", .latitude, true), ("0", .latitude, true),
        ("90.0000001", .latitude, false), ("-91", .latitude, false), ("1e-05", .latitude, false), ("37,5", .latitude, false),
        ("+37.5", .latitude, false), ("037.5", .latitude, false), (".5", .latitude, false), ("5.", .latitude, false),
        ("NaN", .latitude, false), ("", .latitude, false), (" 37.5", .latitude, false),
        ("-180", .longitude, true), ("179.9999999", .longitude, true), ("180", .longitude, true), ("180.0000001", .longitude, false),
        ("-180.0000001", .longitude, false), ("89.9999999", .latitude, true), ("-90.0000001", .latitude, false), ("0.0000000899667664028123", .longitude, true), ("180.5", .longitude, false), ("1000", .longitude, false),
    ])
    func coordinateRules(text: String, type: ParameterType, valid: Bool) {
        #expect(ParameterRules.isValid(text, as: type) == valid)
    }

    @Test("a directions link parses, and builds back to the same URL")
    func roundTrip() throws {
        let url = "https://sendy.co.kr/directions?lat=37.5665&lng=126.978&name=%EC%84%9C%EC%9A%B8%EC%8B%9C%EC%B2%AD&provider=kakaomap"
        let parsed = try handler.parse(url, source: .kakaotalk)
        #expect(parsed.configuration.isExternal)
        #expect(parsed.fieldValues["name"] == "서울시청")
        #expect(parsed.url == url)
        let built = try handler.urlBuilder.build(route: "directions", parameters: [:], query: parsed.queryParameters)
        #expect(built == url)
    }

    @Test("an incomplete destination or an unknown provider never routes", arguments: [
        ("lat=37.5&lng=127&provider=kakaomap", "name is missing"),
        ("lat=37.5&name=a&provider=tmap", "lng is missing"),
        ("lat=37.5&lng=127&name=a&provider=googlemaps", #"provider "googlemaps" is not one of nmap, tmap, kakaomap"#),
        ("lat=37.5&lng=127&name=a", "provider is missing"),
    ])
    func invalidDestination(query: String, reason: String) {
        #expect(throws: DeeplinkError.invalidDestination(route: "directions", reason: reason, fallback: "https://sendy.co.kr/directions?" + query)) {
            try handler.parse("https://sendy.co.kr/directions?" + query)
        }
        #expect(throws: (any Error).self) {
            try handler.urlBuilder.build(route: "directions", parameters: [:], query: Dictionary(uniqueKeysWithValues: query.split(separator: "&").map {
                let pair = $0.split(separator: "=", maxSplits: 1)
                return (String(pair[0]), [String(pair[1])])
            }))
        }
    }

    @Test("a coordinate with an exponent in a link is a bad parameter, not a destination")
    func exponentInLink() {
        #expect(throws: DeeplinkError.badParameter(name: "query.lat", value: "1e-05", expected: .latitude,
                                                   fallback: "https://sendy.co.kr/directions?lat=1e-05&lng=0&name=x&provider=tmap")) {
            try handler.parse("https://sendy.co.kr/directions?lat=1e-05&lng=0&name=x&provider=tmap")
        }
    }

    static let badTemplates: [(text: String, error: String)] = [
        ("kakaomap://route?ep={lat", #""kakaomap://route?ep={lat": a "{" without its "}""#),
        ("kakaomap://route?ep={la-t}", #""kakaomap://route?ep={la-t}": "{la-t}" is not a field name (letters, digits, _)"#),
        ("kakaomap://route?ep=%20{lat}", #""kakaomap://route?ep=%20{lat}": "%" cannot stand in a URL as written (write the URL as it is sent, without %-escapes or spaces)"#),
        ("kakaomap://route by car", #""kakaomap://route by car": " " cannot stand in a URL as written (write the URL as it is sent, without %-escapes or spaces)"#),
        ("{scheme}://route", #""{scheme}://route" does not start with a literal scheme such as mapsapp:// or https://"#),
        ("route?ep={lat}", #""route?ep={lat}" does not start with a literal scheme such as mapsapp:// or https://"#),
    ]

    @Test("a template that is not a URL as written is refused with the reason", arguments: badTemplates)
    func badTemplate(text: String, error expected: String) {
        do throws(ExternalTemplateError) {
            _ = try ExternalURLTemplate(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == expected)
        }
    }

    static let entry = #""name": "go", "pattern": "/go", "requiresAuth": false, "query": {"lat": "latitude", "p": "string"}"#

    static let brokenRoutes: [(json: String, error: String)] = [
        (#"{"routes": [{\#(entry), "external": {"providerField": "provider", "providers": {"x": {"app": "x://{lat}"}}}}]}"#,
         #"routes.json: /routes/0/external/providerField: "provider" is not a path parameter or query field of the route"#),
        (#"{"routes": [{\#(entry), "external": {"providerField": "p", "providers": {"x": {"app": "x://{lng}"}}}}]}"#,
         "routes.json: /routes/0/external/providers/x/app: {lng} is not a path parameter or query field of the route"),
        (#"{"routes": [{\#(entry), "external": {"providerField": "p", "providers": {"x": {"fallback": "https://x"}}}}]}"#,
         #"routes.json: /routes/0/external/providers/x/app: missing required field "app""#),
        (#"{"routes": [{\#(entry), "external": {"providerField": "p", "providers": {}}}]}"#,
         "routes.json: /routes/0/external/providers: an external route needs at least one provider"),
        (#"{"routes": [{\#(entry), "tab": "home", "external": {"providerField": "p", "providers": {"x": {"app": "x://{lat}"}}}}]}"#,
         "routes.json: /routes/0/tab: an external route is opened outside the app: it has no tab"),
        (#"{"routes": [{\#(entry), "external": {"providerField": "p", "providers": {"x": {"app": "x://a b"}}}}]}"#,
         #"routes.json: /routes/0/external/providers/x/app: "x://a b": " " cannot stand in a URL as written (write the URL as it is sent, without %-escapes or spaces)"#),
    ]

    @Test("routes.json: each problem of an external route is named with its pointer", arguments: brokenRoutes)
    func brokenExternalRoute(json: String, error expected: String) {
        do {
            let routes = try RoutesFile.routes(fromJSON: json)
            Issue.record("loaded \(routes.map(\.name))")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test("the repository's directions route: three providers, every field required, tab empty")
    func repositoryRoute() throws {
        let route = try #require(RoutingFixtures.routes.first { $0.name == "directions" })
        let external = try #require(route.external)
        #expect(external.providerNames == ["nmap", "tmap", "kakaomap"])
        #expect(external.requiredFields == ["provider", "lat", "lng", "name"])
        #expect(route.tab == "" && route.list == nil)
        #expect(external.providers.map(\.app.scheme) == ["nmap", "tmap", "kakaomap"])
        #expect(external.providers.compactMap(\.fallback?.scheme) == ["https", "https", "https"])
    }
}
