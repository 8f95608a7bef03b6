import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost

/// One run of a message through a fresh mock host, as `bridgectl simulate` and the fixture tests
/// do it: optional entry link, auth and app state, the message, then optional login and ready.
public struct Scenario: Sendable {
    /// The message body exactly as posted (bytes, so invalid UTF-8 can be simulated too).
    public var body: [UInt8]
    /// The WebView-attested origin; nil is the first allowed origin of the contracts in use.
    public var origin: String?
    public var isMainFrame = true
    public var entry: String?
    public var source: CampaignMetadata.Source?
    public var loggedIn = true
    public var coldStart = false
    /// After the message: complete login, then become ready (each only when set).
    public var thenLogin = false
    public var thenReady = false
    /// How long the asynchronous navigation steps take (`--detail-latency`, `--tab-latency`).
    public var stepLatencyMs: [NavigationStep: Int] = [:]
    /// Detail fetches that fail or find nothing, by route (`--fail-detail`, `--missing-detail`).
    public var detailOutcomes: [String: MockStepResult] = [:]
    /// The navigator's bound on each asynchronous step.
    public var stepTimeoutMs = 10_000
    /// The apps installed on the simulated device, by URL scheme (`--installed`, a fixture's `installed`).
    public var installedApps: Set<String> = []
    /// A message to post (false: the scenario is only its steps).
    public var hasMessage = true
    /// What happens after the message, in order (`--step`): deferred links, the person's taps,
    /// time passing.
    public var steps: [ScenarioStep] = []
    /// How long after launch a deferred link still navigates, and how long an offer shows.
    public var deferredWindowMs = 10_000
    public var offerLifetimeMs = 60_000
    /// The app build the host acts as (nil: every version of the contracts).
    public var capabilities: HostCapabilities?

    public init(body: String) {
        self.body = Array(body.utf8)
    }

    public init(bytes: [UInt8]) {
        self.body = bytes
    }

    /// The scenario a contract fixture describes.
    public init(fixture: Fixture) throws(ScenarioError) {
        body = Array(fixture.body.utf8)
        origin = fixture.origin
        isMainFrame = fixture.isMainFrame
        entry = fixture.entry
        source = try Scenario.source(fixture.source, at: fixture.path)
        loggedIn = fixture.authenticated
        installedApps = Set(fixture.installed)
    }

    /// A file given to `simulate` (`value` is nil when it is not JSON): either a bare message, or a fixture-shaped object with
    /// `message`/`raw` and `expect`, whose origin/isMainFrame/entry/source/authenticated apply.
    public init(file value: JSONValue?, bytes: [UInt8], name: String) throws(ScenarioError) {
        guard case .object(let object)? = value, object["expect"] != nil,
              object["message"] != nil || object["raw"] != nil else {
            body = bytes
            return
        }
        if let raw = object["raw"] {
            guard let text = raw.stringValue else { throw ScenarioError("\(name): /raw must be a string") }
            body = Array(text.utf8)
        } else {
            body = Array(object["message"]!.serialized().utf8)
        }
        if let value = object["origin"] {
            guard let text = value.stringValue else { throw ScenarioError("\(name): /origin must be a string") }
            origin = text
        }
        if let value = object["isMainFrame"] {
            guard let flag = value.boolValue else { throw ScenarioError("\(name): /isMainFrame must be true or false") }
            isMainFrame = flag
        }
        if let value = object["entry"], value != .null {
            guard let text = value.stringValue else { throw ScenarioError("\(name): /entry must be a string") }
            entry = text
        }
        if let value = object["source"], value != .null {
            source = try Scenario.source(value.stringValue ?? "", at: name)
        }
        if let value = object["authenticated"] {
            guard let flag = value.boolValue else { throw ScenarioError("\(name): /authenticated must be true or false") }
            loggedIn = flag
        }
        if let value = object["installed"] {
            guard let list = value.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                throw ScenarioError("\(name): /installed must be an array of URL schemes")
            }
            installedApps = Set(list.compactMap(\.stringValue))
        }
    }

    /// A source as named; whether the contracts know it is checked when the scenario runs
    /// (declared channels come from the set's routes.json).
    static func source(_ name: String?, at place: String) throws(ScenarioError) -> CampaignMetadata.Source? {
        guard let name else { return nil }
        guard !name.isEmpty else { throw ScenarioError("\(place): source must be a channel name") }
        return CampaignMetadata.Source(rawValue: name)
    }

    /// Every source the scenario names (its entry's, its deferred links') is built in or declared.
    func checkSources(against channels: ChannelRules) throws(ScenarioError) {
        if let source {
            do {
                _ = try channels.source(named: source.rawValue)
            } catch {
                throw ScenarioError("source: \(error)")
            }
        }
        for (index, step) in steps.enumerated() {
            do {
                try step.checkSource(against: channels)
            } catch {
                throw ScenarioError("step \(index + 1): \(error)")
            }
        }
    }

    /// Runs the scenario on a fresh mock host and returns it (reply, navigations, events...). Time
    /// then runs on until nothing is scheduled, so slow steps, reply deadlines and step timeouts
    /// all happen, at the moments the clock says.
    @MainActor
    public func run(contracts: ContractSet) throws(ScenarioError) -> ScenarioOutcome {
        try checkSources(against: contracts.channels)
        let host: MockBridgeHost
        do {
            host = try MockBridgeHost(contracts: contracts, loggedIn: loggedIn, appState: coldStart ? .coldStart : .foreground,
                                      stepTimeoutMs: stepTimeoutMs, capabilities: capabilities,
                                      deferredWindowMs: deferredWindowMs, offerLifetimeMs: offerLifetimeMs)
        } catch {
            throw ScenarioError("the contracts cannot back a host: \(error)")
        }
        host.stepLatencyMs = stepLatencyMs
        host.detailOutcomes = detailOutcomes
        host.installedApps = installedApps
        var entryError: DeeplinkError?
        var entryWarnings: [DeeplinkWarning] = []
        if let entry {
            do { entryWarnings = try host.open(entry: entry, source: source)?.warnings ?? [] } catch { entryError = error }
        } else if hasMessage {
            _ = try? host.open(entry: nil, source: source)
        }
        let start = host.records.count
        if hasMessage { host.receive(bytes: body, origin: origin, isMainFrame: isMainFrame) }
        var stepErrors: [String] = []
        for (index, step) in steps.enumerated() {
            do { try step.run(on: host) } catch { stepErrors.append("step \(index + 1): \(error)") }
        }
        if thenLogin { host.completeLogin() }
        if thenReady { host.becomeReady() }
        host.runUntilIdle()
        var reply: BridgeReply?
        var repliedAt: Int?
        for index in start..<host.records.count {
            if case .reply(let first, _) = host.records[index] {
                reply = first
                repliedAt = host.recordTimes[index]
                break
            }
        }
        return ScenarioOutcome(host: host, reply: reply, repliedAtMs: repliedAt, entryError: entryError, entryWarnings: entryWarnings,
                               stepErrors: stepErrors)
    }
}

public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What a scenario produced.
@MainActor
public struct ScenarioOutcome {
    public let host: MockBridgeHost
    /// nil for a notification (no id).
    public let reply: BridgeReply?
    /// When the reply was given, in milliseconds after the message (0 unless a step took time).
    public let repliedAtMs: Int?
    /// The entry link did not route (the page still opened, with only its source known).
    public let entryError: DeeplinkError?
    /// What was noticed about the entry link that did route (a campaign value dropped by the
    /// campaign rules, a "+" read as a plus...).
    public let entryWarnings: [DeeplinkWarning]
    /// Steps that could not run (a link that does not route, an offer that cannot be taken), as
    /// "step N: why".
    public var stepErrors: [String] = []

    public var json: JSONValue {
        var object = JSONObject()
        object["reply"] = reply?.json ?? .null
        object["navigations"] = .array(host.navigations.map(\.json))
        object["events"] = .array(host.analyticsEvents.map(\.json))
        object["loginPresented"] = .integer(Int64(host.loginPresentations))
        object["externalOpens"] = .array(host.externalOpens.map(\.json))
        object["pageEvents"] = .array(host.pageEventsPosted.map(\.message))
        object["records"] = .array(zip(host.records, host.recordTimes).map { record, time in
            var line = record.json.objectValue ?? JSONObject()
            line["atMs"] = .integer(Int64(time))
            return .object(line)
        })
        if let entryError { object["entryError"] = .string(entryError.description) }
        if !entryWarnings.isEmpty { object["entryWarnings"] = .array(entryWarnings.map { .string($0.description) }) }
        if !stepErrors.isEmpty { object["stepErrors"] = .array(stepErrors.map { .string($0) }) }
        if host.offersPresented > 0 { object["offersPresented"] = .integer(Int64(host.offersPresented)) }
        return .object(object)
    }
}
