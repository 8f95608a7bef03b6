import DeeplinkRouting
import Testing

@Suite("RoutesFile: routes.json read by the routing layer alone")
struct RoutesFileTests {
    @Test func theRepositoryRoutesLoadInDeclarationOrder() throws {
        let routes = RoutingFixtures.routes
        #expect(routes.map(\.name) == [
            "eventCampaign", "applyForm", "vehicleList", "vehicleDetail", "onboardingStart", "orderDetail", "orderList",
            "checkout", "reviewWrite", "directions",
        ])
        let apply = try #require(routes.first { $0.name == "applyForm" })
        #expect(apply.pattern == "/event/:slug/apply")
        #expect(apply.requiresAuth)
        #expect(apply.parameters == ["slug": .slug])
        #expect(apply.query == [
            .init(name: "plan", type: .string), .init(name: "memo", type: .string), .init(name: "contactTime", type: .string),
        ])
        #expect(apply.list == "eventCampaign")
        #expect(apply.screen == "event_apply")
        #expect(apply.presentation == .push)
    }

    @Test func enabledFromSaysWhichChannelsMayOpenARoute() throws {
        let checkout = try #require(RoutingFixtures.routes.first { $0.name == "checkout" })
        #expect(checkout.enabledFrom == [.push, .kakaotalk, .appInternal, .bridge])
        #expect(!checkout.isEnabled(from: .externalURL))
        let event = try #require(RoutingFixtures.routes.first { $0.name == "eventCampaign" })
        #expect(event.enabledFrom == Set(EntryChannel.builtIn + [.kakaotalk]))
        // Absent: every channel; an empty list: none (a route that only serves as a list beneath others).
        let none = try RoutesFile.routes(fromJSON: #"{"routes": [{"name": "l", "pattern": "/l", "requiresAuth": false, "tab": "home", "enabledFrom": []}]}"#)
        #expect(none[0].enabledFrom.isEmpty)
        #expect(EntryChannel.names([.bridge, .push]) == "push, bridge")
        #expect(EntryChannel.names([.bridge, EntryChannel(rawValue: "sms"), .kakaotalk, .push]) == "push, bridge, kakaotalk, sms")
        #expect(EntryChannel(.kakaotalk) == .kakaotalk)
    }

    @Test func defaultsForWhatAnEntryLeavesOut() throws {
        let routes = try RoutesFile.routes(fromJSON: #"{"routes": [{"name": "detail", "pattern": "/d/:id", "requiresAuth": false, "tab": "home"}]}"#)
        #expect(routes == [RouteDefinition(name: "detail", pattern: "/d/:id", requiresAuth: false, parameters: ["id": .string],
                                           tab: "home", screen: "detail", presentation: .push)])
    }

    static let entry = #""name": "a", "pattern": "/event/:slug", "requiresAuth": false, "tab": "home""#

    /// A broken routes.json and the one-line error it must give: file, JSON Pointer, what is wrong.
    static let broken: [(json: String, error: String)] = [
        ("{}", #"routes.json: /routes: missing required field "routes""#),
        (#"{"routes": {}}"#, "routes.json: /routes: expected an array of routes"),
        (#"{"routes": [1]}"#, "routes.json: /routes/0: expected an object"),
        (#"{"routes": [{"pattern": "/a", "requiresAuth": false, "tab": "home"}]}"#, #"routes.json: /routes/0/name: missing required field "name""#),
        (#"{"routes": [{"name": "a", "pattern": "event", "requiresAuth": false, "tab": "home"}]}"#,
         #"routes.json: /routes/0/pattern: pattern must start with "/""#),
        (#"{"routes": [{\#(entry), "parameters": {"slug": "text"}}]}"#,
         #"routes.json: /routes/0/parameters/slug: unknown parameter type "text" (one of: string, int, uuid, slug, latitude, longitude)"#),
        (#"{"routes": [{\#(entry), "parameters": {"id": "int"}}]}"#,
         #"routes.json: /routes/0/parameters: parameter "id" is not in pattern /event/:slug"#),
        (#"{"routes": [{\#(entry), "query": {"page": 1}}]}"#, "routes.json: /routes/0/query/page: expected a string"),
        (#"{"routes": [{\#(entry), "presentation": "sheet"}]}"#, "routes.json: /routes/0/presentation: presentation must be push or modal"),
        (#"{"routes": [{"name": "a", "pattern": "/a", "requiresAuth": "no", "tab": "home"}]}"#,
         "routes.json: /routes/0/requiresAuth: expected true or false"),
        (#"{"routes": [{\#(entry), "enabledFrom": ["push", "sms"]}]}"#,
         #"routes.json: /routes/0/enabledFrom/1: unknown channel "sms" (one of: push, externalURL, appInternal, bridge, deferred; declare others in "channels")"#),
        (#"{"channels": {"sms": {"utm_source": ["sms"]}}, "routes": [{\#(entry), "enabledFrom": ["push", "kakaotalk"]}]}"#,
         #"routes.json: /routes/0/enabledFrom/1: unknown channel "kakaotalk" (one of: push, externalURL, appInternal, bridge, deferred, sms; declare others in "channels")"#),
        (#"{"channels": {"push": {"utm_source": ["p"]}}, "routes": []}"#,
         #"routes.json: /channels/push: "push" is a built-in channel (push, externalURL, appInternal, bridge, deferred): declare another name"#),
        (#"{"channels": {"Bridge": {"utm_source": ["p"]}}, "routes": []}"#,
         #"routes.json: /channels/Bridge: "Bridge" is a built-in channel (push, externalURL, appInternal, bridge, deferred): declare another name"#),
        (#"{"channels": {"sms text": {"utm_source": ["p"]}}, "routes": []}"#,
         #"routes.json: /channels/sms text: channel name "sms text" must start with a letter and hold only ASCII letters, digits, "_" and "-""#),
        (#"{"channels": {"1sms": {"utm_source": ["p"]}}, "routes": []}"#,
         #"routes.json: /channels/1sms: channel name "1sms" must start with a letter and hold only ASCII letters, digits, "_" and "-""#),
        (#"{"channels": {"sms": {}}, "routes": []}"#,
         #"routes.json: /channels/sms: channel "sms" needs a non-empty "utm_source" or "utm_medium" list"#),
        (#"{"channels": {"sms": {"utm_source": []}}, "routes": []}"#,
         #"routes.json: /channels/sms/utm_source: "utm_source" must list at least one value (or be left out)"#),
        (#"{"channels": {"sms": {"utm_medium": [""]}}, "routes": []}"#,
         #"routes.json: /channels/sms/utm_medium/0: an empty utm_medium matches nothing"#),
        (#"{"channels": {"sms": {"utm_medium": "sms"}}, "routes": []}"#,
         #"routes.json: /channels/sms/utm_medium: expected an array of strings"#),
        (#"{"channels": {"sms": {"utm_sauce": ["sms"]}}, "routes": []}"#,
         #"routes.json: /channels/sms/utm_sauce: unknown field "utm_sauce" (a channel has "utm_source" and "utm_medium")"#),
        (#"{"channels": ["sms"], "routes": []}"#, "routes.json: /channels: expected an object"),
        (#"{"routes": [{\#(entry), "enabledFrom": ["push", "push"]}]}"#,
         #"routes.json: /routes/0/enabledFrom/1: channel "push" is listed twice"#),
        (#"{"routes": [{\#(entry), "enabledFrom": "push"}]}"#, "routes.json: /routes/0/enabledFrom: expected an array of strings"),
        (#"{"routes": [{\#(entry)}, {\#(entry)}]}"#, #"routes.json: /routes/1/name: duplicate route name "a""#),
        (#"{"routes": [{\#(entry), "tab": "orders"}]}"#, #"routes.json: not valid JSON: line 1 column 92: duplicate key "tab""#),
        (#"{"routes": [}"#, "routes.json: not valid JSON: line 1 column 13: unexpected '}', expected a value"),
    ]

    @Test(arguments: broken)
    func eachProblemIsNamedWithItsPointer(json: String, error expected: String) {
        do {
            let routes = try RoutesFile.routes(fromJSON: json)
            Issue.record("loaded \(routes.map(\.name))")
        } catch {
            #expect(error.description == expected)
        }
    }

    @Test func theFileNameIsTheCallers() {
        #expect(throws: RoutesFileError(file: "config/links.json", pointer: "/routes", message: "expected an array of routes")) {
            try RoutesFile.routes(fromJSON: #"{"routes": null}"#, file: "config/links.json")
        }
    }
}

@Suite("LinkConfiguration")
struct LinkConfigurationTests {
    @Test func hostsAndSchemeAreLowerCasedAndTheBaseHasNoTrailingSlash() {
        let links = LinkConfiguration(universalLinkHosts: ["Sendy.CO.kr"], customScheme: "Sendy", webBaseURL: "https://sendy.co.kr//")
        #expect(links.universalLinkHosts == ["sendy.co.kr"])
        #expect(links.customScheme == "sendy")
        #expect(links.webBaseURL == "https://sendy.co.kr")
        #expect(links.pushURLKey == "deeplink")
    }

    @Test func theHandlerUsesItAndGivesItBack() throws {
        let handler = RoutingFixtures.handler
        #expect(handler.links == RoutingFixtures.links)
        #expect(try handler.parse("https://WWW.sendy.co.kr/order").configuration.name == "orderList")
        #expect(try handler.parse("SENDY://order").configuration.name == "orderList")
        let builder = DeeplinkURLBuilder(links: RoutingFixtures.links, routes: handler.routes)
        #expect(try builder.build(route: "orderDetail", parameters: ["id": "7"]) == "https://sendy.co.kr/order/7")
    }
}
