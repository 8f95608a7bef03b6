import DeeplinkRouting
import Testing

/// Channels beside the built-in ones are data: routes.json declares them and the utm fields
/// that recognise a link as coming through one.
@Suite("declared channels recognise links by their utm fields")
struct DeclaredChannelTests {
    static let routesJSON = #"""
    {
      "channels": {
        "sms": { "utm_source": ["sms", "lms"] },
        "messenger": { "utm_source": ["kakaotalk"], "utm_medium": ["alimtalk", "sms"] }
      },
      "routes": [
        { "name": "event", "pattern": "/event/:slug", "requiresAuth": false, "tab": "home" },
        { "name": "coupon", "pattern": "/coupon", "requiresAuth": false, "tab": "home", "enabledFrom": ["sms", "push"] }
      ]
    }
    """#

    private func handler() throws -> DeeplinkHandler {
        let routes = try RoutesFile.routes(fromJSON: Self.routesJSON)
        return DeeplinkHandler(routes: try RouteTable(routes: routes), links: RoutingFixtures.links,
                               channels: try RoutesFile.channels(fromJSON: Self.routesJSON))
    }

    private func source(_ query: String) throws -> String {
        try handler().parse("https://sendy.co.kr/event/a?" + query).campaignMetadata.source.rawValue
    }

    @Test func theDeclarationKeepsItsOrder() throws {
        let channels = try RoutesFile.channels(fromJSON: Self.routesJSON)
        #expect(channels.declared.map(\.rawValue) == ["sms", "messenger"])
        #expect(channels.known.map(\.rawValue) == ["push", "externalURL", "appInternal", "bridge", "deferred", "sms", "messenger"])
    }

    @Test(arguments: ["utm_source=KakaoTalk", "utm_source=KAKAOTALK", "utm_source=kakaotalk", "utm_medium=AlimTalk"])
    func utmValuesMatchWithoutRegardToCase(query: String) throws {
        #expect(try source(query) == "messenger")
    }

    @Test func aNearbyValueIsNotAMatch() throws {
        // Case is ignored, nothing else: "kakao" is not "kakaotalk".
        #expect(try source("utm_source=kakao") == "externalURL")
        #expect(try source("utm_source=kakaotalk2") == "externalURL")
    }

    @Test func theFirstDeclaredMatchWins() throws {
        // utm_source=sms is sms's; utm_medium=sms is messenger's: sms is declared first.
        #expect(try source("utm_source=sms&utm_medium=sms") == "sms")
        #expect(try source("utm_source=newsletter&utm_medium=sms") == "messenger")
        // Swapped declaration order, swapped answer.
        let swapped = #"{"channels": {"messenger": {"utm_medium": ["sms"]}, "sms": {"utm_source": ["sms"]}}, "routes": [{"name": "event", "pattern": "/event/:slug", "requiresAuth": false, "tab": "home"}]}"#
        let handler = DeeplinkHandler(routes: try RouteTable(routes: RoutesFile.routes(fromJSON: swapped)), links: RoutingFixtures.links,
                                      channels: try RoutesFile.channels(fromJSON: swapped))
        #expect(try handler.parse("https://sendy.co.kr/event/a?utm_source=sms&utm_medium=sms").campaignMetadata.source.rawValue == "messenger")
    }

    @Test func aStatedSourceBeatsTheUTMFields() throws {
        let parsed = try handler().parse("https://sendy.co.kr/event/a?utm_source=sms", source: .push)
        #expect(parsed.campaignMetadata.source == .push)
    }

    @Test func withoutAMatchTheBuiltInFallbacksStay() throws {
        #expect(try source("utm_source=newsletter") == "externalURL")
        #expect(try handler().parse("sendy://event/a?utm_source=newsletter").campaignMetadata.source == .appInternal)
        #expect(try handler().parse("sendy://event/a?utm_source=sms").campaignMetadata.source.rawValue == "sms")
    }

    @Test func aDeclaredChannelInEnabledFromOpensItsRouteAndNoOther() throws {
        let routes = try RoutesFile.routes(fromJSON: Self.routesJSON)
        let coupon = try #require(routes.first { $0.name == "coupon" })
        #expect(coupon.enabledFrom == [EntryChannel(rawValue: "sms"), .push])
        #expect(coupon.isEnabled(from: EntryChannel(rawValue: "sms")))
        #expect(!coupon.isEnabled(from: EntryChannel(rawValue: "messenger")))
        #expect(!coupon.isEnabled(from: .externalURL))
        // Absent enabledFrom: every built-in and declared channel.
        let event = try #require(routes.first { $0.name == "event" })
        #expect(event.enabledFrom == Set(EntryChannel.builtIn + [EntryChannel(rawValue: "sms"), EntryChannel(rawValue: "messenger")]))
    }

    @Test func aSourceNameIsKnownOnlyWhenBuiltInOrDeclared() throws {
        let channels = try RoutesFile.channels(fromJSON: Self.routesJSON)
        #expect(try channels.source(named: "sms").rawValue == "sms")
        #expect(try channels.source(named: "push") == .push)
        #expect(throws: UnknownChannelError(name: "email", known: ["push", "externalURL", "appInternal", "sms", "messenger"])) {
            try channels.source(named: "email")
        }
        // Built-in entry channels that are not campaign sources.
        #expect(throws: UnknownChannelError.self) { try channels.source(named: "bridge") }
        #expect(UnknownChannelError(name: "email", known: ["push", "sms"]).description
            == #"unknown channel "email" (known: push, sms; declare others in routes.json "channels")"#)
    }

    @Test func withoutDeclaredChannelsNoUTMValueIsSpecial() throws {
        let handler = DeeplinkHandler(routes: try RouteTable(routes: RoutesFile.routes(fromJSON: Self.routesJSON)), links: RoutingFixtures.links)
        #expect(try handler.parse("https://sendy.co.kr/event/a?utm_source=kakaotalk&utm_medium=alimtalk").campaignMetadata.source == .externalURL)
    }

    @Test func theExampleSetDeclaresItsMessengerAsBefore() throws {
        let parsed = try RoutingFixtures.handler.parse("https://sendy.co.kr/event/a?utm_medium=alimtalk")
        #expect(parsed.campaignMetadata.source == .kakaotalk)
        #expect(try RoutingFixtures.handler.parse("https://sendy.co.kr/event/a?utm_source=KakaoTalk").campaignMetadata.source == .kakaotalk)
    }
}
