import Testing
import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting
import TestSupport

/// The host over a long session: what it remembers is bounded, each bound is tested at the bound
/// and one past it, and a CTA turned away for a bound is answered, never dropped in silence.
@Suite("BridgeHost and MockBridgeHost memory over a long session")
@MainActor
struct HostBoundsTests {
    static let compiled = Result { try CompiledContracts(contracts: try ContractSet.load(directory: RepositoryPaths.contracts.path)) }

    func start(_ number: Int) -> String {
        message("start", id: "bound-\(String(100_000 + number))", payload: ["referrer": .string("r-\(number)")])
    }

    @Test("cold start: 64 CTAs wait for ready (the default bound); the 65th is answered NAVIGATION_FAILED queue_full; ready navigates the 64")
    func readyGateBoundThroughTheBridge() throws {
        let host = try MockBridgeHost(compiled: try Self.compiled.get(), appState: .coldStart)
        #expect(host.navigator.queueCapacity == 64)
        try host.open(entry: seedEntry)
        for number in 1...64 {
            let reply = try #require(host.receive(start(number)))
            #expect(reply.ok && reply.result?.waitingForReady == true, "CTA \(number): \(reply.text)")
        }
        let refused = try #require(host.receive(start(65)))
        #expect(refused.error?.code == .navigationFailed)
        #expect(refused.error?.details.first?["reason"] == "queue_full")
        #expect(refused.id == "bound-100065")
        #expect(host.records.contains { if case .envelope(_, _, .failed(.queueFull(capacity: 64))) = $0 { return true } else { return false } })
        host.becomeReady()
        #expect(host.navigations.count == 64)
        #expect(host.navigations.map { $0.query["referrer"]?.first } == (1...64).map { "r-\($0)" })
        #expect(host.replies.count == 65)
    }

    @Test("behind a slow fetch: 1 running + 64 waiting have replies pending; the 66th is answered at once; all settle exactly once")
    func queueBehindASlowFetch() throws {
        let host = try MockBridgeHost(compiled: try Self.compiled.get())
        host.heldSteps = [.resolveDetail]
        try host.open(entry: seedEntry)
        for number in 1...65 { #expect(host.receive(start(number)) == nil) }
        #expect(host.bridge.awaitingReplyCount == 65)
        let refused = try #require(host.receive(start(66)))
        #expect(refused.error?.details.first?["reason"] == "queue_full")
        #expect(host.bridge.awaitingReplyCount == 65)
        var completed = 0
        while host.completeStep() == nil { completed += 1 }
        #expect(completed == 65)
        #expect(host.navigations.count == 65)
        #expect(host.bridge.awaitingReplyCount == 0)
        #expect(Set(host.replies.compactMap(\.id)).count == 66 && host.replies.count == 66)
    }

    @Test("completeStep(.notFound) is for a detail fetch: refused while a tab switch waits, taken when the fetch waits")
    func onlyADetailFetchCanFindNothing() throws {
        let host = try MockBridgeHost(compiled: try Self.compiled.get())
        host.heldSteps = [.selectTab, .resolveDetail]
        try host.open(entry: seedEntry)
        #expect(host.receive(start(1)) == nil)
        #expect(host.completeStep(.notFound) == "only resolveDetail can find nothing; the waiting step is selectTab")
        #expect(host.completeStep() == nil, "the tab switch goes on")
        #expect(host.completeStep(.notFound) == nil)
        #expect(host.navigations.isEmpty)
        #expect(host.replies.last?.error?.details.first?["reason"] == "detail_not_found")
    }

    @Test("one navigator, many pages: each BridgeHost's observer goes with it")
    func observersDoNotPileUpOverPages() throws {
        let host = try MockBridgeHost(compiled: try Self.compiled.get())
        let before = host.navigator.observerCount
        for _ in 0..<200 {
            let page = try BridgeHost(compiled: try Self.compiled.get(), navigator: host.navigator)
            try page.open(entry: seedEntry)
        }
        host.receive(start(1))
        #expect(host.navigator.observerCount == before)
        #expect(host.navigations.count == 1)
    }

    func session(_ host: MockBridgeHost, messages: Int) throws {
        try host.open(entry: seedEntry)
        for number in 1...messages {
            host.receive(message("view_vehicles", id: "long-\(String(100_000 + number))", payload: ["from": .string("e-\(number)")],
                                 campaign: ["campaign_id": "other_campaign"]))
            if number % 3 == 0 { host.advanceClock(byMs: 2_500) }
        }
    }

    @Test("streaming: a long session keeps nothing in the lists; every record still reaches onRecord")
    func streamingKeepsNothing() throws {
        let host = try MockBridgeHost(compiled: try Self.compiled.get(), retention: .streaming)
        var seen = 0
        var replies = 0
        host.onRecord = { record in
            seen += 1
            if case .reply = record { replies += 1 }
        }
        try session(host, messages: 2_000)
        #expect(replies == 2_000)
        #expect(seen == host.recordCount && seen > 10_000)
        #expect(host.records.isEmpty && host.recordTimes.isEmpty && host.replies.isEmpty && host.navigations.isEmpty
                && host.analyticsEvents.isEmpty && host.campaignConflicts.isEmpty)
        #expect(host.navigator.log.capacity == 1024)
        #expect(host.unansweredMessages.isEmpty && host.clock.scheduledCount == 0)
    }

    @Test("latest(n): at n records all are kept; one more and the oldest goes; the default keeps everything")
    func latestKeepsTheNewest() throws {
        let bounded = try MockBridgeHost(compiled: try Self.compiled.get(), retention: .latest(3))
        var all: [MockRecord] = []
        bounded.onRecord = { all.append($0) }
        try bounded.open(entry: nil)  // one record: event_webview_opened
        bounded.receive(start(1))     // cta_clicked, navigation, envelope, screen_view, reply
        #expect(all.count == 6)
        #expect(bounded.records == Array(all.suffix(3)))
        #expect(bounded.recordTimes.count == 3)
        #expect(bounded.analyticsEvents.map(\.name) == ["event_webview_opened", "event_webview_cta_clicked", "screen_view"])
        bounded.receive(start(2))
        #expect(bounded.records == Array(all.suffix(3)))
        #expect(bounded.analyticsEvents.map(\.name) == ["screen_view", "event_webview_cta_clicked", "screen_view"])
        #expect(bounded.navigations.map { $0.query["referrer"]?.first } == ["r-1", "r-2"])
        #expect(bounded.recordCount == all.count)

        let everything = try MockBridgeHost(compiled: try Self.compiled.get())
        try session(everything, messages: 50)
        #expect(everything.retention == .all && everything.records.count == everything.recordCount)
        #expect(everything.replies.count == 50)
    }
}
