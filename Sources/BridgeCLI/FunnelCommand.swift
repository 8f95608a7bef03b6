import BridgeContracts
import DeeplinkRouting
import FunnelMetrics
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    forms: [UsageForm("EVENTS.ndjson", options: ["input-format", "format", "by", "skip-bad-lines", "html", "contracts"])],
    about: """
    Reads an event log, one JSON object per line (EVENTS "-" reads standard input), and prints
    four metrics, for all deep-link sessions and per group (campaign_id, source and variant
    unless --by says), each rate with its 95% confidence interval:
      target-screen reach        the visit showed the screen its link was for
      wrong landing              the home screen within 10 s of the link
      cold-start consumption     a cold-start push that needed login: signed in, then the screen
      campaign_id at every step  every funnel event carries the visit's campaign_id
    Variants of the same group are compared: the p-value says whether a difference is more
    than chance. The exact counting rules are in docs/operations.md ("Funnel metrics").

    The log streams through: memory stays flat whatever its size (one open visit per person
    is held). On a terminal, a progress line shows on standard error.

    Log lines, decided per line unless --input-format says:
      host    what `bridgectl host --stdio` prints ({"type":"event","name":...,"properties":...};
              its login_presented and envelope lines give login prompts, sign-ins, cold starts)
      export  a Mixpanel-style export: {"event":...,"properties":{...},"distinct_id":...,"time":...}
    Screens are named from the contracts' routes.json (a link's route, a CTA's route).
    """,
    options: [
        .choice("input-format", FunnelInputFormat.allCases.map(\.rawValue), help: "a line of the other shape is an error", default: "auto"),
        .choice("format", ["text", "json", "csv"], help: "output format (csv: RFC 4180, a row per group)", default: "text"),
        .repeatable("by", "campaign|source|variant|day",
                    help: "group by these, in the order given (repeat it; day is the UTC day of the visit's deep link)"),
        .flag("skip-bad-lines", help: "leave out lines that cannot be read (a truncated last line): counted, the first 5 named"),
        .value("html", "FILE", help: "also write a self-contained page with bar charts and a time axis (no scripts, no fetches)"),
        ContractsOption.option,
    ],
    footer: """
    exit: 0 computed; 2 usage error, unreadable log or contracts, a bad line without
          --skip-bad-lines (its number is named), or an HTML file that cannot be written.
    """
), run: { arguments, console in try runFunnel(arguments, console) })

/// Bytes read from the log at a time.
private let chunkBytes = 1 << 20

@MainActor
private func runFunnel(_ arguments: Arguments, _ console: Console) throws -> Int32 {
    let format = arguments.value("format")
    let inputFormat = FunnelInputFormat(rawValue: arguments.value("input-format") ?? "auto")!
    guard arguments.positional.count == 1 else { throw UsageError("expected one event log (see bridgectl funnel --help)") }
    if let html = arguments.value("html"), html.isEmpty { throw UsageError("--html needs a file name") }
    var dimensions: [FunnelDimension] = []
    for given in arguments.all("by") {
        guard let dimension = FunnelDimension(rawValue: given) else {
            throw UsageError("--by must be one of \(FunnelDimension.allCases.map(\.rawValue).joined(separator: ", ")), not \(given)")
        }
        guard !dimensions.contains(dimension) else { throw UsageError("--by \(given) is given twice") }
        dimensions.append(dimension)
    }
    if dimensions.isEmpty { dimensions = FunnelDimension.standard }
    let path = arguments.positional[0]
    let name = path == "-" ? "<stdin>" : path
    let contracts = try ContractsOption.load(arguments)
    let routes: RouteTable
    do {
        routes = try RouteTable(routes: contracts.routes)
    } catch {
        throw UsageError("\(contracts.origin): \(error)")
    }
    let analytics = contracts.manifest.analytics, funnel = contracts.manifest.funnel
    let vocabulary = FunnelVocabulary(
        pushClicked: analytics.pushClicked, pageOpened: analytics.pageOpened, ctaClicked: analytics.ctaClicked,
        screenView: analytics.screenView, homeScreens: funnel.homeScreens, signIn: funnel.signIn)
    let stream = FunnelLogStream(format: inputFormat, resolver: RouteScreenResolver(routes: routes), vocabulary: vocabulary,
                                 dimensions: dimensions, skipBadLines: arguments.has("skip-bad-lines"))
    let report: FunnelReport
    do {
        report = try readLog(path, into: stream, console: console)
    } catch let error as FunnelLogError {
        throw UsageError("\(name): \(error)")
    }
    if report.eventCount == 0 { throw UsageError("\(name): no events (expected one JSON object per line)") }
    if let html = arguments.value("html") {
        do {
            try Data(report.html(name: name).utf8).write(to: URL(fileURLWithPath: html), options: .atomic)
        } catch {
            throw UsageError("cannot write \(html): \(FileSystem.describe(error))")
        }
    }
    switch format {
    case "json": console.out(report.json(name: name).prettyPrinted() + "\n")
    case "csv": console.out(report.csv())
    default: console.out(report.text(name: name))
    }
    return ExitCode.success
}

/// Streams the log through `stream` a chunk at a time: the process's standard input and files
/// from their descriptors, a test console's input from memory.
@MainActor
private func readLog(_ path: String, into stream: consuming FunnelLogStream, console: Console) throws -> FunnelReport {
    if path == "-" && !(console is ProcessConsole) {
        try stream.feed(Array(console.readStandardInput()))
        return try stream.finish()
    }
    var descriptor: Int32 = 0
    var progress: ProgressLine?
    if path != "-" {
        descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw UsageError("\(path): " + (errno == ENOENT ? "no such file" : "cannot be read (\(SystemCallError(number: errno)))"))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            close(descriptor)
            throw UsageError("\(path): cannot be read")
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            close(descriptor)
            throw UsageError("\(path): is a directory, not a file")
        }
        let size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : 0
        if console.standardErrorIsTerminal && size > 0 { progress = ProgressLine(console: console, totalBytes: size, command: "funnel") }
    }
    defer { if path != "-" { close(descriptor) } }
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 1)
    defer { chunk.deallocate() }
    let file = FileDescriptor(rawValue: descriptor)
    do {
        while true {
            let count: Int
            do {
                count = try file.readSome(into: chunk)
            } catch {
                throw UsageError("\(path == "-" ? "<stdin>" : path): read failed: \(error)")
            }
            if count == 0 { break }
            try stream.feed(UnsafeRawBufferPointer(rebasing: chunk[..<count]))
            progress?.update(bytes: stream.bytesRead, lines: stream.linesRead)
        }
        progress?.clear()
        return try stream.finish()
    } catch {
        progress?.clear()
        throw error
    }
}
