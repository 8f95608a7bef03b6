import BridgeContracts
import DeeplinkRouting
import FunnelMetrics
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `bridgectl funnel EVENTS.ndjson`: the routing seed's four metrics over an event log. The
/// counting rules live in FunnelMetrics and are written down in docs/operations.md.
let funnelCommand = Command(
    name: "funnel",
    summary: "compute the deep-link funnel metrics (reach, wrong landing, cold start, campaign_id) of an event log",
    help: """
    usage: bridgectl funnel EVENTS.ndjson [--input-format auto|host|export] [--format text|json]
                            [--html FILE] [--contracts DIR]

    Reads an event log, one JSON object per line (EVENTS "-" reads standard input), and prints
    four metrics, for all deep-link sessions and per campaign_id, source and variant:
      target-screen reach        the visit showed the screen its link was for
      wrong landing              the home screen within 10 s of the link
      cold-start consumption     a cold-start push that needed login: signed in, then the screen
      campaign_id at every step  every funnel event carries the visit's campaign_id
    The exact counting rules are in docs/operations.md ("Funnel metrics").

    Log lines, decided per line unless --input-format says:
      host    what `bridgectl host --stdio` prints ({"type":"event","name":...,"properties":...};
              its login_presented and envelope lines give login prompts, sign-ins, cold starts)
      export  a Mixpanel-style export: {"event":...,"properties":{...},"distinct_id":...,"time":...}
    Screens are named from the contracts' routes.json (a link's route, a CTA's route).

    options:
      --input-format F  auto (default), host or export: a line of the other shape is an error
      --format F        text (default) or json
      --html FILE       also write a self-contained page with bar charts (no scripts, no fetches)
      --contracts DIR   a contracts folder instead of the bundled contracts

    exit: 0 computed; 2 usage error, unreadable log or contracts, a bad line (its number is
          named), or an HTML file that cannot be written.
    """,
    run: { argv, console in runFunnel(argv, console) }
)

/// A log is read whole; this bounds memory for a file given by mistake.
private let maxLogBytes = 512 << 20

private func runFunnel(_ argv: [String], _ console: Console) -> Int32 {
    let arguments: Arguments
    let format: String
    let inputFormat: FunnelInputFormat
    do {
        arguments = try Arguments(argv, spec: .init(options: ["input-format", "format", "html", "contracts"]))
        format = try arguments.choice("format", ["text", "json"], default: "text")
        inputFormat = FunnelInputFormat(rawValue: try arguments.choice(
            "input-format", FunnelInputFormat.allCases.map(\.rawValue), default: "auto"))!
        guard arguments.positional.count == 1 else { throw UsageError("expected one event log (see bridgectl funnel --help)") }
        if let html = arguments.value("html"), html.isEmpty { throw UsageError("--html needs a file name") }
    } catch {
        console.err("bridgectl funnel: \(error)\n")
        return ExitCode.usage
    }
    let path = arguments.positional[0]
    let name = path == "-" ? "<stdin>" : path
    let bytes: [UInt8]
    if path == "-" {
        bytes = Array(console.readStandardInput())
    } else {
        switch InputFile.readBytes(path, maxBytes: maxLogBytes) {
        case .failure(let error):
            console.err("bridgectl funnel: \(error)\n")
            return ExitCode.usage
        case .success(let read): bytes = read
        }
    }
    if bytes.count > maxLogBytes {
        console.err("bridgectl funnel: \(name): is more than \(maxLogBytes) bytes; split the log\n")
        return ExitCode.usage
    }
    let contracts: ContractSet
    let routes: RouteTable
    switch ContractsOption.load(arguments) {
    case .failure(let error):
        console.err("bridgectl funnel: \(error)\n")
        return ExitCode.usage
    case .success(let loaded): contracts = loaded
    }
    do {
        routes = try RouteTable(routes: contracts.routes)
    } catch {
        console.err("bridgectl funnel: \(contracts.origin): \(error)\n")
        return ExitCode.usage
    }
    let log: (events: [FunnelEvent], summary: FunnelLogSummary)
    do {
        log = try FunnelLog.events(bytes, format: inputFormat)
    } catch {
        console.err("bridgectl funnel: \(name): \(error)\n")
        return ExitCode.usage
    }
    if log.events.isEmpty {
        console.err("bridgectl funnel: \(name): no events (expected one JSON object per line)\n")
        return ExitCode.usage
    }
    let analytics = contracts.manifest.analytics, funnel = contracts.manifest.funnel
    let vocabulary = FunnelVocabulary(
        pushClicked: analytics.pushClicked, pageOpened: analytics.pageOpened, ctaClicked: analytics.ctaClicked,
        screenView: analytics.screenView, homeScreens: funnel.homeScreens, signIn: funnel.signIn)
    let report = FunnelReport(events: log.events, summary: log.summary, resolver: RouteScreenResolver(routes: routes),
                              vocabulary: vocabulary)
    if let html = arguments.value("html") {
        do {
            try Data(report.html(name: name).utf8).write(to: URL(fileURLWithPath: html), options: .atomic)
        } catch {
            console.err("bridgectl funnel: cannot write \(html): \(FileSystem.describe(error))\n")
            return ExitCode.usage
        }
    }
    switch format {
    case "json": console.out(report.json(name: name).prettyPrinted() + "\n")
    default: console.out(report.text(name: name))
    }
    return ExitCode.success
}
