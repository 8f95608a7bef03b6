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
/// 5. action and version lookup                         -> UNKNOWN_ACTION, UNSUPPORTED_VERSION
/// 6. the action version's schema                       -> INVALID_PARAMS with every output unit
/// 7. request id seen before (`RequestIDMemory`)        -> DUPLICATE
/// 8. declarative mapping to a ParsedDeeplink (`ActionMapper`), campaign merged (`CampaignContext`)
/// 9. the shared `DeeplinkNavigator`                    -> ok / pendingLogin / DUPLICATE / NAVIGATION_FAILED
///
/// A rejected message changes nothing: no navigator call, no id remembered, no event.
///
/// Not thread-safe: use it from the thread the WebView delivers messages on (the main thread).
public final class BridgeHost {
    public let contracts: ContractSet
    public let handler: DeepLinkHandler
    public let navigator: DeeplinkNavigator
    public weak var recorder: HostRecorder?

    private let schemas: ContractSchemas
    private let originPolicy: OriginPolicy
    private let mapper: ActionMapper
    private var requestIDs: RequestIDMemory
    public private(set) var campaign = CampaignContext.none
    /// Envelopes this host handed to the navigator and not yet settled, for their screen_view.
    private var submitted: Set<EnvelopeID> = []
    /// The deeplink being handed to the navigator right now (its envelope id is not known yet).
    private var submitting: ParsedDeeplink?

    /// Compiles every contract schema once. Throws when the contract set is unusable.
    public convenience init(contracts: ContractSet, navigator: DeeplinkNavigator, recorder: HostRecorder? = nil,
                            requestIDCapacity: Int = 4096) throws(BridgeHostSetupError) {
        let compiled: CompiledContracts
        do {
            compiled = try CompiledContracts(contracts: contracts)
        } catch {
            throw .contracts(error)
        }
        try self.init(compiled: compiled, navigator: navigator, recorder: recorder, requestIDCapacity: requestIDCapacity)
    }

    /// Shares contracts compiled once among many hosts (one per WebView).
    public init(compiled: CompiledContracts, navigator: DeeplinkNavigator, recorder: HostRecorder? = nil,
                requestIDCapacity: Int = 4096) throws(BridgeHostSetupError) {
        let contracts = compiled.contracts
        self.contracts = contracts
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

    public func receive(body: String, origin: String, isMainFrame: Bool) -> BridgeReply? {
        receive(body: Array(body.utf8), origin: origin, isMainFrame: isMainFrame)
    }

    public func receive(body: Data, origin: String, isMainFrame: Bool) -> BridgeReply? {
        receive(body: [UInt8](body), origin: origin, isMainFrame: isMainFrame)
    }

    public func receive(body: [UInt8], origin: String, isMainFrame: Bool) -> BridgeReply? {
        // 1-2: size, then parse. No id can be read from what does not parse.
        let message: ParsedMessage
        switch MessageReader(limits: manifest.limits).read(body) {
        case .failure(let error): return BridgeReply(id: nil, outcome: .failure(error))
        case .success(let parsed): message = parsed
        }
        let id = message.requestID
        func fail(_ error: BridgeError) -> BridgeReply { BridgeReply(id: id, outcome: .failure(error)) }

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
        // 5: action and version.
        let actionName = message.value["action"]?.stringValue ?? ""
        guard let action = manifest.action(named: actionName) else {
            return fail(BridgeError(.unknownAction, "unknown action \"\(actionName)\" (actions: \(manifest.actions.map(\.name).joined(separator: ", ")))"))
        }
        let version = Int(message.value["version"]?.integerValue ?? 0)
        guard let contract = action.contract(version: version) else {
            let supported = action.versions.map(\.version)
            return fail(BridgeError(.unsupportedVersion,
                "\(action.name) has no version \(version) (supported versions: \(supported.map(String.init).joined(separator: ", ")))",
                details: [["action": .string(action.name), "supportedVersions": .array(supported.map { .integer(Int64($0)) })]]))
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

        // 9: the shared navigator.
        submitting = deeplink
        let disposition = navigator.navigate(deeplink)
        submitting = nil
        let outcome = reply(for: disposition, deeplink: deeplink)
        guard let id else {
            record(.notification(action: action.name, version: version, outcome: outcome.ok ? "ok" : outcome.error!.code.rawValue))
            return nil
        }
        return BridgeReply(id: id, outcome: outcome.outcome)
    }

    private func reply(for disposition: NavigationDisposition, deeplink: ParsedDeeplink) -> BridgeReply {
        let route = deeplink.configuration.name
        switch disposition {
        case .navigated:
            return BridgeReply(id: nil, outcome: .success(BridgeResult(route: route, url: deeplink.url, pendingLogin: false, waitingForReady: false)))
        case .pendingLogin:
            return BridgeReply(id: nil, outcome: .success(BridgeResult(route: route, url: deeplink.url, pendingLogin: true, waitingForReady: false)))
        case .waitingForReady:
            return BridgeReply(id: nil, outcome: .success(BridgeResult(route: route, url: deeplink.url, pendingLogin: false, waitingForReady: true)))
        case .duplicate(_, let original):
            return BridgeReply(id: nil, outcome: .failure(BridgeError(.duplicate,
                "the same destination was requested within \(manifest.limits.duplicateWindowMs) ms (envelope \(original))")))
        case .failed(_, let reason):
            return BridgeReply(id: nil, outcome: .failure(BridgeError(.navigationFailed, reason)))
        }
    }

    /// Emits the destination's screen_view for navigations this host caused, even when they happen
    /// later (after login or once the app is ready).
    private func navigatorRecorded(_ entry: EnvelopeLogEntry) {
        let isOwn = submitted.contains(entry.envelopeID) || (submitting != nil && entry.envelope.route == submitting)
        guard isOwn else { return }
        if entry.outcome.isTerminal {
            submitted.remove(entry.envelopeID)
        } else {
            submitted.insert(entry.envelopeID)
        }
        guard entry.outcome == .navigated else { return }
        let route = entry.envelope.route
        record(.analytics(.make(AnalyticsEvent.screenView,
            [("screen", .string(route.configuration.screen)), ("route", .string(route.configuration.name)), ("url", .string(route.url))],
            campaign: route.campaignMetadata)))
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
