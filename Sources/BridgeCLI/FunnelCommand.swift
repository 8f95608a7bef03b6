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
let funnelCommand = Command(CommandSpec(
    name: "funnel",
    summary: "compute the deep-link funnel metrics (reach, wrong landing, cold start, campaign_id) of an event log",
    forms: [UsageForm("EVENTS.ndjson", options: ["input-format", "format", "html", "contracts"])],
    about: """
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
    """,
    options: [
        .choice("input-format", FunnelInputFormat.allCases.map(\.rawValue), help: "a line of the other shape is an error", default: "auto"),
        FormatOption.option,
        .value("html", "FILE", help: "also write a self-contained page with bar charts (no scripts, no fetches)"),
        ContractsOption.option,
    ],
    footer: """
    exit: 0 computed; 2 usage error, unreadable log or contracts, a bad line (its number is
          named), or an HTML file that cannot be written.
    """
), run: { arguments, console in try runFunnel(arguments, console) })

/// A log is read whole; this bounds memory for a file given by mistake.
private let maxLogBytes = 512 << 20

@MainActor
private func runFunnel(_ arguments: Arguments, _ console: Console) throws -> Int32 {
    let format = arguments.value("format")
    let inputFormat = FunnelInputFormat(rawValue: arguments.value("input-format") ?? "auto")!
    guard arguments.positional.count == 1 else { throw UsageError("expected one event log (see bridgectl funnel --help)") }
    if let html = arguments.value("html"), html.isEmpty { throw UsageError("--html needs a file name") }
    let path = arguments.positional[0]
    let name = path == "-" ? "<stdin>" : path
    let bytes = path == "-" ? Array(console.readStandardInput()) : try InputFile.readBytes(path, maxBytes: maxLogBytes).get()
    if bytes.count > maxLogBytes { throw UsageError("\(name): is more than \(maxLogBytes) bytes; split the log") }
    let contracts = try ContractsOption.load(arguments)
    let routes: RouteTable
    do {
        routes = try RouteTable(routes: contracts.routes)
    } catch {
        throw UsageError("\(contracts.origin): \(error)")
    }
    let log: (events: [FunnelEvent], summary: FunnelLogSummary)
    do {
        log = try FunnelLog.events(bytes, format: inputFormat)
    } catch {
        throw UsageError("\(name): \(error)")
    }
    if log.events.isEmpty { throw UsageError("\(name): no events (expected one JSON object per line)") }
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
            throw UsageError("cannot write \(html): \(FileSystem.describe(error))")
        }
    }
    switch format {
    case "json": console.out(report.json(name: name).prettyPrinted() + "\n")
    default: console.out(report.text(name: name))
    }
    return ExitCode.success
}
