import BridgeContracts
import HostConformance
import JSONCore

/// `bridgectl verify -- CMD [ARGS...]`: the contract tests run against any host that speaks the
/// JSON-lines host protocol (docs/host-protocol.md), one fresh host process per case.
let verifyCommand = Command(CommandSpec(
    name: "verify",
    summary: "run the contract tests against any host process over the JSON-lines host protocol",
    forms: [UsageForm("-- CMD [ARG...]", options: ["contracts", "level", "case", "timeout", "format"])],
    about: """
    Starts CMD once to check that it answers the hello line, then once per case: the hello line
    with the case's setup (login state, app state, the build's capabilities), the case's lines,
    end of input. The host answers, finishes and exits; its output is judged. Cases: every
    fixture (reply, error code and pointers, navigation, campaign, what opened outside the app);
    origins and frames; hostile and unreadable messages; the login gate, logout while pending,
    cold start, duplicates, an older build, the campaign on every analytics event; every event
    fixture, navigation_completed, and where events must not go. Each case prints PASS or FAIL
    with what was expected and what came; a case this contract set cannot make (it lacks the
    fixture it starts from) prints NOT RUN with the reason. The last line is
    "N passed, N failed".
    """,
    options: [
        ContractsOption.option,
        .choice("level", ConformanceLevel.allCases.map(\.description), help: "run the cases up to this level (docs/host-protocol.md)", default: "events"),
        .repeatable("case", "PREFIX", help: "run only the cases whose name starts with PREFIX (repeatable)"),
        .value("timeout", "MS", help: "kill a host that has not finished a case this long after it started", default: "30000"),
        FormatOption.option,
    ],
    footer: "exit: 0 every case passed; 1 a case failed; 2 usage, unreadable contracts, or a host that would not start or speak."
), run: runVerify)

private func runVerify(_ arguments: Arguments, _ console: Console) throws -> Int32 {
    guard let program = arguments.positional.first else {
        throw UsageError("verify needs the host command after --, e.g. bridgectl verify -- bridgectl host --stdio")
    }
    guard let timeout = arguments.value("timeout").flatMap(Int.init), timeout > 0 else {
        throw UsageError("--timeout must be a positive number of milliseconds")
    }
    let contracts = try ContractsOption.load(arguments)
    let level = ConformanceLevel.allCases.first { $0.description == arguments.value("level") } ?? .events
    let suite = ConformanceSuite(contracts: contracts, upTo: level)
    let prefixes = arguments.all("case")
    let wanted = { (name: String) in prefixes.isEmpty || prefixes.contains { name.hasPrefix($0) } }
    let cases = suite.cases.filter { wanted($0.name) }
    let unbuilt = suite.unbuilt.filter { wanted($0.name) }
    guard !cases.isEmpty || !unbuilt.isEmpty else { throw UsageError("no case matches \(prefixes.joined(separator: ", "))") }
    let host = HostProcess(command: [program] + arguments.positional.dropFirst(), timeoutMs: timeout)
    if case .failure(let error) = ConformanceRun.handshake(host) {
        console.err("bridgectl: verify: \(error.message)\n")
        return ExitCode.usage
    }
    var results: [CaseResult] = []
    let json = arguments.value("format") == "json"
    for testCase in cases {
        let result = ConformanceRun.run(testCase, on: host)
        results.append(result)
        if !json { console.out(result.passed ? "PASS \(result.name)\n" : "FAIL \(result.name): \(result.problems.joined(separator: "; "))\n") }
    }
    let failed = results.filter { !$0.passed }.count
    if json {
        console.out(report(results, unbuilt: unbuilt).prettyPrinted() + "\n")
    } else {
        for skipped in unbuilt { console.out("NOT RUN \(skipped.name): \(skipped.reason)\n") }
        console.out("\(results.count - failed) passed, \(failed) failed\(unbuilt.isEmpty ? "" : ", \(unbuilt.count) not run")\n")
    }
    return failed == 0 ? ExitCode.success : ExitCode.invalid
}

private func report(_ results: [CaseResult], unbuilt: [UnbuiltCase]) -> JSONValue {
    let failed = results.filter { !$0.passed }.count
    let cases: [JSONValue] = results.map {
        ["case": .string($0.name), "level": .string($0.level.description), "passed": .bool($0.passed), "problems": .array($0.problems.map { .string($0) })]
    }
    let notRun: [JSONValue] = unbuilt.map { ["case": .string($0.name), "level": .string($0.level.description), "reason": .string($0.reason)] }
    return ["passed": .integer(Int64(results.count - failed)), "failed": .integer(Int64(failed)), "cases": .array(cases), "notRun": .array(notRun)]
}
