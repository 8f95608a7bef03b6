#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import SchemaCheck
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation

/// The native end of the bridge: every raw WebView message goes through the same small steps and
/// every request gets a reply (only notifications, messages without `id`, get none, and they are
/// still recorded). Steps, each its own type:
///
/// 1. size limit (`limits.maxMessageBytes`)             -> INVALID_MESSAGE
/// 2. parse: duplicate keys rejected, depth limit       -> INVALID_MESSAGE, echoing the top-level
///    string `id` the raw text still shows (`RawRequestID`; the size limit searches the first KiB),
///    else id null
/// 3. envelope schema                                   -> INVALID_MESSAGE with every output unit
/// 4. origin policy (`OriginPolicy`), frames            -> ORIGIN_REJECTED
/// 5. action and version lookup: what `capabilities` takes -> UNKNOWN_ACTION, UNSUPPORTED_VERSION
///    (the built-in `capabilities` request is answered here with the capability manifest)
/// 6. the action version's schema                       -> INVALID_PARAMS with every output unit
/// 7. request id seen before (`RequestIDMemory`)        -> DUPLICATE
/// 8. declarative mapping to a ParsedDeeplink (`ActionMapper`), campaign merged (`CampaignContext`)
/// 9. the shared `DeeplinkNavigator`, channel `bridge`  -> ok / pendingLogin / waitingForReady /
///                                                         DUPLICATE / NAVIGATION_FAILED
///
/// A custom action version (`"handler": "custom"`) takes steps 1-7 and the campaign merge, then
/// goes to the app's handler registered in `CustomActions` instead of 8-9; its result is checked
/// against the version's result schema before it is replied (a result the schema rejects, or a
/// thrown error, is an error reply and a `customActionFailed` record).
///
/// Steps 1-8 answer at once. Step 9 answers when the navigation settles (navigated, failed, parked
/// for login or ready), or, when it is still resolving (a detail fetch, a navigation ahead of it)
/// as the contract's `timeoutMs` draws near, with `ok` and `resolving: true`: the shim times out at
/// `timeoutMs`, and a late outcome is better told as "accepted, on its way" than as a TIMEOUT for a
/// navigation that then happens. The reply deadline is `timeoutMs - replyMarginMs` (at least half
/// of `timeoutMs`).
///
/// A rejected message changes nothing: no navigator call, no id remembered, no event.
///
/// Main-actor bound: WebKit delivers script messages on the main thread, and the navigator it
/// drives calls UIKit.
@MainActor
public final class BridgeHost {
    public let contracts: ContractSet
    /// The parser that turns a CTA into a `ParsedDeeplink`: the app's own (shared with push and
    /// Universal Links) when it passed one, else one made from the contracts.
    public let handler: DeeplinkHandler
    public let navigator: DeeplinkNavigator
    public var recorder: HostRecorder? {
        get { recorderReference }
        set { recorderReference = newValue }
    }
    // Private storage (here and for `campaign`): the optimizer sees every access and drops the
    // run-time exclusivity check that a public stored property keeps.
    private weak var recorderReference: HostRecorder?
    /// The action versions this host takes (an app build's); the page reads the same manifest.
    public let capabilities: HostCapabilities

    private let schemas: ContractSchemas
    private let originPolicy: OriginPolicy
    private let mapper: ActionMapper
    private let customActions: CustomActions
    /// Custom action handlers still running (their reply comes when they return).
    public private(set) var runningCustomActions = 0
    private var requestIDs: RequestIDMemory
    public var campaign: CampaignContext { campaignContext }
    private var campaignContext = CampaignContext.none
    /// Envelopes this host handed to the navigator and not yet consumed, for their screen_view.
    private var submitted: Set<EnvelopeID> = []
    /// Replies (and notification records) waiting for their navigation to settle, by envelope.
    private var awaiting: [EnvelopeID: AwaitingReply] = [:]
    /// How long before the contract's `timeoutMs` a still-resolving navigation is answered.
    public let replyMarginMs: Int
    /// Where events go (the platform adapter); held weakly, as the adapter holds the host.
    public var pageEvents: PageEventTransport? {
        get { pageEventsReference }
        set { pageEventsReference = newValue }
    }
    private weak var pageEventsReference: PageEventTransport?
    private let eventGate: PageEventGate
    /// Requests answered before their navigation ended (it waited for login or ready, or was
    /// still resolving): the page hears how it ended through `navigation_completed`.
    private var answeredBeforeEnd: [EnvelopeID: AnsweredRequest] = [:]

    private struct AnsweredRequest {
        let requestID: String
        let route: String
    }

    private struct AwaitingReply {
        let requestID: String?
        let action: String
        let version: Int
        let deeplink: ParsedDeeplink
        /// nil for a notification (answered with nil at once; its outcome is recorded when it settles).
        let reply: (@MainActor (BridgeReply?) -> Void)?
        let deadline: ScheduledWork
    }

    /// Compiles every contract schema once. Throws when the contract set is unusable.
    public convenience init(contracts: ContractSet, navigator: DeeplinkNavigator, handler: DeeplinkHandler? = nil,
                            customActions: CustomActions = CustomActions(), recorder: HostRecorder? = nil,
                            capabilities: HostCapabilities? = nil, requestIDCapacity: Int = 4096,
                            replyMarginMs: Int = 500) throws(BridgeHostSetupError) {
        let compiled: CompiledContracts
        do {
            compiled = try CompiledContracts(contracts: contracts)
        } catch {
            throw .contracts(error)
        }
        try self.init(compiled: compiled, navigator: navigator, handler: handler, customActions: customActions,
                      recorder: recorder, capabilities: capabilities, requestIDCapacity: requestIDCapacity,
                      replyMarginMs: replyMarginMs)
    }

    /// Shares contracts compiled once among many hosts (one per WebView).
    /// - navigator: the app's one navigator (shared with push, messenger links, Universal Links).
    /// - handler: the app's own `DeeplinkHandler`, so a CTA is parsed exactly as its links are
    ///   (default: one made from the contracts' routes.json, link settings and campaign rules).
    ///   It must know every route the contracts' route actions name.
    /// - customActions: the app's handlers of the custom action versions this host takes.
    /// - capabilities: the action versions this build takes (default: every version of the contracts).
    public init(compiled: CompiledContracts, navigator: DeeplinkNavigator, handler: DeeplinkHandler? = nil,
                customActions: CustomActions = CustomActions(), recorder: HostRecorder? = nil,
                capabilities: HostCapabilities? = nil, requestIDCapacity: Int = 4096,
                replyMarginMs: Int = 500) throws(BridgeHostSetupError) {
        let contracts = compiled.contracts
        self.contracts = contracts
        manifest = contracts.manifest
        let capabilities = capabilities ?? HostCapabilities(contracts: contracts)
        self.capabilities = capabilities
        if let handler {
            self.handler = handler
        } else {
            do {
                self.handler = try DeeplinkHandler(contracts: contracts)
            } catch {
                switch error {
                case .routes(let routes): throw .routes(routes)
                case .campaignRules(let rules): throw .campaignRules(rules)
                }
            }
        }
        try Self.checkSetup(contracts: contracts, capabilities: capabilities, handler: self.handler, customActions: customActions)
        self.customActions = customActions
        self.navigator = navigator
        recorderReference = recorder
        schemas = ContractSchemas(compiled: compiled)
        originPolicy = OriginPolicy(allowedOrigins: contracts.manifest.allowedOrigins)
        eventGate = PageEventGate(originPolicy: originPolicy)
        mapper = ActionMapper(handler: self.handler)
        requestIDs = RequestIDMemory(capacity: requestIDCapacity)
        self.replyMarginMs = max(0, replyMarginMs)
        navigator.addObserver(owner: self) { host, entry in host.navigatorRecorded(entry) }
    }

    /// Kept whole once: a computed copy would retain and release every field at each read.
    private let manifest: BridgeManifest

    /// What would otherwise fail at the first message: a custom action version this build takes
    /// with no handler, a handler for an action version that is not custom, a route the handler
    /// does not know.
    private static func checkSetup(contracts: ContractSet, capabilities: HostCapabilities, handler: DeeplinkHandler,
                                   customActions: CustomActions) throws(BridgeHostSetupError) {
        for key in customActions.registered {
            guard let contract = contracts.manifest.action(named: key.action)?.contract(version: key.version) else {
                throw .customActionNotDeclared(key, reason: "\(contracts.origin) have no such action version")
            }
            if let route = contract.route {
                throw .customActionNotDeclared(key, reason: "it navigates to route \(route) (manifest.json has no \"handler\": \"custom\")")
            }
        }
        for action in contracts.manifest.actions {
            for contract in action.versions where capabilities.takes(action.name, version: contract.version) {
                switch contract.handler {
                case .custom:
                    if customActions.body(for: action.name, version: contract.version) == nil {
                        throw .customActionNotRegistered(CustomActions.Key(action: action.name, version: contract.version))
                    }
                case .route(let route):
                    if handler.routes.route(named: route) == nil {
                        throw .routeUnknownToHandler(CustomActions.Key(action: action.name, version: contract.version), route: route)
                    }
                }
            }
        }
    }

    // MARK: - Page entry

    /// A page was opened from `entry` (the messenger / push / marketing link, or nil for an in-app
    /// page). Its campaign metadata becomes authoritative for the page's messages. Records the
    /// manifest's `pushClicked` (push entries) and `pageOpened` events. When the entry does not parse, the
    /// page still counts as opened with only the source known, and the error is thrown.
    @discardableResult
    public func open(entry: String?, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> ParsedDeeplink? {
        guard let entry else {
            campaignContext = CampaignContext(entry: CampaignMetadata(source: source ?? .appInternal))
            recordOpened(path: nil, url: nil)
            return nil
        }
        let parsed: ParsedDeeplink
        do {
            parsed = try handler.parse(entry, source: source)
        } catch {
            campaignContext = CampaignContext(entry: CampaignMetadata(source: source ?? .externalURL))
            recordOpened(path: nil, url: nil)
            throw error
        }
        campaignContext = CampaignContext(entry: parsed.campaignMetadata)
        recordOpened(path: parsed.path, url: parsed.url)
        return parsed
    }

    private func recordOpened(path: String?, url: String?) {
        var fields: [(String, JSONValue)] = []
        if let path { fields.append(("path", .string(path))) }
        if campaign.entry.source == .push {
            record(.analytics(.make(manifest.analytics.pushClicked, fields, campaign: campaign.entry)))
        }
        if let url { fields.append(("url", .string(url))) }
        record(.analytics(.make(manifest.analytics.pageOpened, fields, campaign: campaign.entry)))
    }

    // MARK: - Messages

    /// Handles one message and calls `reply` exactly once: with the reply, or with nil for a
    /// notification (a message without `id`). `reply` is called before this returns unless the
    /// message's navigation is still resolving; then it comes when the navigation settles or at the
    /// reply deadline. This is the shape of `WKScriptMessageHandlerWithReply`'s `replyHandler`.
    public func receive(body: [UInt8], origin: String, isMainFrame: Bool, reply: @escaping @MainActor (BridgeReply?) -> Void) {
        handle(body: body, origin: origin, isMainFrame: isMainFrame, reply: reply)
    }

    public func receive(body: String, origin: String, isMainFrame: Bool, reply: @escaping @MainActor (BridgeReply?) -> Void) {
        handle(body: Array(body.utf8), origin: origin, isMainFrame: isMainFrame, reply: reply)
    }

    public func receive(body: Data, origin: String, isMainFrame: Bool, reply: @escaping @MainActor (BridgeReply?) -> Void) {
        handle(body: [UInt8](body), origin: origin, isMainFrame: isMainFrame, reply: reply)
    }

    /// The reply (nil for a notification) once there is one: for the async form of
    /// `WKScriptMessageHandlerWithReply`, `userContentController(_:didReceive:) async`.
    public func receive(body: [UInt8], origin: String, isMainFrame: Bool) async -> BridgeReply? {
        await withCheckedContinuation { continuation in
            handle(body: body, origin: origin, isMainFrame: isMainFrame) { continuation.resume(returning: $0) }
        }
    }

    public func receive(body: String, origin: String, isMainFrame: Bool) async -> BridgeReply? {
        await receive(body: Array(body.utf8), origin: origin, isMainFrame: isMainFrame)
    }

    public func receive(body: Data, origin: String, isMainFrame: Bool) async -> BridgeReply? {
        await receive(body: [UInt8](body), origin: origin, isMainFrame: isMainFrame)
    }

    /// Messages whose reply waits for their navigation.
    public var awaitingReplyCount: Int { awaiting.count }

    private func handle(body: [UInt8], origin: String, isMainFrame: Bool, reply: @escaping @MainActor (BridgeReply?) -> Void) {
        // 1-2: size, then parse. What does not parse echoes the id its raw text still shows.
        MessageReader(limits: manifest.limits).withMessage(body) { read in
            switch read {
            case .failure(let unreadable): reply(BridgeReply(id: unreadable.requestID, outcome: .failure(unreadable.error)))
            case .success(let message): handle(message, origin: origin, isMainFrame: isMainFrame, reply: reply)
            }
        }
    }

    /// Steps 3-9 for a message that parsed (its document lives only while this runs).
    private func handle(_ message: ParsedMessage, origin: String, isMainFrame: Bool, reply: @escaping @MainActor (BridgeReply?) -> Void) {
        let id = message.requestID
        func fail(_ error: BridgeError) { reply(BridgeReply(id: id, outcome: .failure(error))) }

        // Fast path: a message valid for its action's schema (which includes the envelope) skips the
        // envelope check; the order of the answers below is unchanged.
        let declaredAction = manifest.action(named: message.action)
        let declared = declaredAction?.contract(version: message.version)
        let wholeMessageValid = declared.map { schemas.isValid(message, for: $0) } ?? false

        // 3: envelope.
        let envelopeErrors = wholeMessageValid ? [] : schemas.envelopeErrors(message)
        if !envelopeErrors.isEmpty {
            return fail(BridgeError(.invalidMessage, "the message does not match the envelope schema (\(envelopeErrors.count) error\(envelopeErrors.count == 1 ? "" : "s"))", details: envelopeErrors))
        }
        // 4: origin; frames are refused here unless some action version accepts them.
        if let reason = originPolicy.rejection(of: origin) {
            return fail(BridgeError(.originRejected, reason))
        }
        if !isMainFrame && !schemas.anyActionAllowsFrames {
            return fail(BridgeError(.originRejected, "messages from subframes are not accepted (main frame only)"))
        }
        // 5: action and version, as far as this build takes them; the built-in request first.
        let actionName = message.action
        if actionName == HostCapabilities.requestAction {
            return reply(CapabilitiesRequest(capabilities: capabilities).reply(to: message.value, id: id))
        }
        guard let action = declaredAction, capabilities.takesAnyVersion(of: actionName) else {
            let known = capabilities.actions.map(\.action).joined(separator: ", ")
            return fail(BridgeError(.unknownAction, declaredAction == nil
                ? "unknown action \"\(actionName)\" (actions: \(known))"
                : "this app build does not have \(actionName) (actions: \(known))"))
        }
        let version = message.version
        guard let contract = declared, capabilities.takes(action.name, version: version) else {
            return fail(CapabilitiesRequest.unsupported(action: action.name, version: version, supported: capabilities.versions(of: action.name)))
        }
        if !isMainFrame && !contract.allowFrames {
            return fail(BridgeError(.originRejected, "\(action.name) v\(version) accepts messages from the main frame only"))
        }
        // 6: the action's own schema.
        let paramErrors = wholeMessageValid ? [] : schemas.actionErrors(message, contract: contract)
        if !paramErrors.isEmpty {
            return fail(BridgeError(.invalidParams, "\(action.name) v\(version): \(paramErrors.count) invalid field\(paramErrors.count == 1 ? "" : "s")", details: paramErrors))
        }
        // 7: a resend of a request already handled.
        if let id, requestIDs.contains(id) {
            return fail(BridgeError(.duplicate, "request id \(id) was already handled"))
        }
        // 8: mapping, with the entry's campaign authoritative.
        let (metadata, conflicts) = campaign.merged(with: message.member("campaign")?.objectValue, requestID: id)
        if contract.isCustom {
            if let id { requestIDs.insert(id) }
            for conflict in conflicts { record(.campaignConflict(conflict)) }
            record(.analytics(clickEvent(action.name, version, id, ("handler", "custom"), campaign: metadata)))
            let request = CustomActionRequest(action: action.name, version: version, requestID: id,
                                              payload: message.member("payload") ?? .object(JSONObject()), campaign: metadata,
                                              origin: origin, isMainFrame: isMainFrame)
            return runCustomAction(request, contract: contract, reply: reply)
        }
        let deeplink: ParsedDeeplink
        do throws(BridgeError) {
            deeplink = try mapper.deeplink(for: message, contract: contract, campaign: metadata)
        } catch {
            return fail(error)
        }
        if let id { requestIDs.insert(id) }
        for conflict in conflicts { record(.campaignConflict(conflict)) }
        record(.analytics(clickEvent(action.name, version, id, ("route", .string(deeplink.configuration.name)),
                                          campaign: metadata)))

        // 9: the shared navigator, through the bridge's door.
        let envelopeID = navigator.nextEnvelopeID
        submitted.insert(envelopeID)
        let disposition = navigator.navigate(deeplink, from: .bridge)
        guard case .inProgress(let running) = disposition else {
            return settle(requestID: id, envelope: envelopeID, action: action.name, version: version, deeplink: deeplink,
                          outcome: Self.reply(for: disposition, deeplink: deeplink, duplicateWindowMs: manifest.limits.duplicateWindowMs),
                          reply: reply)
        }
        // A notification is not waited for; its outcome is still recorded when it settles.
        if id == nil { reply(nil) }
        let wait = max(contract.timeoutMs / 2, contract.timeoutMs - replyMarginMs)
        let deadline = navigator.clock.schedule(afterMs: wait) { [weak self] in
            self?.deadlinePassed(running)
        }
        awaiting[running] = AwaitingReply(requestID: id, action: action.name, version: version, deeplink: deeplink,
                                          reply: id == nil ? nil : reply, deadline: deadline)
    }

    /// The cta_clicked event: action, version, the request id if any, then who handles it.
    private func clickEvent(_ action: String, _ version: Int, _ id: String?, _ handling: (String, JSONValue),
                                   campaign: CampaignMetadata) -> AnalyticsEvent {
        .make(manifest.analytics.ctaClicked, fieldCount: 4, campaign: campaign) { properties in
            properties.append(uniqueKey: "action", .string(action))
            properties.append(uniqueKey: "version", .integer(Int64(version)))
            if let id { properties.append(uniqueKey: "request_id", .string(id)) }
            properties.append(uniqueKey: handling.0, handling.1)
        }
    }

    // MARK: - Custom actions

    private func runCustomAction(_ request: CustomActionRequest<JSONValue>, contract: ActionContract,
                                 reply: @escaping @MainActor (BridgeReply?) -> Void) {
        // Checked at setup: every custom version this host takes has a handler.
        guard let body = customActions.body(for: request.action, version: request.version) else {
            return finishCustomAction(request, contract: contract,
                                      outcome: .failure(BridgeError(.internal, "\(request.action) v\(request.version) has no handler")),
                                      cause: nil, reply: reply)
        }
        switch body {
        case .immediate(let handle):
            do {
                let result = try handle(request)
                finishCustomAction(request, contract: contract, outcome: .success(result), cause: nil, reply: reply)
            } catch {
                finishCustomAction(request, contract: contract, thrown: error, reply: reply)
            }
        case .async(let handle):
            // A notification is not waited for; its outcome is still recorded when the handler returns.
            if request.requestID == nil { reply(nil) }
            runningCustomActions += 1
            Task { @MainActor [weak self] in
                let outcome: Result<JSONValue, any Error>
                do {
                    outcome = .success(try await handle(request))
                } catch {
                    outcome = .failure(error)
                }
                guard let self else { return }
                self.runningCustomActions -= 1
                let answer: (@MainActor (BridgeReply?) -> Void)? = request.requestID == nil ? nil : reply
                switch outcome {
                case .success(let result):
                    self.finishCustomAction(request, contract: contract, outcome: .success(result), cause: nil, reply: answer)
                case .failure(let error):
                    self.finishCustomAction(request, contract: contract, thrown: error, reply: answer)
                }
            }
        }
    }

    private func finishCustomAction(_ request: CustomActionRequest<JSONValue>, contract: ActionContract, thrown error: any Error,
                                    reply: (@MainActor (BridgeReply?) -> Void)?) {
        if let chosen = error as? BridgeError {
            finishCustomAction(request, contract: contract, outcome: .failure(chosen), cause: nil, reply: reply)
        } else {
            finishCustomAction(request, contract: contract,
                               outcome: .failure(BridgeError(.internal, "\(request.action) v\(request.version): the app could not complete the action")),
                               cause: "\(error)", reply: reply)
        }
    }

    /// The handler's result is replied only when its schema accepts it.
    private func finishCustomAction(_ request: CustomActionRequest<JSONValue>, contract: ActionContract,
                                    outcome: Result<JSONValue, BridgeError>, cause: String?,
                                    reply: (@MainActor (BridgeReply?) -> Void)?) {
        var outcome = outcome
        if case .success(let result) = outcome, let schema = schemas.compiled.resultSchema(for: contract), !schema.isValid(result) {
            let units = schema.validate(result).units.map(\.json)
            outcome = .failure(BridgeError(.internal,
                "\(request.action) v\(request.version): the app's result does not match schemas/\(contract.resultSchema ?? "") (\(units.count) error\(units.count == 1 ? "" : "s"))",
                details: units))
        }
        if case .failure(let error) = outcome {
            record(.customActionFailed(CustomActionFailure(action: request.action, version: request.version,
                                                           requestID: request.requestID, error: error, cause: cause)))
        }
        guard let requestID = request.requestID else {
            let code: String
            switch outcome {
            case .success: code = "ok"
            case .failure(let error): code = error.code.rawValue
            }
            record(.notification(action: request.action, version: request.version, outcome: code))
            reply?(nil)
            return
        }
        reply?(BridgeReply(id: requestID, outcome: outcome.map(ReplyResult.custom)))
    }

    /// Answers a message (or records a notification) with the outcome of its navigation.
    private func settle(requestID: String?, envelope: EnvelopeID, action: String, version: Int, deeplink: ParsedDeeplink,
                        outcome: BridgeReply, reply: (@MainActor (BridgeReply?) -> Void)?) {
        if let requestID, let result = outcome.result, result.pendingLogin || result.waitingForReady || result.resolving {
            answeredBeforeEnd[envelope] = AnsweredRequest(requestID: requestID, route: result.route)
        }
        guard let requestID else {
            let result = outcome.error?.code.rawValue ?? (outcome.result?.resolving == true ? "resolving" : "ok")
            record(.notification(action: action, version: version, outcome: result))
            reply?(nil)
            return
        }
        reply?(BridgeReply(id: requestID, outcome: outcome.outcome))
    }

    private func deadlinePassed(_ envelope: EnvelopeID) {
        guard let waiting = awaiting.removeValue(forKey: envelope) else { return }
        let route = waiting.deeplink.configuration.name
        settle(requestID: waiting.requestID, envelope: envelope, action: waiting.action, version: waiting.version, deeplink: waiting.deeplink,
               outcome: BridgeReply(id: nil, outcome: .success(.navigation(BridgeResult(route: route, url: waiting.deeplink.url, resolving: true)))),
               reply: waiting.reply)
    }

    /// The reply for what the navigator said about a CTA's envelope.
    static func reply(for disposition: NavigationDisposition, deeplink: ParsedDeeplink, duplicateWindowMs: Int) -> BridgeReply {
        let route = deeplink.configuration.name
        func navigationFailed(_ message: String, _ reason: String, _ extra: [(String, JSONValue)] = []) -> BridgeReply {
            let detail = JSONObject([("reason", .string(reason)), ("route", .string(route))] + extra)
            return BridgeReply(id: nil, outcome: .failure(BridgeError(.navigationFailed, message, details: [.object(detail)])))
        }
        switch disposition {
        case .navigated:
            return BridgeReply(id: nil, outcome: .success(.navigation(BridgeResult(route: route, url: deeplink.url))))
        case .opened(_, let outcome):
            return BridgeReply(id: nil, outcome: .success(.navigation(BridgeResult(route: route, url: deeplink.url, opened: outcome.target,
                                                                                   provider: outcome.provider))))
        case .pendingLogin:
            return BridgeReply(id: nil, outcome: .success(.navigation(BridgeResult(route: route, url: deeplink.url, pendingLogin: true))))
        case .waitingForReady:
            return BridgeReply(id: nil, outcome: .success(.navigation(BridgeResult(route: route, url: deeplink.url, waitingForReady: true))))
        case .inProgress:
            return BridgeReply(id: nil, outcome: .success(.navigation(BridgeResult(route: route, url: deeplink.url, resolving: true))))
        case .duplicate(_, let original):
            return BridgeReply(id: nil, outcome: .failure(BridgeError(.duplicate,
                "the same destination was requested within \(duplicateWindowMs) ms (envelope \(original))")))
        case .failed(_, let failure):
            var extra: [(String, JSONValue)] = failure.step.map { [("step", .string($0.rawValue))] } ?? []
            if case .external(let error) = failure, let provider = error.provider { extra.append(("provider", .string(provider))) }
            return navigationFailed(failure.description, failure.code, extra)
        case .refused(_, let refusal):
            return navigationFailed(refusal.description, refusal.code, [("channel", .string(refusal.channel.rawValue))])
        case .offered:
            // Only deferred deep links are offered; a CTA comes through the bridge.
            return BridgeReply(id: nil, outcome: .failure(BridgeError(.internal, "a CTA's navigation was offered like a deferred link")))
        case .cancelled(_, let byLogout):
            return byLogout
                ? navigationFailed("the person logged out before \(route) could be shown", "cancelled_by_logout")
                : navigationFailed("the app cancelled the navigation to \(route)", "cancelled")
        }
    }

    /// Emits the destination's screen_view for navigations this host caused, even when they happen
    /// later (after login, once the app is ready, after a detail fetch), and settles replies that
    /// waited for their navigation.
    private func navigatorRecorded(_ entry: EnvelopeLogEntry) {
        let id = entry.envelopeID
        guard submitted.contains(id) else { return }
        if entry.outcome.isTerminal { submitted.remove(id) }
        // The screen view first, then the reply: the same order as a navigation that completes at once.
        if entry.outcome == .navigated {
            let route = entry.envelope.route
            record(.analytics(.make(manifest.analytics.screenView, fieldCount: 3, campaign: route.campaignMetadata) { properties in
                properties.append(uniqueKey: "screen", .string(route.configuration.screen))
                properties.append(uniqueKey: "route", .string(route.configuration.name))
                properties.append(uniqueKey: "url", .string(route.url))
            }))
        } else if case .opened(let outcome) = entry.outcome {
            // Left the app: the funnel records where to, with the same campaign.
            let route = entry.envelope.route
            record(.analytics(.make(manifest.analytics.externalAppOpened,
                [("route", .string(route.configuration.name)), ("provider", .string(outcome.provider)), ("opened", .string(outcome.target))],
                campaign: route.campaignMetadata)))
        }
        if entry.outcome.isTerminal, !answeredBeforeEnd.isEmpty, let answered = answeredBeforeEnd.removeValue(forKey: id) {
            sendNavigationCompleted(answered, outcome: entry.outcome)
        }
        if entry.outcome.settlesRequest, !awaiting.isEmpty, let waiting = awaiting.removeValue(forKey: id) {
            waiting.deadline.cancel()
            let disposition = NavigationDisposition(id, outcome: entry.outcome)
            settle(requestID: waiting.requestID, envelope: id, action: waiting.action, version: waiting.version, deeplink: waiting.deeplink,
                   outcome: Self.reply(for: disposition, deeplink: waiting.deeplink, duplicateWindowMs: manifest.limits.duplicateWindowMs),
                   reply: waiting.reply)
        }
    }

    private func record(_ entry: HostRecord) {
        recorderReference?.record(entry)
    }

    // MARK: - Events to the page

    /// Requests answered before their navigation ended, whose `navigation_completed` is still to come.
    public var navigationsAwaitingCompletion: Int { answeredBeforeEnd.count }

    /// Sends an event to the page: checked against its schema with the C checker first, then
    /// posted through `pageEvents` if the page is at an allowed origin, in the main frame.
    /// Nothing is posted when any check fails: the call throws and `eventFailed` is recorded.
    public func emit(event: String, version: Int, payload: JSONValue) throws(PageEventError) {
        do {
            let checked = try check(PageEvent(event: event, version: version, payload: payload))
            try post(checked)
        } catch {
            record(.eventFailed(PageEventFailure(event: event, version: version, error: error)))
            throw error
        }
    }

    /// The typed form: a generated event payload type names its event and version.
    public func emit<Payload: PageEventPayload>(_ payload: Payload) throws(PageEventError) {
        let json: JSONValue
        do {
            json = try payload.payloadJSON
        } catch {
            let failure = PageEventError.invalidPayload(event: Payload.event, version: Payload.version,
                                                        details: [.string("the payload could not be encoded: \(error)")])
            record(.eventFailed(PageEventFailure(event: Payload.event, version: Payload.version, error: failure)))
            throw failure
        }
        try emit(event: Payload.event, version: Payload.version, payload: json)
    }

    private func check(_ event: PageEvent) throws(PageEventError) -> PageEvent {
        guard manifest.event(named: event.event)?.contract(version: event.version) != nil,
              let schema = schemas.compiled.eventSchema(event.event, version: event.version) else {
            throw .undeclared(event: event.event, version: event.version,
                              known: manifest.allEvents.flatMap { e in e.versions.map { "\(e.name) v\($0.version)" } })
        }
        guard capabilities.sends(event.event, version: event.version) else {
            throw .notSentByThisBuild(event: event.event, version: event.version)
        }
        let message = event.message
        if !schema.isValid(message) {
            throw .invalidPayload(event: event.event, version: event.version, details: schema.validate(message).units.map(\.json))
        }
        return event
    }

    private func post(_ event: PageEvent) throws(PageEventError) {
        guard let transport = pageEventsReference, let location = transport.pageLocation else {
            throw .noPage(event: event.event)
        }
        if let refusal = eventGate.refusal(for: location) { throw .withheld(event: event.event, reason: refusal) }
        transport.post(event)
        record(.eventSent(event))
    }

    private func sendNavigationCompleted(_ request: AnsweredRequest, outcome: EnvelopeOutcome) {
        // An app that wired no event transport, or a build that does not send the event, is not told.
        guard pageEventsReference != nil, capabilities.sends(BuiltInEvents.navigationCompleted, version: 1) else { return }
        var payload = JSONObject([("requestId", .string(request.requestID)), ("route", .string(request.route)),
                                  ("outcome", .string(outcome.name))])
        switch outcome {
        case .failed(let failure): payload["reason"] = .string(failure.code)
        case .refused(let refusal): payload["reason"] = .string(refusal.code)
        default: break
        }
        // A build that does not send it, or a page that has gone: recorded, never thrown at the navigator.
        try? emit(event: BuiltInEvents.navigationCompleted, version: 1, payload: .object(payload))
    }
}

/// The contract set cannot back a host. Each case keeps the error it wraps, so a caller can tell
/// which file and field is at fault; the description is one readable line.
public enum BridgeHostSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A contract schema does not register or compile (`CompiledContracts`).
    case contracts(ContractError)
    /// routes.json does not form a route table (two patterns match the same URLs, a bad pattern...).
    case routes(RouteTableError)
    /// The campaign schema cannot be applied to links as campaign rules.
    case campaignRules(ContractError)
    /// A custom action version this host takes has no handler in `CustomActions`.
    case customActionNotRegistered(CustomActions.Key)
    /// `CustomActions` has a handler for an action version the contracts do not declare custom.
    case customActionNotDeclared(CustomActions.Key, reason: String)
    /// The injected `DeeplinkHandler` has no route of this name, which an action version navigates to.
    case routeUnknownToHandler(CustomActions.Key, route: String)

    public var description: String {
        switch self {
        case .contracts(let error): return "the contract schemas do not compile: \(error)"
        case .routes(let error): return "routes.json: \(error)"
        case .campaignRules(let error): return "the campaign rules: \(error)"
        case .customActionNotRegistered(let key):
            return "\(key) is a custom action (\"handler\": \"custom\") and no handler is registered for it: register one in CustomActions, or leave the version out of this build's capabilities"
        case .customActionNotDeclared(let key, let reason):
            return "a handler is registered for \(key), which is not a custom action: \(reason)"
        case .routeUnknownToHandler(let key, let route):
            return "\(key) navigates to route \(route), which the DeeplinkHandler given to the host does not have"
        }
    }
}
