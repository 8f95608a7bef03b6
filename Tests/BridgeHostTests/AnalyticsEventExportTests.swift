import Testing
import JSONCore
import BridgeHost
import BridgeHostTesting
import BridgeContracts
import TestSupport

@Suite("AnalyticsEvent out: what an app hands its analytics SDK")
@MainActor
struct AnalyticsEventExportTests {
    static func ctaEvent() throws -> AnalyticsEvent {
        let host = try MockBridgeHost(contracts: ContractSet.load(directory: ExampleContracts.path))
        try host.open(entry: "https://sendy.co.kr/event/new-user-promo?campaign_id=c1&variant=%EC%B9%B4%EB%93%9C&utm_source=kakaotalk")
        host.receive(#"{"v":1,"id":"req-000001","action":"apply","version":1,"payload":{"slug":"new-user-promo"}}"#)
        return try #require(host.analyticsEvents.first { $0.name == "event_webview_cta_clicked" })
    }

    @Test("an event prints as its name and its properties as compact JSON")
    func description() throws {
        let event = try Self.ctaEvent()
        #expect("\(event)" == #"event_webview_cta_clicked {"action":"apply","version":1,"request_id":"req-000001","route":"applyForm","campaign_id":"c1","variant":"카드","utm_source":"kakaotalk","source":"kakaotalk"}"#)
    }

    @Test("its properties convert to [String: Any] and [String: any Sendable] with Swift types")
    func properties() throws {
        let event = try Self.ctaEvent()
        let any = event.anyProperties
        #expect(any["action"] as? String == "apply")
        #expect(any["version"] as? Int == 1)
        #expect(any["variant"] as? String == "카드")
        #expect(any.count == event.properties.count)
        let sendable = event.sendableProperties
        #expect(sendable["request_id"] as? String == "req-000001")
        #expect(sendable["source"] as? String == "kakaotalk")
        #expect(sendable.count == event.properties.count)
    }
}
