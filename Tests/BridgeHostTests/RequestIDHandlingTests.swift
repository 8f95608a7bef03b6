import BridgeContracts
import BridgeHost
import BridgeHostTesting
import DeeplinkNavigation
import JSONCore
import Testing
import TestSupport

/// How the host remembers request ids to answer a resend with DUPLICATE: only a message that got
/// through to navigation is remembered, and the memory is bounded.
@Suite("Request ids at the host")
@MainActor
struct RequestIDHandlingTests {
    /// contracts/ with apply v1's slug schema loosened, so a slug the schema takes can still be
    /// refused by the route's own parameter rule (slug: a-z, 0-9, "-") when the link is built.
    private func contractsWhoseMappingCanFail() throws -> ContractSet {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        let schema = try #require(files["schemas/apply.v1.json"])
        let strict = #""pattern": "^[a-z0-9-]{1,64}$""#
        try #require(schema.contains(strict))
        files["schemas/apply.v1.json"] = schema.replacingOccurrences(of: strict, with: #""pattern": "^.{1,64}$""#)
        return try ContractSet(files: files, origin: "contracts/ with a looser apply slug", includingFixtures: false)
    }

    @Test("a rejected message leaves no trace: a resend with the same id after a mapping failure is handled, not DUPLICATE")
    func aRejectedMessageLeavesNoTrace() throws {
        let host = try MockBridgeHost(contracts: try contractsWhoseMappingCanFail())
        let refused = try #require(host.receive(message("apply", id: "retry-after-mapping", payload: ["slug": "Not A Slug"])))
        #expect(refused.error?.code == .navigationFailed, "the route's slug rule refuses what the loosened schema took")
        #expect(host.navigations.isEmpty)

        let resent = try #require(host.receive(message("apply", id: "retry-after-mapping", payload: ["slug": "new-user-promo"])))
        #expect(resent.ok, "\(String(describing: resent.error))")
        #expect(host.navigations.count == 1)

        // Once handled, the same id is a resend.
        let again = try #require(host.receive(message("apply", id: "retry-after-mapping", payload: ["slug": "other-promo"])))
        #expect(again.error?.code == .duplicate)
    }

    @Test("a message refused by its schema leaves no trace either")
    func aMessageRefusedByItsSchemaLeavesNoTrace() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        let refused = try #require(host.receive(message("apply", id: "retry-after-params", payload: ["slug": "Not A Slug"])))
        #expect(refused.error?.code == .invalidParams)
        let resent = try #require(host.receive(message("apply", id: "retry-after-params")))
        #expect(resent.ok, "\(String(describing: resent.error))")
    }

    @Test("the request-id memory forgets at capacity: the oldest id is new again, a recent one is still a resend")
    func requestIDMemoryForgetsAtCapacity() throws {
        let navigator = DeeplinkNavigator(host: nil, auth: nil, duplicateWindowMs: 2_000)
        let bridge = try BridgeHost(contracts: try repositoryContracts(), navigator: navigator, requestIDCapacity: 2)
        func send(_ id: String, slug: String) -> BridgeReply? {
            immediateReply(bridge, body: Array(message("apply", id: id, payload: ["slug": .string(slug)]).utf8),
                           origin: "https://sendy.co.kr", isMainFrame: true)
        }
        func isResend(_ reply: BridgeReply?) -> Bool {
            reply?.error?.code == .duplicate && reply?.error?.message.contains("was already handled") == true
        }
        // Distinct slugs, so the navigator's own duplicate window never answers for the memory.
        _ = send("request-aaaa", slug: "first")
        _ = send("request-bbbb", slug: "second")
        #expect(isResend(send("request-aaaa", slug: "third")), "within capacity, a resend")
        _ = send("request-cccc", slug: "fourth")
        #expect(!isResend(send("request-aaaa", slug: "fifth")), "three ids into a memory of two: the oldest is forgotten")
        #expect(isResend(send("request-cccc", slug: "sixth")), "the most recent id is still remembered")
    }
}

@Suite("Messages sent from inside a reply")
@MainActor
struct ReentrantMessageTests {
    @Test("a reply handler that sends the next message before receive returns: both are read whole and answered")
    func replyHandlerSendsTheNextMessage() throws {
        let navigator = DeeplinkNavigator(host: nil, auth: nil, duplicateWindowMs: 2_000)
        let bridge = try BridgeHost(contracts: try repositoryContracts(), navigator: navigator)
        let origin = "https://sendy.co.kr"
        final class Replies { var all: [BridgeReply?] = [] }
        let replies = Replies()
        let inner = Array(message("view_vehicles", id: "inner-request-2", payload: ["vehicleType": "1ton"]).utf8)
        let innermost = Array(message("apply", id: "innermost-req-3", payload: ["slug": "nested-slug"]).utf8)
        // Each reply sends the next message at once, while the document of the one replying still
        // lives in the host's arena: the next one is parsed on the heap (the arena stops the
        // process if a second document is parsed into it).
        bridge.receive(body: Array(message("apply", id: "outer-request-1", payload: ["slug": "outer-slug"]).utf8),
                       origin: origin, isMainFrame: true) { outerReply in
            replies.all.append(outerReply)
            bridge.receive(body: inner, origin: origin, isMainFrame: true) { innerReply in
                replies.all.append(innerReply)
                bridge.receive(body: innermost, origin: origin, isMainFrame: true) { replies.all.append($0) }
            }
        }
        #expect(replies.all.map { $0?.id } == ["outer-request-1", "inner-request-2", "innermost-req-3"])
        // Logged out: each apply is held for login with its own slug; the vehicle list, with no host
        // attached, fails on its own route. Each reply carries what its own message said.
        #expect(replies.all[0]?.result?.pendingLogin == true)
        #expect(replies.all[0]?.result?.url == "https://sendy.co.kr/event/outer-slug/apply")
        #expect(replies.all[1]?.error?.code == .navigationFailed)
        #expect(replies.all[1]?.error?.details.first?.objectValue?["route"] == "vehicleList")
        #expect(replies.all[2]?.result?.pendingLogin == true)
        #expect(replies.all[2]?.result?.url == "https://sendy.co.kr/event/nested-slug/apply")
        // And the next message after all of them is read from the arena again.
        let after = immediateReply(bridge, body: Array(message("apply", id: "after-requests", payload: ["slug": "after-slug"]).utf8),
                                   origin: origin, isMainFrame: true)
        #expect(after?.id == "after-requests")
        #expect(navigator.log.entries.map(\.url).contains("https://sendy.co.kr/event/after-slug/apply"))
    }
}
