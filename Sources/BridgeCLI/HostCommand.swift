#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting
import SchemaCheck

/// `bridgectl host --stdio`: the Swift host driven by JSON lines, for harnesses (a real WebView,
/// the web team's test runner). The protocol is documented in the README (bridgectl host --stdio).
let hostCommand = Command(
    name: "host",
    summary: "drive the Swift bridge host over JSON lines on stdin/stdout (--stdio)",
    help: """
    usage: bridgectl host --stdio [--contracts DIR] [--release PLATFORM@VERSION] [--logged-out] [--cold-start]
                          [--manual-clock] [--ack] [--detail-latency MS|hold] [--tab-latency MS|hold]
                          [--fail-detail ROUTE] [--missing-detail ROUTE] [--step-timeout MS]

    Reads one JSON object per line on standard input and writes one JSON object per line on
    standard output, each flushed at once. Input lines:
      {"type":"open","url":URL|null,"source":"push|externalURL|appInternal|DECLARED"?}
      {"type":"message","body":STRING|OBJECT,"origin":ORIGIN?,"isMainFrame":BOOL?}
          ("bodyBase64":STRING instead of "body" posts raw bytes, e.g. invalid UTF-8)
      {"type":"login"}  {"type":"logout"}  {"type":"ready"}
      {"type":"state","state":"foreground|background|coldStart"}
      {"type":"complete","result":"ok|fail|notFound"?,"reason":TEXT?,"step":STEP?,"envelope":N?}
          (completes the waiting navigation step now)
      {"type":"cancel","envelope":N}     (the app gives up on an envelope)
      {"type":"installed","apps":["kakaomap",...]}   (the apps on the device, by URL scheme)
      {"type":"deferred","url":URL,"source":SOURCE?}  (install attribution hands over a deferred link)
      {"type":"interaction"}             (the person used the app: deferred links are offered from now)
      {"type":"accept","offer":N}  {"type":"dismiss","offer":N}   (the person takes or dismisses offer N)
      {"type":"advance","ms":N}          (with --manual-clock)
    Output lines: {"type":"reply",...}, {"type":"navigation",...}, {"type":"event",...},
    {"type":"login_presented"}, {"type":"envelope",...}, {"type":"step",...}, {"type":"external_open",...},
    {"type":"offer",...}, {"type":"offer_withdrawn",...},
    {"type":"campaign_conflict",...},
    {"type":"notification",...}, and {"type":"error","line":N,"message":...} for a bad line
    (the host keeps running). A reply whose navigation is still resolving comes when it settles, or
    with "resolving":true just before the action's timeoutMs. At end of input the host exits with
    status 0, after letting scheduled work finish (unless --manual-clock: time stops there).

    options:
      --stdio          required: speak the JSON-lines protocol on stdin/stdout
      --contracts DIR  another contracts folder (default: the bundled contracts)
      --release PLATFORM@VERSION
                       act as that build of releases.json (e.g. ios@5.12.0): accept exactly its
                       action versions; others get UNKNOWN_ACTION / UNSUPPORTED_VERSION
      --logged-out     start logged out
      --cold-start     start in a cold start: navigation waits for {"type":"ready"}
      --manual-clock   time moves only with {"type":"advance"} (default: the wall clock)
      --ack            after each input line, print {"type":"ack","line":N}
    \(StepOptions.help)
    """,
    run: runHost
)

@MainActor
private func runHost(_ argv: [String], _ console: Console) -> Int32 {
    let arguments: Arguments
    do {
        arguments = try Arguments(argv, spec: .init(
            options: Set(["contracts", "release"]).union(StepOptions.optionNames), flags: ["stdio", "logged-out", "cold-start", "manual-clock", "ack"]))
        guard arguments.has("stdio") else { throw UsageError("host needs --stdio (the only transport)") }
        guard arguments.positional.isEmpty else { throw UsageError("host takes no positional arguments") }
    } catch {
        console.err("bridgectl host: \(error)\n")
        return ExitCode.usage
    }
    let contracts: ContractSet
    switch ContractsOption.load(arguments) {
    case .failure(let error):
        console.err("bridgectl host: \(error)\n")
        return ExitCode.usage
    case .success(let loaded): contracts = loaded
    }
    let steps: StepOptions
    do {
        steps = try StepOptions(arguments, contracts: contracts, allowHold: true)
    } catch {
        console.err("bridgectl host: \(error)\n")
        return ExitCode.usage
    }
    let manualClock = arguments.has("manual-clock")
    let host: MockBridgeHost
    do {
        host = try MockBridgeHost(
            contracts: contracts, loggedIn: !arguments.has("logged-out"),
            appState: arguments.has("cold-start") ? .coldStart : .foreground,
            clock: ManualNavigationClock(), stepTimeoutMs: steps.stepTimeoutMs,
            capabilities: try ReleaseOption.capabilities(arguments, contracts: contracts),
            deferredWindowMs: steps.deferredWindowMs, offerLifetimeMs: steps.offerLifetimeMs,
            retention: .streaming)  // each record is printed, then released: a long session stays flat
    } catch {
        console.err("bridgectl host: \(error)\n")
        return ExitCode.usage
    }
    steps.apply(to: host)
    let session = HostSession(host: host, console: console, defaultOrigin: contracts.manifest.allowedOrigins.first ?? "",
                              manualClock: manualClock)
    // Without --manual-clock the mock's clock follows the wall clock: it is moved to the time
    // elapsed before each line is handled and whenever scheduled work falls due between lines.
    let wall = ContinuousClock()
    let started = wall.now
    func catchUp() {
        guard !manualClock else { return }
        let elapsed = started.duration(to: wall.now)
        let milliseconds = Int(elapsed.components.seconds) * 1000 + Int(elapsed.components.attoseconds / 1_000_000_000_000_000)
        let behind = milliseconds - host.clock.elapsedMilliseconds
        if behind > 0 { host.advanceClock(milliseconds: behind) }
    }
    var input: any HostInput = console is ProcessConsole ? StandardHostInput() : ConsoleHostInput(console: console)
    var lineNumber = 0
    reading: while true {
        switch input.next(timeoutMilliseconds: manualClock ? nil : host.clock.millisecondsUntilNextWork) {
        case .line(let line):
            catchUp()
            lineNumber += 1
            session.handle(line, number: lineNumber)
            if arguments.has("ack") { session.emit(.object(JSONObject([("type", "ack"), ("line", .integer(Int64(lineNumber)))]))) }
        case .timeout:
            catchUp()
        case .end:
            break reading
        }
    }
    // What is under way finishes (a slow fetch, a reply deadline): every piece has a deadline.
    while !manualClock, let wait = host.clock.millisecondsUntilNextWork {
        sleepMilliseconds(wait)
        catchUp()
    }
    return ExitCode.success
}

/// One `host --stdio` run: applies input lines to the mock host and prints every record as a line.
@MainActor
final class HostSession {
    let host: MockBridgeHost
    let console: Console
    let defaultOrigin: String
    let manualClock: Bool
    /// An input line may carry a message body up to the host's limit plus its JSON quoting.
    nonisolated static let maxLineBytes = 1024 * 1024

    init(host: MockBridgeHost, console: Console, defaultOrigin: String, manualClock: Bool) {
        self.host = host
        self.console = console
        self.defaultOrigin = defaultOrigin
        self.manualClock = manualClock
        host.onRecord = { [weak self] record in self?.emit(record) }
    }

    static let types = "open, message, login, logout, ready, state, complete, cancel, installed, deferred, interaction, accept, dismiss, advance"

    /// The input line of each message, by the mock host's message count.
    private var messageLines: [Int: Int] = [:]

    /// A record as a line; a reply names the input line of the message it answers.
    func emit(_ record: MockRecord) {
        guard case .reply(_, let message) = record, let line = messageLines.removeValue(forKey: message),
              case .object(let fields) = record.json else {
            return emit(record.json)
        }
        var object = JSONObject([("type", "reply"), ("line", .integer(Int64(line)))])
        for (key, value) in fields where key != "type" { object[key] = value }
        emit(.object(object))
    }

    func emit(_ value: JSONValue) {
        console.out(value.serialized(escapeForScript: true) + "\n")
    }

    func fail(_ number: Int, _ message: String) {
        emit(.object(JSONObject([("type", "error"), ("line", .integer(Int64(number))), ("message", .string(message))])))
    }

    func handle(_ line: String, number: Int) {
        if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { return }
        guard line.utf8.count <= Self.maxLineBytes else {
            return fail(number, "line is longer than the limit of \(Self.maxLineBytes) bytes")
        }
        if line.utf8.starts(with: [0xEF, 0xBB, 0xBF]) {
            return fail(number, "line starts with a UTF-8 byte-order mark (remove it)")
        }
        let value: JSONValue
        do {
            value = try JSONDocument(line, limits: ParseLimits(maxBytes: Self.maxLineBytes, maxDepth: 128)).value
        } catch {
            return fail(number, "not a JSON object: \(error)")
        }
        guard case .object(let object) = value else { return fail(number, "expected a JSON object with a \"type\"") }
        guard let type = object["type"]?.stringValue else { return fail(number, "missing \"type\" (\(Self.types))") }
        switch type {
        case "open": open(object, number)
        case "message": message(object, number)
        case "login": host.completeLogin()
        case "logout": host.logout()
        case "ready": host.becomeReady()
        case "state":
            guard let name = object["state"]?.stringValue, let state = AppState(rawValue: name) else {
                return fail(number, "\"state\" must be one of foreground, background, coldStart")
            }
            host.setAppState(state)
        case "complete": complete(object, number)
        case _ where ScenarioStep.types.contains(type):
            // The steps simulate --step takes too: one parser, the same messages.
            do {
                let step = try ScenarioStep(object)
                try step.checkSource(against: host.contracts.channels)
                if case .advance = step, !manualClock {
                    return fail(number, "advance needs --manual-clock (the host runs on the wall clock)")
                }
                try step.run(on: host)
            } catch {
                fail(number, error.description)
            }
        case "installed":
            guard let list = object["apps"]?.arrayValue, list.allSatisfy({ $0.stringValue != nil }) else {
                return fail(number, "\"apps\" must be an array of URL schemes, e.g. [\"kakaomap\"]")
            }
            host.installedApps = Set(list.compactMap { $0.stringValue?.lowercased() })
        case "cancel":
            guard let envelope = object["envelope"]?.integerValue, let id = Int(exactly: envelope) else {
                return fail(number, "\"envelope\" must be the envelope number to cancel")
            }
            if !host.navigator.cancel(EnvelopeID(id)) {
                fail(number, "envelope \(id) is not waiting or navigating (nothing to cancel)")
            }
        default:
            fail(number, "unknown type \"\(type)\" (\(Self.types))")
        }
    }

    private func complete(_ object: JSONObject, _ number: Int) {
        var result: MockStepResult?
        if let value = object["result"] {
            switch value.stringValue {
            case "ok": result = .ok
            case "notFound": result = .notFound
            case "fail":
                if let reason = object["reason"], reason.stringValue == nil { return fail(number, "\"reason\" must be a string") }
                result = .fail(object["reason"]?.stringValue ?? "failed by a complete line")
            default: return fail(number, "\"result\" must be one of ok, fail, notFound")
            }
        }
        var step: NavigationStep?
        if let value = object["step"] {
            guard let name = value.stringValue, let known = NavigationStep(rawValue: name) else {
                return fail(number, "\"step\" must be one of \(NavigationStep.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            step = known
        }
        var envelope: EnvelopeID?
        if let value = object["envelope"] {
            guard let raw = value.integerValue, let id = Int(exactly: raw) else { return fail(number, "\"envelope\" must be an integer") }
            envelope = EnvelopeID(id)
        }
        if let problem = host.completeStep(result, step: step, envelope: envelope) {
            fail(number, problem)
        }
    }

    private func open(_ object: JSONObject, _ number: Int) {
        var source: CampaignMetadata.Source?
        if let value = object["source"], value != .null {
            let known = host.contracts.channels.knownSources
            guard let name = value.stringValue, let named = known.first(where: { $0.rawValue == name }) else {
                return fail(number, "\"source\" must be one of \(known.map(\.rawValue).joined(separator: ", "))")
            }
            source = named
        }
        var url: String?
        if let value = object["url"], value != .null {
            guard let text = value.stringValue else { return fail(number, "\"url\" must be a string or null") }
            url = text
        }
        do {
            try host.open(entry: url, source: source)
        } catch {
            fail(number, "the entry link does not route (\(error)); the page is open with source only")
        }
    }

    private func message(_ object: JSONObject, _ number: Int) {
        let body: [UInt8]
        switch (object["body"], object["bodyBase64"]) {
        case (.string(let text)?, nil): body = Array(text.utf8)
        case (.object?, nil), (.array?, nil): body = Array(object["body"]!.serialized().utf8)
        case (nil, .string(let encoded)?):
            // Raw bytes a JSON string cannot carry (invalid UTF-8), for hostile-input harnesses.
            guard let data = Data(base64Encoded: encoded) else { return fail(number, "\"bodyBase64\" is not valid base64") }
            body = [UInt8](data)
        default:
            return fail(number, "give \"body\" (the message text as a string, or the message object) or \"bodyBase64\"")
        }
        var origin = defaultOrigin
        if let value = object["origin"] {
            guard let text = value.stringValue else { return fail(number, "\"origin\" must be a string") }
            origin = text
        }
        var isMainFrame = true
        if let value = object["isMainFrame"] {
            guard let flag = value.boolValue else { return fail(number, "\"isMainFrame\" must be true or false") }
            isMainFrame = flag
        }
        let message = host.messagesReceived + 1
        messageLines[message] = number
        host.receive(bytes: body, origin: origin, isMainFrame: isMainFrame)
        if !host.unansweredMessages.contains(message) { messageLines[message] = nil }
    }
}
