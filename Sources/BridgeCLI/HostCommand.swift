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
let hostCommand = Command(CommandSpec(
    name: "host",
    summary: "drive the Swift bridge host over JSON lines on stdin/stdout (--stdio)",
    forms: [UsageForm("", options: ["stdio", "contracts", "release", "logged-out", "cold-start", "manual-clock", "ack",
                                    "detail-latency", "tab-latency", "fail-detail", "missing-detail", "step-timeout", "installed",
                                    "deferred-window", "offer-lifetime"],
                      required: ["stdio"])],
    about: """
    Reads one JSON object per line on standard input and writes one JSON object per line on
    standard output, each flushed at once. Input lines:
      {"type":"hello","protocol":1,"setup":{"loggedIn":BOOL,"appState":STATE,"capabilities":{...}}?}
          (first line; answered {"type":"hello","protocol":1,...}; docs/host-protocol.md)
      {"type":"open","url":URL|null,"source":"push|externalURL|appInternal|DECLARED"?}
      {"type":"message","body":STRING|OBJECT,"origin":ORIGIN?,"isMainFrame":BOOL?}
          ("bodyBase64":STRING instead of "body" posts raw bytes, e.g. invalid UTF-8)
      {"type":"login"}  {"type":"logout"}  {"type":"ready"}
      {"type":"state","state":"foreground|background|coldStart"}
      {"type":"complete","result":"ok|fail|notFound"?,"reason":TEXT?,"step":STEP?,"envelope":N?}
          (completes the waiting navigation step now)
      {"type":"cancel","envelope":N}     (the app gives up on an envelope)
      {"type":"installed","apps":["mapsapp",...]}    (the apps on the device, by URL scheme)
      {"type":"deferred","url":URL,"source":SOURCE?}  (install attribution hands over a deferred link)
      {"type":"interaction"}             (the person used the app: deferred links are offered from now)
      {"type":"accept","offer":N}  {"type":"dismiss","offer":N}   (the person takes or dismisses offer N)
      {"type":"advance","ms":N}          (with --manual-clock)
    Output lines: {"type":"hello",...}, {"type":"reply",...}, {"type":"navigation",...}, {"type":"event",...},
    {"type":"login_presented"}, {"type":"envelope",...}, {"type":"step",...}, {"type":"external_open",...},
    {"type":"offer",...}, {"type":"offer_withdrawn",...},
    {"type":"campaign_conflict",...},
    {"type":"notification",...}, and {"type":"error","line":N,"message":...} for a bad line
    (the host keeps running). A reply whose navigation is still resolving comes when it settles, or
    with "resolving":true just before the action's timeoutMs. At end of input the host exits with
    status 0, after letting scheduled work finish (unless --manual-clock: time stops there).
    """,
    options: [
        .flag("stdio", help: "required: speak the JSON-lines protocol on stdin/stdout"),
        ContractsOption.option,
        .value("release", "PLATFORM@VERSION", help: """
            act as that build of releases.json (e.g. ios@5.12.0): accept exactly its
            action versions; others get UNKNOWN_ACTION / UNSUPPORTED_VERSION
            """),
        .flag("logged-out", help: "start logged out"),
        .flag("cold-start", help: "start in a cold start: navigation waits for {\"type\":\"ready\"}"),
        .flag("manual-clock", help: "time moves only with {\"type\":\"advance\"} (default: the wall clock)"),
        .flag("ack", help: "after each input line, print {\"type\":\"ack\",\"line\":N}"),
    ] + StepOptions.options
), run: runHost)

@MainActor
private func runHost(_ arguments: Arguments, _ console: Console) throws -> Int32 {
    guard arguments.has("stdio") else { throw UsageError("host needs --stdio (the only transport)") }
    guard arguments.positional.isEmpty else { throw UsageError("host takes no positional arguments") }
    let contracts = try ContractsOption.load(arguments)
    let steps = try StepOptions(arguments, contracts: contracts, allowHold: true)
    let manualClock = arguments.has("manual-clock")
    let capabilities = try ReleaseOption.capabilities(arguments, contracts: contracts)
    // The flags' start, which a hello line's setup may change member by member.
    let makeHost = { (setup: HostSetup) throws -> MockBridgeHost in
        let host = try MockBridgeHost(
            contracts: contracts, loggedIn: setup.loggedIn ?? !arguments.has("logged-out"),
            appState: setup.appState ?? (arguments.has("cold-start") ? .coldStart : .foreground),
            clock: ManualNavigationClock(), stepTimeoutMs: steps.stepTimeoutMs,
            capabilities: setup.capabilities ?? capabilities,
            deferredWindowMs: steps.deferredWindowMs, offerLifetimeMs: steps.offerLifetimeMs,
            retention: .streaming)  // each record is printed, then released: a long session stays flat
        steps.apply(to: host)
        return host
    }
    let session = HostSession(host: try makeHost(HostSetup()), defaultOrigin: contracts.manifest.allowedOrigins.first ?? "",
                              manualClock: manualClock, acknowledgeLines: arguments.has("ack"), makeHost: makeHost,
                              write: { console.out($0) })
    if console is ProcessConsole {
        var input = StandardHostInput()
        session.run(input: &input, sleepMs: sleepMs)
    } else {
        var input = ConsoleHostInput(console: console)
        session.run(input: &input, sleepMs: sleepMs)
    }
    return ExitCode.success
}
