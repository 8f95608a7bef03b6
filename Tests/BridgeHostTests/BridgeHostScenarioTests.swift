import Testing
import JSONCore
import SchemaCheck
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting

@Suite("BridgeHost scenarios")
@MainActor
struct BridgeHostScenarioTests {
    @Test("logged-out cold start, AlimTalk entry, CTA apply: login first; after ready and login the apply screen is pushed once with the campaign")
    func alimTalkColdStartApply() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts(), loggedIn: false, appState: .coldStart)
        try host.open(entry: seedEntry)
        let reply = try #require(host.receive(message("apply", id: "alimtalk-apply-1")))
        #expect(reply.ok)
        #expect(reply.result?.pendingLogin == true)
        #expect(reply.result?.url == "https://sendy.co.kr/event/new-user-promo/apply")
        #expect(host.loginPresentations == 1)
        #expect(host.navigations.isEmpty)

        host.becomeReady()
        #expect(host.navigations.isEmpty, "nothing may be shown before login")
        host.completeLogin()
        host.completeLogin()
        #expect(host.navigations.count == 1)
        let navigation = try #require(host.navigations.first)
        #expect(navigation.route == "applyForm")
        #expect(navigation.presentation == .push)
        #expect(navigation.list == "eventCampaign")
        #expect(navigation.parameters == ["slug": "new-user-promo"])
        #expect(navigation.campaign.campaignId == "2025Q3_signup_retarget")
        #expect(navigation.campaign.groupId == "B")
        #expect(navigation.campaign.variant == "card_scanner_cta")
        #expect(navigation.campaign.source == .kakaotalk)

        // The funnel: opened, CTA clicked and the screen view share campaign_id, group_id, variant, source.
        let names = host.analyticsEvents.map(\.name)
        #expect(names == ["event_webview_opened", "event_webview_cta_clicked", "screen_view"])
        for event in host.analyticsEvents {
            #expect(event["campaign_id"] == "2025Q3_signup_retarget", "\(event.name)")
            #expect(event["group_id"] == "B", "\(event.name)")
            #expect(event["variant"] == "card_scanner_cta", "\(event.name)")
            #expect(event["source"] == "kakaotalk", "\(event.name)")
        }
        #expect(host.events(named: "event_webview_cta_clicked").first?["action"] == "apply")
        #expect(host.events(named: "screen_view").first?["screen"] == "event_apply")
        // The screen view of a navigation that waited for login names its route and link too.
        #expect(host.events(named: "screen_view").first?["route"] == "applyForm")
        #expect(host.events(named: "screen_view").first?["url"] == "https://sendy.co.kr/event/new-user-promo/apply")
    }

    @Test("the same message twice: one navigation, the second reply is DUPLICATE")
    func sameMessageTwice() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        let body = message("view_vehicles", id: "dup-test-0001", payload: ["vehicleType": "1ton"])
        let first = try #require(host.receive(body))
        let second = try #require(host.receive(body))
        #expect(first.ok)
        #expect(second.error?.code == .duplicate)
        #expect(second.id == "dup-test-0001")
        #expect(host.navigations.count == 1)
    }

    @Test("a double tap (new id, same destination within the window) navigates once; after the window again")
    func doubleTap() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        #expect(host.receive(message("start", id: "tap-000000001", payload: [:]))?.ok == true)
        #expect(host.receive(message("start", id: "tap-000000002", payload: [:]))?.error?.code == .duplicate)
        host.advanceClock(byMs: 2_000)
        #expect(host.receive(message("start", id: "tap-000000003", payload: [:]))?.ok == true)
        #expect(host.navigations.count == 2)
    }

    @Test("three CTAs queued before ready fire in order after ready")
    func threeQueuedBeforeReady() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts(), appState: .coldStart)
        let bodies = [
            message("view_vehicles", id: "queued-000001", payload: ["page": 2]),
            message("start", id: "queued-000002", payload: ["referrer": "new-user-promo"]),
            message("apply", id: "queued-000003", payload: ["slug": "summer-2026"]),
        ]
        for body in bodies {
            let reply = try #require(host.receive(body))
            #expect(reply.ok && reply.result?.waitingForReady == true)
        }
        #expect(host.navigations.isEmpty)
        host.becomeReady()
        #expect(host.navigations.map(\.route) == ["vehicleList", "onboardingStart", "applyForm"])
        #expect(host.navigations.map(\.url) == [
            "https://sendy.co.kr/vehicles?page=2", "https://sendy.co.kr/start?referrer=new-user-promo",
            "https://sendy.co.kr/event/summer-2026/apply",
        ])
    }

    @Test("iframe and look-alike origins: ORIGIN_REJECTED and nothing changes", arguments: [
        ("https://sendy.co.kr", false), ("https://sendy.co.kr.evil.example", true),
    ])
    func originRejected(origin: String, isMainFrame: Bool) throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        try host.open(entry: seedEntry)
        let before = HostState(host)
        let reply = try #require(host.receive(message("view_vehicles", id: "origin-00001", payload: [:]), origin: origin, isMainFrame: isMainFrame))
        #expect(reply.error?.code == .originRejected)
        #expect(HostState(host) == before)
        // The id was not remembered: the same request from the right place is accepted.
        #expect(host.receive(message("view_vehicles", id: "origin-00001", payload: [:]))?.ok == true)
    }

    @Test("the entry link is authoritative: page campaign fields fill gaps, conflicts are recorded, source never from the page")
    func campaignMerge() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        try host.open(entry: "https://sendy.co.kr/event/new-user-promo?campaign_id=entry_campaign", source: .push)
        let reply = host.receive(message("start", id: "merge-000001", payload: [:],
                                         campaign: ["campaign_id": "page_campaign", "group_id": "A", "utm_source": "instagram"]))
        #expect(reply?.ok == true)
        let campaign = try #require(host.navigations.first?.campaign)
        #expect(campaign.campaignId == "entry_campaign")
        #expect(campaign.groupId == "A")
        #expect(campaign.utm["utm_source"] == "instagram")
        #expect(campaign.source == .push)
        #expect(host.campaignConflicts == [CampaignConflict(field: "campaign_id", entryValue: "entry_campaign", messageValue: "page_campaign", requestID: "merge-000001")])
        #expect(host.events(named: "push_clicked").count == 1)
        #expect(host.events(named: "push_clicked").first?["path"] == "/event/new-user-promo")
    }

    @Test("a notification (no id) gets no reply but navigates and is recorded")
    func notification() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        #expect(host.receive(message("view_vehicles", id: nil, payload: ["sort": "price"])) == nil)
        #expect(host.navigations.map(\.url) == ["https://sendy.co.kr/vehicles?sort=price"])
        #expect(host.records.contains(.notification(action: "view_vehicles", version: 1, outcome: "ok")))
    }

    @Test("a failing navigation step is answered NAVIGATION_FAILED, naming the step and the reason")
    func navigationFailed() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        host.failingSteps["show"] = "the vehicle list cannot be shown right now"
        let reply = host.receive(message("view_vehicles", id: "fail-0000001", payload: [:]))
        #expect(reply?.error?.code == .navigationFailed)
        #expect(reply?.error?.message == "the destination could not be shown: the vehicle list cannot be shown right now")
        #expect(reply?.error?.details == [["reason": "show_failed", "route": "vehicleList", "step": "show"]])
    }

    @Test("logout while a CTA waits for login cancels it; the reply already told the page pendingLogin")
    func logoutCancels() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts(), loggedIn: false)
        #expect(host.receive(message("apply", id: "logout-00001"))?.result?.pendingLogin == true)
        host.logout()
        host.completeLogin()
        #expect(host.navigations.isEmpty)
        #expect(host.records.contains { if case .envelope(_, _, .cancelledByLogout) = $0 { return true } else { return false } })
    }

    @Test("replies are well-formed JSON with v, id, ok and a result or an error")
    func replyShape() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        let ok = try #require(host.receive(message("start", id: "shape-000001", payload: [:])))
        let okJSON = try JSONDocument(ok.text).value
        #expect(okJSON == ["v": 1, "id": "shape-000001", "ok": true,
                           "result": ["route": "onboardingStart", "url": "https://sendy.co.kr/start", "pendingLogin": false]])
        let bad = try #require(host.receive("{not json"))
        let badJSON = try JSONDocument(bad.text).value
        #expect(badJSON["id"] == .null)
        #expect(badJSON["ok"] == false)
        #expect(badJSON.value(at: "/error/code") == "INVALID_MESSAGE")
    }
}
