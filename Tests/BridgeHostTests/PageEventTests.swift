import Testing
import JSONCore
import BridgeContracts
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting
import BridgeContractTypes
import TestSupport

/// Events the app sends to the page: checked before anything is posted, posted only into an
/// allowed origin's main frame, and the built-in `navigation_completed` for a request answered
/// before its navigation ended.
@Suite("Events to the page")
@MainActor
struct PageEventTests {
    static let compiled = Result { try CompiledContracts(contracts: try ContractSet.load(directory: RepositoryPaths.contracts.path)) }

    func host(loggedIn: Bool = true, appState: AppState = .foreground, capabilities: HostCapabilities? = nil) throws -> MockBridgeHost {
        let host = try MockBridgeHost(compiled: try Self.compiled.get(), loggedIn: loggedIn, appState: appState,
                                      capabilities: capabilities)
        try host.open(entry: seedEntry)
        return host
    }

    func completions(_ host: MockBridgeHost) -> [JSONValue] {
        host.pageEventsPosted.filter { $0.event == BuiltInEvents.navigationCompleted }.map(\.payload)
    }

    /// The text handed to the page's script: `</` and U+2028/U+2029 in a payload are escaped, so
    /// the event cannot close a script element or break the string it is evaluated in.
    @Test func anEventsTextIsSafeInsideAScript() {
        let event = PageEvent(event: "note", version: 1, payload: ["text": "a</script>\u{2028}b\u{2029}"])
        #expect(event.text == #"{"v":1,"event":"note","version":1,"payload":{"text":"a<\/script>\u2028b\u2029"}}"#)
    }

    // MARK: navigation_completed

    @Test func aPendingLoginThenLoginSendsNavigatedWithTheRequestID() throws {
        let host = try host(loggedIn: false)
        #expect(host.receive(message(id: "login-000001"))?.result?.pendingLogin == true)
        #expect(host.pageEventsPosted.isEmpty)
        #expect(host.bridge.navigationsAwaitingCompletion == 1)
        host.completeLogin()
        #expect(completions(host) == [["requestId": "login-000001", "route": "applyForm", "outcome": "navigated"]])
        #expect(host.bridge.navigationsAwaitingCompletion == 0)
        let line = try #require(host.records.last { if case .pageEvent = $0 { return true } else { return false } })
        #expect(line.json.serialized() == #"{"type":"page-event","v":1,"event":"navigation_completed","version":1,"payload":{"requestId":"login-000001","route":"applyForm","outcome":"navigated"}}"#)
    }

    @Test func aLogoutWhilePendingSendsCancelledByLogout() throws {
        let host = try host(loggedIn: false)
        host.receive(message(id: "login-000002"))
        host.logout()
        #expect(completions(host) == [["requestId": "login-000002", "route": "applyForm", "outcome": "cancelled_by_logout"]])
        host.completeLogin()
        #expect(completions(host).count == 1)
    }

    @Test func aColdStartThenReadySendsNavigated() throws {
        let host = try host(appState: .coldStart)
        #expect(host.receive(message(id: "ready-000001"))?.result?.waitingForReady == true)
        #expect(host.pageEventsPosted.isEmpty)
        host.becomeReady()
        #expect(completions(host) == [["requestId": "ready-000001", "route": "applyForm", "outcome": "navigated"]])
    }

    @Test func aResolvingReplyThenAStepTimeoutSendsFailedWithTheReason() throws {
        let host = try MockBridgeHost(compiled: try Self.compiled.get(), stepTimeoutMs: 6_000)
        try host.open(entry: seedEntry)
        host.heldSteps = [.resolveDetail]
        host.receive(message("view_vehicles", id: "slow-000010", payload: ["vehicleType": "1ton"]))
        host.advanceClock(byMs: 2_500)
        #expect(host.replies.first?.result?.resolving == true)
        #expect(host.pageEventsPosted.isEmpty)
        host.advanceClock(byMs: 3_500)
        let payload = try #require(completions(host).first)
        #expect(payload["requestId"] == "slow-000010" && payload["outcome"] == "failed")
        #expect(payload["reason"]?.stringValue?.isEmpty == false)
    }

    @Test func aResolvingReplyThenTheFetchEndsSendsNavigated() throws {
        let host = try host()
        host.stepLatencyMs[.resolveDetail] = 8_000
        host.receive(message("view_vehicles", id: "slow-000011", payload: ["vehicleType": "1ton"]))
        host.advanceClock(byMs: 2_500)
        #expect(host.pageEventsPosted.isEmpty)
        host.advanceClock(byMs: 5_500)
        #expect(completions(host) == [["requestId": "slow-000011", "route": "vehicleList", "outcome": "navigated"]])
    }

    @Test func aResolvingNavigationTheAppCancelsSendsCancelled() throws {
        let host = try host()
        host.heldSteps = [.resolveDetail]
        host.receive(message("view_vehicles", id: "slow-000012", payload: ["vehicleType": "1ton"]))
        host.advanceClock(byMs: 2_500)
        #expect(host.replies.first?.result?.resolving == true)
        let envelope = try #require(host.waitingStep?.destination.envelopeID)
        #expect(host.navigator.cancel(envelope))
        #expect(completions(host) == [["requestId": "slow-000012", "route": "vehicleList", "outcome": "cancelled"]])
    }

    @Test func aPendingLoginReplacedByANewerOneSaysSo() throws {
        let host = try host(loggedIn: false)
        host.receive(message(id: "first-000001"))
        host.receive(message(id: "second-00001", payload: ["slug": "summer-promo"]))
        let first = try #require(completions(host).first)
        #expect(first["requestId"] == "first-000001" && first["outcome"] == "replaced_while_pending")
        host.completeLogin()
        #expect(completions(host).map { $0["requestId"] } == ["first-000001", "second-00001"])
    }

    @Test func aNavigationThatEndsBeforeItsReplySendsNoEvent() throws {
        let host = try host()
        #expect(host.receive(message(id: "fast-000001"))?.ok == true)
        host.stepLatencyMs[.resolveDetail] = 300
        host.receive(message("view_vehicles", id: "fast-000002", payload: ["vehicleType": "1ton"]))
        host.advanceClock(byMs: 300)
        #expect(host.replies.count == 2)
        #expect(host.pageEventsPosted.isEmpty && host.bridge.navigationsAwaitingCompletion == 0)
    }

    @Test func aNotificationHasNoRequestToReportOn() throws {
        let host = try host(loggedIn: false)
        #expect(host.receive(message("view_vehicles", id: nil, payload: ["vehicleType": "1ton"])) == nil)
        host.completeLogin()
        #expect(host.navigations.count == 1)
        #expect(host.pageEventsPosted.isEmpty)
    }

    // MARK: emit

    @Test func aValidEventIsPostedAsThePageBoundMessage() throws {
        let host = try host()
        try host.emit(event: "login_state_changed", version: 1, payload: ["loggedIn": true, "reason": "login"])
        #expect(host.pageEventsPosted.map(\.text) == [#"{"v":1,"event":"login_state_changed","version":1,"payload":{"loggedIn":true,"reason":"login"}}"#])
        #expect(host.pageEventFailures.isEmpty)
    }

    @Test func anInvalidPayloadThrowsIsRecordedAndNothingIsPosted() throws {
        let host = try host()
        #expect {
            try host.emit(event: "login_state_changed", version: 1, payload: ["loggedIn": "yes"])
        } throws: { error in
            guard case .invalidPayload(_, _, let details) = error as? PageEventError else { return false }
            return details.contains { $0["instanceLocation"] == "/payload/loggedIn" && $0["keyword"] == "type" }
        }
        #expect(host.pageEventsPosted.isEmpty)
        #expect(host.pageEventFailures.map(\.error.code) == ["invalid_payload"])
    }

    @Test func anUndeclaredEventOrVersionIsRefused() throws {
        let host = try host()
        #expect(throws: PageEventError.self) { try host.emit(event: "cart_updated", version: 1, payload: [:]) }
        #expect(throws: PageEventError.self) { try host.emit(event: "login_state_changed", version: 2, payload: ["loggedIn": true]) }
        #expect(host.pageEventsPosted.isEmpty)
        #expect(host.pageEventFailures.map(\.error.code) == ["undeclared_event", "undeclared_event"])
    }

    @Test func anEventIsWithheldFromAnotherOriginASubframeAndAMissingPage() throws {
        let host = try host()
        let payload: JSONValue = ["loggedIn": true]
        host.pageLocation = PageLocation(origin: "https://evil.example", isMainFrame: true)
        #expect(throws: PageEventError.self) { try host.emit(event: "login_state_changed", version: 1, payload: payload) }
        host.pageLocation = PageLocation(origin: "https://sendy.co.kr", isMainFrame: false)
        #expect(throws: PageEventError.self) { try host.emit(event: "login_state_changed", version: 1, payload: payload) }
        host.pageLocation = nil
        #expect(throws: PageEventError.self) { try host.emit(event: "login_state_changed", version: 1, payload: payload) }
        #expect(host.pageEventsPosted.isEmpty)
        #expect(host.pageEventFailures.map(\.error.code) == ["withheld", "withheld", "no_page"])
        host.pageLocation = PageLocation(origin: "https://event.sendy.co.kr", isMainFrame: true)
        try host.emit(event: "login_state_changed", version: 1, payload: payload)
        #expect(host.pageEventsPosted.count == 1)
    }

    @Test func aNavigationCompletedForAPageThatLeftIsRecordedNotPosted() throws {
        let host = try host(loggedIn: false)
        host.receive(message(id: "left-000001"))
        host.pageLocation = PageLocation(origin: "https://evil.example", isMainFrame: true)
        host.completeLogin()
        #expect(host.navigations.count == 1)
        #expect(host.pageEventsPosted.isEmpty)
        #expect(host.pageEventFailures.map(\.event) == ["navigation_completed"])
    }

    @Test func aBuildWhoseCapabilitiesListNoEventsSendsNone() throws {
        let contracts = try Self.compiled.get().contracts
        let old = AppRelease(build: AppBuild(platform: .ios, version: SemanticVersion(major: 1, minor: 0, patch: 0)),
                             actions: AppRelease.actions(of: contracts.manifest))
        let host = try host(loggedIn: false, capabilities: try HostCapabilities(contracts: contracts, release: old))
        #expect(throws: PageEventError.notSentByThisBuild(event: "login_state_changed", version: 1)) {
            try host.emit(event: "login_state_changed", version: 1, payload: ["loggedIn": true])
        }
        host.receive(message(id: "old-00000001"))
        host.completeLogin()
        #expect(host.pageEventsPosted.isEmpty)
    }

    struct LoginStateChanged: PageEventPayload {
        static let event = "login_state_changed"
        static let version = 1
        var loggedIn: Bool
        var payloadJSON: JSONValue { ["loggedIn": .bool(loggedIn)] }
    }

    @Test func theTypedFormSendsTheSameMessage() throws {
        let host = try host()
        try host.bridge.emit(LoginStateChanged(loggedIn: false))
        #expect(host.pageEventsPosted.map(\.text) == [#"{"v":1,"event":"login_state_changed","version":1,"payload":{"loggedIn":false}}"#])
    }

    @Test func capabilitiesListTheEventsABuildSends() throws {
        let capabilities = HostCapabilities(contracts: try Self.compiled.get().contracts)
        #expect(capabilities.json["events"] == ["navigation_completed": [1], "login_state_changed": [1]])
        #expect(capabilities.sends("login_state_changed", version: 1))
        #expect(!capabilities.sends("login_state_changed", version: 2))
        #expect(!capabilities.sends("cart_updated", version: 1))
    }
}

extension LoginStateChangedEventV1: PageEventPayload {}

@Suite("Generated event types")
@MainActor
struct GeneratedEventTypeTests {
    @Test func aGeneratedEventTypeIsEmittedAsItsMessage() throws {
        let host = try MockBridgeHost(compiled: try PageEventTests.compiled.get())
        try host.bridge.emit(LoginStateChangedEventV1(payload: .init(loggedIn: true, reason: .login)))
        #expect(host.pageEventsPosted.map(\.text) == [#"{"v":1,"event":"login_state_changed","version":1,"payload":{"loggedIn":true,"reason":"login"}}"#])
        #expect(ContractTypes.events.map { "\($0.event) v\($0.version)" } == ["login_state_changed v1"])
    }

    @Test func theCheckerStillJudgesATypedPayload() throws {
        // The type says nothing of patterns; here it cannot be wrong, so a hand-written type that
        // claims the event with another payload shape shows the schema still decides.
        struct Impostor: PageEventPayload, Encodable {
            static let event = "login_state_changed"
            static let version = 1
            let v = 1, event = "login_state_changed", version = 1
            let payload = ["loggedIn": "yes"]
        }
        let host = try MockBridgeHost(compiled: try PageEventTests.compiled.get())
        #expect(throws: PageEventError.self) { try host.bridge.emit(Impostor()) }
        #expect(host.pageEventsPosted.isEmpty)
    }
}
