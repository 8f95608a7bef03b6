import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting
import SchemaCheck

/// `bridgectl simulate`: one message through the Swift mock host, printing what would happen.
let simulateCommand = Command(CommandSpec(
    name: "simulate",
    summary: "run a message (or a fixture) through the mock native host and show reply, navigations, events",
    forms: [UsageForm("MESSAGE.json|-"), UsageForm("--step JSON [--step JSON ...]")],
    about: """
    Runs the message through the real BridgeHost pipeline and DeeplinkNavigator on a recording
    mock host, then prints the reply, the navigations and the analytics events.
    MESSAGE.json may be a bare message body (any bytes, even invalid JSON: it is posted as is) or
    a contract fixture ({"message"|"raw", "expect", ...}): then its origin, isMainFrame, entry,
    source and authenticated settings apply, and the options below override them.
    """,
    options: [
        .value("entry", "URL", help: "the link that opened the page (its campaign metadata is authoritative)"),
        .value("source", "NAME", help: "entry channel: push, externalURL, appInternal or one routes.json declares"),
        .value("origin", "ORIGIN", help: "the WebView-attested origin (default: the contracts' first allowed origin)"),
        .flag("frame", help: "the message comes from a subframe, not the main frame"),
        .flag("logged-out", help: "nobody is logged in"),
        .flag("cold-start", help: "the app is cold starting: navigation waits for ready"),
        .flag("then-login", help: "after the message, complete login"),
        .flag("then-ready", help: "after the message (and login), the app becomes ready"),
        .repeatable("step", "JSON", help: """
            after the message, in order (repeat it): a deferred deep link, the
            person's taps, time passing; the step lines of host --stdio:
              {"type":"deferred","url":URL}  {"type":"interaction"}
              {"type":"accept","offer":N}    {"type":"dismiss","offer":N}
              {"type":"advance","ms":N}
            With steps, MESSAGE.json may be left out.
            """),
        ContractsOption.option,
        .value("release", "PLATFORM@VERSION", help: "the host acts as that build of releases.json (e.g. ios@5.12.0)"),
        FormatOption.option,
    ] + StepOptions.options,
    footer: """
    With a step that takes time the clock runs on until nothing is scheduled, and the text output
    ends with a timeline: when each step waited, when the reply went out (before the action's
    timeoutMs, with "resolving":true if the navigation had not settled), when it navigated.

    exit: 0 the reply is ok (or a notification went through), 1 an error reply, 2 usage error or
          unreadable input.
    """
), run: runSimulate)

@MainActor
private func runSimulate(_ arguments: Arguments, _ console: Console) throws -> Int32 {
    let format = arguments.value("format")
    guard arguments.positional.count == 1 || (arguments.positional.isEmpty && !arguments.all("step").isEmpty) else {
        throw UsageError(arguments.positional.isEmpty ? "simulate needs a MESSAGE.json file (or - for standard input) or --step"
                                                      : "simulate takes one message file, got \(arguments.positional.count)")
    }
    let contracts = try ContractsOption.load(arguments)
    var scenario: Scenario
    if let path = arguments.positional.first {
        // Larger than a message may be, so an oversized message reaches the host and is refused there.
        let input = try InputFile.read(path, maxBytes: 8 * 1024 * 1024, console: console).get()
        let bytes = [UInt8](input.bytes)
        let parsed = try? JSONDocument(bytes: bytes, limits: .unlimited).value
        scenario = try Scenario(file: parsed, bytes: bytes, name: input.name)
    } else {
        scenario = Scenario(bytes: [])
        scenario.hasMessage = false
    }
    if let entry = arguments.value("entry") { scenario.entry = entry }
    if let name = arguments.value("source") { scenario.source = try contracts.channels.sourceOption(name) }
    if let origin = arguments.value("origin") { scenario.origin = origin }
    if arguments.has("frame") { scenario.isMainFrame = false }
    if arguments.has("logged-out") { scenario.loggedIn = false }
    if arguments.has("cold-start") { scenario.coldStart = true }
    scenario.thenLogin = arguments.has("then-login")
    scenario.thenReady = arguments.has("then-ready")
    scenario.capabilities = try ReleaseOption.capabilities(arguments, contracts: contracts)
    let steps = try StepOptions(arguments, contracts: contracts, allowHold: false)
    scenario.stepLatencyMs = steps.latencies
    scenario.detailOutcomes = steps.detailOutcomes
    scenario.stepTimeoutMs = steps.stepTimeoutMs
    if arguments.value("installed") != nil { scenario.installedApps = steps.installed }
    scenario.deferredWindowMs = steps.deferredWindowMs
    scenario.offerLifetimeMs = steps.offerLifetimeMs
    for (index, text) in arguments.all("step").enumerated() {
        do {
            let step = try ScenarioStep(text: text)
            try step.checkSource(against: contracts.channels)
            scenario.steps.append(step)
        } catch {
            throw UsageError("--step \(index + 1): \(error)")
        }
    }
    let outcome = try scenario.run(contracts: contracts)
    for stepError in outcome.stepErrors {
        console.err("bridgectl simulate: \(stepError)\n")
    }
    if let entryError = outcome.entryError {
        console.err("bridgectl simulate: note: the entry link does not route (\(entryError)); the page opens with source only\n")
    }
    for warning in outcome.entryWarnings {
        console.err("bridgectl simulate: note: entry link: \(warning)\n")
    }
    if format == "json" {
        console.out(outcome.json.prettyPrinted() + "\n")
    } else {
        console.out(simulationText(outcome, contracts: contracts))
    }
    return simulationSucceeded(outcome) ? ExitCode.success : ExitCode.invalid
}

@MainActor
func simulationSucceeded(_ outcome: ScenarioOutcome) -> Bool {
    if !outcome.stepErrors.isEmpty { return false }
    if let reply = outcome.reply { return reply.ok }
    if outcome.host.messagesReceived == 0 { return true }  // steps alone
    return !outcome.host.records.contains {
        if case .notification(_, _, let result) = $0 { return result != "ok" }
        return false
    }
}

@MainActor
private func simulationText(_ outcome: ScenarioOutcome, contracts: ContractSet) -> String {
    var text = ""
    if let reply = outcome.reply {
        if let error = reply.error {
            text += "reply: error \(error.code.rawValue): \(error.message)\n"
            for detail in error.details {
                if let reason = detail["reason"]?.stringValue {
                    let step = detail["step"]?.stringValue.map { ", step \($0)" } ?? ""
                    text += "  - reason \(reason) (route \(detail["route"]?.stringValue ?? "?")\(step))\n"
                    continue
                }
                let location = detail["instanceLocation"]?.stringValue.map { $0.isEmpty ? "(root)" : $0 }
                let keyword = detail["keyword"]?.stringValue
                let message = detail["error"]?.stringValue ?? detail.serialized()
                text += "  - " + [location, keyword.map { "[\($0)]" }, message].compactMap { $0 }.joined(separator: " ") + "\n"
            }
        } else if let custom = reply.customResult {
            text += "reply: ok result=\(custom.serialized()) (answered by app code; the mock host answers with the result schema's first example)\n"
        } else if let result = reply.result {
            text += "reply: ok route=\(result.route) url=\(result.url) pendingLogin=\(result.pendingLogin)"
            text += result.waitingForReady ? " waitingForReady=true" : ""
            text += result.resolving ? " resolving=true" : ""
            if let opened = result.opened, let provider = result.provider { text += " opened=\(opened) provider=\(provider)" }
            text += "\n"
        }
        text += "  " + reply.json.serialized() + "\n"
    } else if outcome.host.messagesReceived == 0 {
        text += "reply: none (no message)\n"
    } else {
        text += "reply: none (notification: no id)\n"
    }
    let host = outcome.host
    text += "login presented: \(host.loginPresentations)\n"
    text += "navigations: \(host.navigations.isEmpty ? "none" : String(host.navigations.count))\n"
    for navigation in host.navigations {
        text += "  - \(navigation.route) \(navigation.url) (tab \(navigation.tab)"
        if let list = navigation.list { text += ", over \(list)" }
        text += ", \(navigation.presentation.rawValue))\n"
        text += "    campaign \(navigation.campaign.json.serialized())\n"
    }
    text += deferredLinksText(host)
    if !host.externalOpens.isEmpty {
        text += "opened outside the app: \(host.externalOpens.count)\n"
        for open in host.externalOpens {
            text += "  - \(open.opened ? "opened" : "not opened") \(open.url)\n"
        }
    }
    text += "events: \(host.analyticsEvents.isEmpty ? "none" : String(host.analyticsEvents.count))\n"
    for event in host.analyticsEvents {
        text += "  - \(event.name) \(JSONValue.object(event.properties).serialized())\n"
    }
    text += pageEventsText(host)
    for conflict in host.campaignConflicts {
        text += "campaign conflict: \(conflict.field): entry \"\(conflict.entryValue)\" kept over page \"\(conflict.messageValue)\"\n"
    }
    if host.clock.elapsedMs > 0 { text += timelineText(outcome, contracts: contracts) }
    return text
}

/// The events the page received (navigation_completed after a wait) and those not posted.
@MainActor
private func pageEventsText(_ host: MockBridgeHost) -> String {
    guard !host.pageEventsPosted.isEmpty || !host.pageEventFailures.isEmpty else { return "" }
    var text = "page events: \(host.pageEventsPosted.isEmpty ? "none" : String(host.pageEventsPosted.count))\n"
    for event in host.pageEventsPosted {
        text += "  - \(event.event) v\(event.version) \(event.payload.serialized())\n"
    }
    for failure in host.pageEventFailures {
        text += "  - not posted: \(failure.error)\n"
    }
    return text
}

/// When each step waited, the reply went out and the navigation ended, once time has passed.
@MainActor
private func timelineText(_ outcome: ScenarioOutcome, contracts: ContractSet) -> String {
    let host = outcome.host
    var lines: [(Int, String)] = []
    for (record, time) in zip(host.records, host.recordTimes) {
        switch record {
        case .step(let id, let route, let step, let latency):
            lines.append((time, "\(id) \(route): \(step.rawValue) " + (latency.map { "takes \($0) ms" } ?? "waits")))
        case .reply(let reply, _):
            var line = "reply " + (reply.error.map { "error \($0.code.rawValue)" } ?? (reply.result?.resolving == true ? "ok, resolving" : "ok"))
            if let timeout = pageTimeout(outcome, contracts: contracts) { line += " (the page times out at \(timeout) ms)" }
            lines.append((time, line))
        case .envelope(let id, let route, let result):
            lines.append((time, "\(id) \(route): \(result)"))
        case .notification(let action, _, let result):
            lines.append((time, "notification \(action): \(result)"))
        default:
            break
        }
    }
    let width = lines.map { String($0.0).count }.max() ?? 1
    return "timeline:\n" + lines.map { time, line in
        "  " + String(repeating: " ", count: width - String(time).count) + "\(time) ms  \(line)\n"
    }.joined()
}

/// The shim's timeout for the simulated message's action version (its contract's timeoutMs).
@MainActor
private func pageTimeout(_ outcome: ScenarioOutcome, contracts: ContractSet) -> Int? {
    guard let click = outcome.host.events(named: contracts.manifest.analytics.ctaClicked).first,
          let action = click["action"]?.stringValue, let version = click["version"]?.integerValue else { return nil }
    return contracts.manifest.action(named: action)?.contract(version: Int(version))?.timeoutMs
}

/// One line per deferred deep link envelope (its outcomes), and one per offer (how it ended).
@MainActor
private func deferredLinksText(_ host: MockBridgeHost) -> String {
    var text = ""
    var seen: [EnvelopeID] = []
    var outcomes: [EnvelopeID: [String]] = [:]
    var routes: [EnvelopeID: String] = [:]
    var taken: [EnvelopeID: EnvelopeID] = [:]
    for entry in host.navigator.log.entries where entry.channel == .deferred {
        let id = entry.envelopeID
        if outcomes[id] == nil { seen.append(id) }
        outcomes[id, default: []].append(entry.outcome.name)
        routes[id] = entry.routeName
        if let offer = entry.acceptedOffer { taken[id] = offer }
    }
    for id in seen {
        let from = taken[id].map { " (offer \($0) taken)" } ?? ""
        text += "deferred link \(id) \(routes[id] ?? "")\(from): \(outcomes[id]!.joined(separator: ", "))\n"
    }
    for record in host.records {
        if case .offerWithdrawn(let id, let route, let end) = record {
            text += "offer \(id) \(route): \(end.name)\n"
        }
    }
    if let shown = host.shownOffer { text += "offer \(shown.envelopeID) \(shown.route.name): still shown\n" }
    return text
}
