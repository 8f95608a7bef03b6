import BridgeContracts
import BridgeHostTesting
import JSONCore

let checkCommand = Command(CommandSpec(
    name: "check",
    summary: "run every contract fixture through the Swift host and compare with its expectation",
    forms: [UsageForm("[FIXTURE-PATH-PREFIX...]", options: ["contracts", "format"])],
    about: """
    Runs each fixture of contracts/fixtures (the same files the web team runs with node --test)
    through the mock host: the reply, its error code and error pointers, the navigation and its
    campaign metadata must match what the fixture expects. Each event fixture of
    contracts/event-fixtures is emitted through the host: a valid one must reach the page as
    written, an invalid one be refused with the errors it names. A prefix such as
    fixtures/apply/ limits the run.
    """,
    options: [ContractsOption.option, FormatOption.option],
    footer: "exit: 0 all pass; 1 any fails; 2 the contracts cannot be read."
), run: { arguments, console in
        let contracts = try ContractsOption.load(arguments)
        let format = arguments.value("format")
        let wanted = { (path: String) in arguments.positional.isEmpty || arguments.positional.contains { path.hasPrefix($0) } }
        let selected = contracts.fixtures.filter { wanted($0.path) }
        let selectedEvents = contracts.eventFixtures.filter { wanted($0.path) }
        guard !selected.isEmpty || !selectedEvents.isEmpty else {
            throw UsageError("no fixtures match \(arguments.positional.joined(separator: " "))")
        }
        var checked: [(path: String, problems: [String])] = selected.map { fixture in
            do {
                let outcome = try Scenario(fixture: fixture).run(contracts: contracts)
                return (fixture.path, FixtureCheck.problems(fixture, outcome: outcome))
            } catch {
                return (fixture.path, ["cannot run: \(error)"])
            }
        }
        checked += try eventFixtureResults(selectedEvents, contracts: contracts)
        return report(checked, format: format, console: console)
    }
)

/// Each event fixture emitted through a mock host (`EventFixtureCheck`).
@MainActor
private func eventFixtureResults(_ fixtures: [EventFixture], contracts: ContractSet) throws -> [(path: String, problems: [String])] {
    guard !fixtures.isEmpty else { return [] }
    let compiled = try CompiledContracts(contracts: contracts)
    return fixtures.map { fixture in
        do {
            return (fixture.path, try EventFixtureCheck.problems(fixture, compiled: compiled))
        } catch {
            return (fixture.path, ["cannot run: \(error)"])
        }
    }
}

private func report(_ checked: [(path: String, problems: [String])], format: String?, console: Console) -> Int32 {
    let failed = checked.filter { !$0.problems.isEmpty }.count
    if format == "json" {
        let results: [JSONValue] = checked.map {
            ["fixture": .string($0.path), "passed": .bool($0.problems.isEmpty), "problems": .array($0.problems.map { .string($0) })]
        }
        let report: JSONValue = ["passed": .integer(Int64(checked.count - failed)), "failed": .integer(Int64(failed)), "fixtures": .array(results)]
        console.out(report.prettyPrinted() + "\n")
    } else {
        for (path, problems) in checked {
            console.out(problems.isEmpty ? "PASS \(path)\n" : "FAIL \(path): \(problems.joined(separator: "; "))\n")
        }
        console.out("fixtures: \(checked.count - failed) passed, \(failed) failed\n")
    }
    return failed == 0 ? ExitCode.success : ExitCode.invalid
}
