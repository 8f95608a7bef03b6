import BridgeContracts
import BridgeContractTypes
import BridgeHost
import BridgeHostTesting
import DeeplinkNavigation
import DeeplinkRouting
import JSONCore
import Testing
import TestSupport

/// The custom-action test contracts: apply v1 (a route) and share v1 (`"handler": "custom"`).
func customActionContracts() throws -> ContractSet {
    try ContractSet.load(directory: RepositoryPaths.url("Tests/contracts/custom-action").path)
}

/// The app's navigation host, recording what it would show.
@MainActor
final class RecordingNavigationHost: CallbackNavigationHost, AuthState {
    var isLoggedIn = true
    private(set) var shown: [String] = []

    func selectTab(for destination: NavigationDestination, completion: @escaping @MainActor (Result<Void, NavigationStepError>) -> Void) {
        completion(.success(()))
    }
    func attachList(for destination: NavigationDestination) throws(NavigationStepError) {}
    func resolveDetail(for destination: NavigationDestination, completion: @escaping @MainActor (DetailResolution) -> Void) {
        completion(.found)
    }
    func show(for destination: NavigationDestination) throws(NavigationStepError) {
        shown.append("\(destination.route.name) \(destination.url)")
    }
    func presentLogin() {}
    func cancelSteps(for destination: NavigationDestination) {}
}

@MainActor
final class RecordingRecorder: HostRecorder {
    private(set) var records: [HostRecord] = []
    func record(_ record: HostRecord) { records.append(record) }

    var failures: [CustomActionFailure] {
        records.compactMap { if case .customActionFailed(let failure) = $0 { return failure } else { return nil } }
    }
}

/// What share v1's handler is given, read with the app's own Codable type.
struct SharePayload: Decodable, Sendable, Equatable {
    let url: String
    let title: String
    let text: String?
}

struct ShareResult: Encodable, Sendable {
    let shared: Bool
    let target: String?
}

/// What a handler saw, handed back from wherever it ran.
actor Captured<Value: Sendable> {
    private(set) var values: [Value] = []
    func append(_ value: Value) { values.append(value) }
}

struct ShareFailure: Error, CustomStringConvertible {
    var description: String { "the share sheet crashed: secret internal detail" }
}

@Suite("Custom actions: app code answers, its result is checked against the result schema")
@MainActor
struct CustomActionTests {
    let navigationHost = RecordingNavigationHost()
    let recorder = RecordingRecorder()

    private func bridge(_ customActions: CustomActions, contracts: ContractSet? = nil,
                        handler: DeeplinkHandler? = nil) throws -> (BridgeHost, DeeplinkNavigator) {
        let navigator = DeeplinkNavigator(host: navigationHost, auth: navigationHost, clock: ManualNavigationClock(),
                                          duplicateWindowMs: 2_000)
        let bridge = try BridgeHost(contracts: try contracts ?? customActionContracts(), navigator: navigator, handler: handler,
                                    customActions: customActions, recorder: recorder)
        return (bridge, navigator)
    }

    private let sharePayload: JSONValue = ["url": "https://event.sendy.co.kr/new-user-promo", "title": "센디 첫 이용 혜택"]

    @Test func theHandlerGetsTheTypedPayloadTheCampaignAndTheOriginAndItsResultIsReplied() async throws {
        let seen = Captured<CustomActionRequest<SharePayload>>()
        var actions = CustomActions()
        actions.register("share", version: 1, payload: SharePayload.self) { request in
            await seen.append(request)
            return ShareResult(shared: true, target: "kakaotalk")
        }
        let (bridge, _) = try bridge(actions)
        try bridge.open(entry: seedEntry)
        let body = message("share", id: "share-0000001", payload: sharePayload,
                           campaign: ["campaign_id": "page-says-otherwise", "utm_content": "footer_button"])
        let reply = try #require(await bridge.receive(body: body, origin: "https://event.sendy.co.kr", isMainFrame: true))

        #expect(reply.json == ["v": 1, "id": "share-0000001", "ok": true, "result": ["shared": true, "target": "kakaotalk"]])
        let request = try #require(await seen.values.first)
        #expect(request.payload == SharePayload(url: "https://event.sendy.co.kr/new-user-promo", title: "센디 첫 이용 혜택", text: nil))
        #expect(request.action == "share" && request.version == 1 && request.requestID == "share-0000001")
        #expect(request.origin == "https://event.sendy.co.kr")
        #expect(request.isMainFrame)
        // The entry link's campaign is authoritative; the page fills in what the entry left empty.
        #expect(request.campaign.campaignId == "2025Q3_signup_retarget")
        #expect(request.campaign.source == .kakaotalk)
        #expect(request.campaign.utm["utm_content"] == "footer_button")
        #expect(navigationHost.shown.isEmpty, "a custom action navigates nowhere")
        #expect(recorder.failures.isEmpty)
    }

    @Test func aGeneratedPayloadTypeIsTheTypedPayload() async throws {
        // The bundled contracts with start v1 answered by app code: StartV1.Payload is generated
        // from start.v1.json into BridgeContractTypes.
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        let manifest = try #require(files["manifest.json"])
        let routeHandled = """
            "schema": "start.v1.json",
                      "route": "onboardingStart",
                      "query": { "referrer": "/payload/referrer", "promoCode": "/payload/promoCode" },
                      "timeoutMs": 3000,
                      "fallback": "universalLink"
            """
        try #require(manifest.contains(routeHandled))
        files["manifest.json"] = manifest.replacingOccurrences(of: routeHandled, with: #""schema": "start.v1.json", "handler": "custom", "result": "start.result.v1.json""#)
        files["schemas/start.result.v1.json"] = #"{"$id": "https://bridge.sendy.co.kr/contracts/schemas/start.result.v1.json", "type": "object", "required": ["started"], "properties": {"started": {"type": "boolean"}}, "examples": [{"started": true}]}"#
        let contracts = try ContractSet(files: files, origin: "start as a custom action")
        try #require(contracts.manifest.action(named: "start")?.contract(version: 1)?.isCustom == true)

        let seen = Captured<StartV1.Payload>()
        var actions = CustomActions()
        actions.register("start", version: 1, payload: StartV1.Payload.self) { request in
            await seen.append(request.payload)
            return ["started": true] as [String: Bool]
        }
        let (bridge, _) = try bridge(actions, contracts: contracts)
        let reply = await bridge.receive(body: message("start", payload: ["referrer": "new-user-promo", "promoCode": "SENDY2025"]),
                                         origin: "https://sendy.co.kr", isMainFrame: true)
        #expect(reply?.customResult == ["started": true])
        #expect(await seen.values == [StartV1.Payload(referrer: "new-user-promo", promoCode: "SENDY2025")])
    }

    @Test func aResultTheSchemaRejectsIsAnErrorReplyAndRecorded() async throws {
        var actions = CustomActions()
        actions.register("share", version: 1) { _ in ["shared": "yes", "extra": 1] }
        let (bridge, _) = try bridge(actions)
        let reply = try #require(await bridge.receive(body: message("share", id: "share-0000002", payload: sharePayload),
                                                      origin: "https://sendy.co.kr", isMainFrame: true))
        #expect(!reply.ok)
        #expect(reply.customResult == nil, "the page never gets a result its schema rejects")
        let error = try #require(reply.error)
        #expect(error.code == .internal)
        #expect(error.message == "share v1: the app's result does not match schemas/share.result.v1.json (2 errors)")
        #expect(error.details.compactMap { $0["instanceLocation"]?.stringValue }.sorted() == ["/extra", "/shared"])
        #expect(recorder.failures == [CustomActionFailure(action: "share", version: 1, requestID: "share-0000002", error: error, cause: nil)])
    }

    @Test func aThrowingHandlerIsAnInternalErrorReplyThatKeepsItsCauseFromThePage() async throws {
        var actions = CustomActions()
        actions.register("share", version: 1) { _ in throw ShareFailure() }
        let (bridge, _) = try bridge(actions)
        let reply = try #require(await bridge.receive(body: message("share", id: "share-0000003", payload: sharePayload),
                                                      origin: "https://sendy.co.kr", isMainFrame: true))
        let error = try #require(reply.error)
        #expect(error.code == .internal)
        #expect(error.message == "share v1: the app could not complete the action")
        #expect(!reply.text.contains("secret"))
        #expect(recorder.failures.map(\.cause) == ["the share sheet crashed: secret internal detail"])
    }

    @Test func aThrownBridgeErrorChoosesTheReplyCode() async throws {
        var actions = CustomActions()
        actions.register("share", version: 1) { _ in throw BridgeError(.unavailable, "this device cannot share") }
        let (bridge, _) = try bridge(actions)
        let reply = await bridge.receive(body: message("share", payload: sharePayload), origin: "https://sendy.co.kr", isMainFrame: true)
        #expect(reply?.error == BridgeError(.unavailable, "this device cannot share"))
        #expect(recorder.failures.count == 1)
    }

    @Test func aNotificationRunsTheHandlerAndRecordsItsOutcome() async throws {
        var actions = CustomActions()
        actions.registerImmediate("share", version: 1) { _ in ["shared": false] }
        // share v1 requires an id; a copy that does not lets the page notify.
        var files = try RepositoryPaths.jsonFiles(under: "Tests/contracts/custom-action")
        files["schemas/share.v1.json"] = try #require(files["schemas/share.v1.json"]).replacingOccurrences(of: #""required": ["id"],"#, with: "")
        let (bridge, _) = try bridge(actions, contracts: try ContractSet(files: files, origin: "share without id"))
        var replies: [BridgeReply?] = []
        bridge.receive(body: message("share", id: nil, payload: sharePayload), origin: "https://sendy.co.kr", isMainFrame: true) {
            replies.append($0)
        }
        #expect(replies == [nil], "an immediate handler answers before receive returns; a notification with nil")
        #expect(recorder.records.contains(.notification(action: "share", version: 1, outcome: "ok")))
    }

    @Test func aCustomActionWithoutAHandlerStopsTheHostAtSetup() throws {
        #expect(throws: BridgeHostSetupError.customActionNotRegistered(CustomActions.Key(action: "share", version: 1))) {
            _ = try bridge(CustomActions())
        }
        let error = BridgeHostSetupError.customActionNotRegistered(CustomActions.Key(action: "share", version: 1))
        #expect(error.description.hasPrefix("share v1 is a custom action (\"handler\": \"custom\") and no handler is registered for it"))
        // A build that does not take share needs no handler for it.
        let contracts = try customActionContracts()
        let applyOnly = try HostCapabilities(contracts: contracts, release: AppRelease(
            build: try AppBuild(platform: "ios", version: "5.14.0"), actions: [ActionVersions(action: "apply", versions: [1])]))
        let navigator = DeeplinkNavigator(host: navigationHost, auth: navigationHost, duplicateWindowMs: 2_000)
        _ = try BridgeHost(contracts: contracts, navigator: navigator, capabilities: applyOnly)
    }

    @Test func aHandlerForAnActionThatIsNotCustomStopsTheHostAtSetup() throws {
        var actions = CustomActions()
        actions.register("share", version: 1) { _ in ["shared": true] }
        actions.register("apply", version: 1) { _ in [:] }
        #expect(throws: BridgeHostSetupError.customActionNotDeclared(CustomActions.Key(action: "apply", version: 1),
            reason: "it navigates to route applyForm (manifest.json has no \"handler\": \"custom\")")) {
            _ = try bridge(actions)
        }
        var unknown = CustomActions()
        unknown.register("share", version: 1) { _ in ["shared": true] }
        unknown.register("share", version: 2) { _ in ["shared": true] }
        #expect(throws: BridgeHostSetupError.self) { _ = try bridge(unknown) }
    }

    @Test func theInjectedDeeplinkHandlerAndNavigatorAreTheOnesUsed() async throws {
        let contracts = try customActionContracts()
        // The app's own handler: the same routes, its own web host for the links it prints.
        let appHandler = DeeplinkHandler(routes: try RouteTable(routes: contracts.routes), universalLinkHosts: ["m.sendy.co.kr"],
                                         customScheme: "sendy", webBaseURL: "https://m.sendy.co.kr")
        var actions = CustomActions()
        actions.register("share", version: 1) { _ in ["shared": true] }
        let (bridge, navigator) = try bridge(actions, handler: appHandler)
        #expect(bridge.handler.webBaseURL == "https://m.sendy.co.kr")
        #expect(bridge.navigator === navigator)
        let reply = await bridge.receive(body: message(), origin: "https://sendy.co.kr", isMainFrame: true)
        #expect(reply?.result?.url == "https://m.sendy.co.kr/event/new-user-promo/apply")
        #expect(navigationHost.shown == ["applyForm https://m.sendy.co.kr/event/new-user-promo/apply"])
    }

    @Test func anInjectedHandlerWithoutAContractRouteStopsTheHostAtSetup() throws {
        let contracts = try customActionContracts()
        let partial = DeeplinkHandler(routes: try RouteTable(routes: contracts.routes.filter { $0.name != "applyForm" }),
                                      universalLinkHosts: ["sendy.co.kr"], customScheme: "sendy", webBaseURL: "https://sendy.co.kr")
        var actions = CustomActions()
        actions.register("share", version: 1) { _ in ["shared": true] }
        #expect(throws: BridgeHostSetupError.routeUnknownToHandler(CustomActions.Key(action: "apply", version: 1), route: "applyForm")) {
            _ = try bridge(actions, handler: partial)
        }
    }

    @Test func theMockHostAnswersWithTheResultSchemasExampleOrWhatTheTestSets() throws {
        let host = try MockBridgeHost(contracts: try customActionContracts())
        let example = host.receive(message("share", id: "share-0000004", payload: sharePayload))
        #expect(example?.customResult == ["shared": true, "target": "kakaotalk"])
        #expect(host.customRequests.map(\.payload) == [sharePayload])

        host.customResults["share"] = ["shared": false]
        #expect(host.receive(message("share", id: "share-0000005", payload: sharePayload))?.customResult == ["shared": false])

        host.customResults["share"] = ["shared": 1]
        let rejected = host.receive(message("share", id: "share-0000006", payload: sharePayload))
        #expect(rejected?.error?.code == .internal)
        #expect(host.customActionFailures.map(\.requestID) == ["share-0000006"])
        #expect(host.navigations.isEmpty)
    }
}
