#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation

/// The native end of the bridge: every raw WebView message goes through the same small steps and
/// every request gets a reply (only notifications, messages without `id`, get none, and they are
/// still recorded). Steps, each its own type:
///
/// 1. size limit (`limits.maxMessageBytes`)             -> INVALID_MESSAGE
/// 2. parse: duplicate keys rejected, depth limit       -> INVALID_MESSAGE (id null: none readable)
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
    public let handler: DeepLinkHandler
    public let navigator: DeeplinkNavigator
    public weak var recorder: HostRecorder?
    /// The action versions this host takes (an app build's); the page reads the same manifest.
    public let capabilities: HostCapabilities

    private let schemas: ContractSchemas
    private let originPolicy: OriginPolicy
    private let mapper: ActionMapper
    private var requestIDs: RequestIDMemory
    public private(set) var campaign = CampaignContext.none
    /// Envelopes this host handed to the navigator and not yet consumed, for their screen_view.
    private var submitted: Set<EnvelopeID> = []
    /// Replies (and notification records) waiting for their navigation to settle, by envelope.
    private var awaiting: [EnvelopeID: AwaitingReply] = [:]
    /// How long before the contract's `timeoutMs` a still-resolving navigation is answered.
    public let replyMarginMs: Int

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
    public convenience init(contracts: ContractSet, navigator: DeeplinkNavigator, recorder: HostRecorder? = nil,
                            capabilities: HostCapabilities? = nil, requestIDCapacity: Int = 4096,
                            replyMarginMs: Int = 500) throws(BridgeHostSetupError) {
        let compiled: CompiledContracts
        do {
            compiled = try CompiledContracts(contracts: contracts)
        } catch {
            throw .contracts(error)
        }
        try self.init(compiled: compiled, navigator: navigator, recorder: recorder, capabilities: capabilities,
                      requestIDCapacity: requestIDCapacity, replyMarginMs: replyMarginMs)
    }

    /// Shares contracts compiled once among many hosts (one per WebView). `capabilities`: the
    /// action versions this build takes (default: every version of the contracts).
    public init(compiled: CompiledContracts, navigator: DeeplinkNavigator, recorder: HostRecorder? = nil,
                capabilities: HostCapabilities? = nil, requestIDCapacity: Int = 4096,
                replyMarginMs: Int = 500) throws(BridgeHostSetupError) {
        let contracts = compiled.contracts
        self.contracts = contracts
        self.capabilities = capabilities ?? HostCapabilities(contracts: contracts)
        do {
            handler = try DeepLinkHandler(contracts: contracts)
        } catch {
            switch error {
            case .routes(let routes): throw .routes(routes)
            case .campaignRules(let rules): throw .campaignRules(rules)
            }
        }
        self.navigator = navigator
        self.recorder = recorder
        schemas = ContractSchemas(compiled: compiled)
        originPolicy = OriginPolicy(allowedOrigins: contracts.manifest.allowedOrigins)
        mapper = ActionMapper(handler: handler)
        requestIDs = RequestIDMemory(capacity: requestIDCapacity)
        self.replyMarginMs = max(0, replyMarginMs)
        navigator.addObserver { [weak self] entry in self?.navigatorRecorded(entry) }
    }

    private var manifest: BridgeManifest { contracts.manifest }

    // MARK: - Page entry

    /// A page was opened from `entry` (the AlimTalk / push / marketing link, or nil for an in-app
    /// page). Its campaign metadata becomes authoritative for the page's messages. Records
    /// `push_clicked` (push entries) and `event_webview_opened`. When the entry does not parse, the
    /// page still counts as opened with only the source known, and the error is thrown.
    @discardableResult
    public func open(entry: String?, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> ParsedDeeplink? {
        guard let entry else {
            campaign = CampaignContext(entry: CampaignMetadata(source: source ?? .appInternal))
            recordOpened(path: nil, url: nil)
            return nil
        }
        let parsed: ParsedDeeplink
        do {
            parsed = try handler.parse(entry, source: source)
        } catch {
            campaign = CampaignContext(entry: CampaignMetadata(source: source ?? .externalURL))
            recordOpened(path: nil, url: nil)
            throw error
        }
        campaign = CampaignContext(entry: parsed.campaignMetadata)
        recordOpened(path: parsed.path, url: parsed.url)
        return parsed
    }

    private func recordOpened(path: String?, url: String?) {
        var fields: [(String, JSONValue)] = []
        if let path { fields.append(("path", .string(path))) }
        if campaign.entry.source == .push {
            record(.analytics(.make(AnalyticsEvent.pushClicked, fields, campaign: campaign.entry)))
        }
        if let url { fields.append(("url", .string(url))) }
        record(.analytics(.make(AnalyticsEvent.webviewOpened, fields, campaign: campaign.entry)))
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
        // 1-2: size, then parse. No id can be read from what does not parse.
        let message: ParsedMessage
        switch MessageReader(limits: manifest.limits).read(body) {
        case .failure(let error): return reply(BridgeReply(id: nil, outcome: .failure(error)))
        case .success(let parsed): message = parsed
        }
        let id = message.requestID
        func fail(_ error: BridgeError) { reply(BridgeReply(id: id, outcome: .failure(error))) }

        // Fast path: a message valid for its action's schema (which includes the envelope) skips the
        // envelope check; the order of the answers below is unchanged.
        let declared = manifest.action(named: message.value["action"]?.stringValue ?? "")?
            .contract(version: Int(message.value["version"]?.integerValue ?? 0))
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
        let actionName = message.value["action"]?.stringValue ?? ""
        if actionName == HostCapabilities.requestAction {
            return reply(CapabilitiesRequest(capabilities: capabilities).reply(to: message.value, id: id))
        }
        guard let action = manifest.action(named: actionName), !capabilities.versions(of: actionName).isEmpty else {
            let known = capabilities.actions.map(\.action).joined(separator: ", ")
            return fail(BridgeError(.unknownAction, manifest.action(named: actionName) == nil
                ? "unknown action \"\(actionName)\" (actions: \(known))"
                : "this app build does not have \(actionName) (actions: \(known))"))
        }
        let version = Int(message.value["version"]?.integerValue ?? 0)
        guard let contract = action.contract(version: version), capabilities.takes(action.name, version: version) else {
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
        let (metadata, conflicts) = campaign.merged(with: message.value["campaign"]?.objectValue, requestID: id)
        let deeplink: ParsedDeeplink
        switch mapper.deeplink(for: message.value, contract: contract, campaign: metadata) {
        case .failure(let error): return fail(error)
        case .success(let built): deeplink = built
        }
        if let id { requestIDs.insert(id) }
        for conflict in conflicts { record(.campaignConflict(conflict)) }
        var clickFields: [(String, JSONValue)] = [("action", .string(action.name)), ("version", .integer(Int64(version)))]
        if let id { clickFields.append(("request_id", .string(id))) }
        clickFields.append(("route", .string(deeplink.configuration.name)))
        record(.analytics(.make(AnalyticsEvent.ctaClicked, clickFields, campaign: metadata)))

        // 9: the shared navigator, through the bridge's door.
        let envelopeID = navigator.nextEnvelopeID
        submitted.insert(envelopeID)
        let disposition = navigator.navigate(deeplink, from: .bridge)
        guard case .inProgress(let running) = disposition else {
            return settle(requestID: id, action: action.name, version: version, deeplink: deeplink,
                          outcome: Self.reply(for: disposition, deeplink: deeplink, duplicateWindowMs: manifest.limits.duplicateWindowMs),
                          reply: reply)
        }
        // A notification is not waited for; its outcome is still recorded when it settles.
        if id == nil { reply(nil) }
        let wait = max(contract.timeoutMs / 2, contract.timeoutMs - replyMarginMs)
        let deadline = navigator.clock.schedule(afterMilliseconds: wait) { [weak self] in
            self?.deadlinePassed(running)
        }
        awaiting[running] = AwaitingReply(requestID: id, action: action.name, version: version, deeplink: deeplink,
                                          reply: id == nil ? nil : reply, deadline: deadline)
    }

    /// Answers a message (or records a notification) with the outcome of its navigation.
    private func settle(requestID: String?, action: String, version: Int, deeplink: ParsedDeeplink, outcome: BridgeReply,
                        reply: (@MainActor (BridgeReply?) -> Void)?) {
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
        settle(requestID: waiting.requestID, action: waiting.action, version: waiting.version, deeplink: waiting.deeplink,
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
            record(.analytics(.make(AnalyticsEvent.screenView,
                [("screen", .string(route.configuration.screen)), ("route", .string(route.configuration.name)), ("url", .string(route.url))],
                campaign: route.campaignMetadata)))
        } else if case .opened(let outcome) = entry.outcome {
            // Left the app: the funnel records where to, with the same campaign.
            let route = entry.envelope.route
            record(.analytics(.make(AnalyticsEvent.externalOpened,
                [("route", .string(route.configuration.name)), ("provider", .string(outcome.provider)), ("opened", .string(outcome.target))],
                campaign: route.campaignMetadata)))
        }
        if entry.outcome.settlesRequest, let waiting = awaiting.removeValue(forKey: id) {
            waiting.deadline.cancel()
            let disposition = NavigationDisposition(id, outcome: entry.outcome)
            settle(requestID: waiting.requestID, action: waiting.action, version: waiting.version, deeplink: waiting.deeplink,
                   outcome: Self.reply(for: disposition, deeplink: waiting.deeplink, duplicateWindowMs: manifest.limits.duplicateWindowMs),
                   reply: waiting.reply)
        }
    }

    private func record(_ entry: HostRecord) {
        recorder?.record(entry)
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

    public var description: String {
        switch self {
        case .contracts(let error): return "the contract schemas do not compile: \(error)"
        case .routes(let error): return "routes.json: \(error)"
        case .campaignRules(let error): return "the campaign rules: \(error)"
        }
    }
}
