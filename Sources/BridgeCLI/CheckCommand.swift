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
    campaign metadata must match what the fixture expects. A prefix such as fixtures/apply/
    limits the run.
    """,
    options: [ContractsOption.option, FormatOption.option],
    footer: "exit: 0 all pass; 1 any fails; 2 the contracts cannot be read."
), run: { arguments, console in
        let contracts = try ContractsOption.load(arguments)
        let format = arguments.value("format")
        let selected = contracts.fixtures.filter { fixture in
            arguments.positional.isEmpty || arguments.positional.contains { fixture.path.hasPrefix($0) }
        }
        guard !selected.isEmpty else { throw UsageError("no fixtures match \(arguments.positional.joined(separator: " "))") }
        var results: [JSONValue] = []
        var failed = 0
        for fixture in selected {
            var problems: [String]
            do {
                let outcome = try Scenario(fixture: fixture).run(contracts: contracts)
                problems = FixtureCheck.problems(fixture, outcome: outcome)
            } catch {
                problems = ["cannot run: \(error)"]
            }
            if !problems.isEmpty { failed += 1 }
            if format == "json" {
                results.append(["fixture": .string(fixture.path), "passed": .bool(problems.isEmpty),
                                "problems": .array(problems.map { .string($0) })])
            } else if problems.isEmpty {
                console.out("PASS \(fixture.path)\n")
            } else {
                console.out("FAIL \(fixture.path): \(problems.joined(separator: "; "))\n")
            }
        }
        if format == "json" {
            let report: JSONValue = ["passed": .integer(Int64(selected.count - failed)), "failed": .integer(Int64(failed)), "fixtures": .array(results)]
            console.out(report.prettyPrinted() + "\n")
        } else {
            console.out("fixtures: \(selected.count - failed) passed, \(failed) failed\n")
        }
        return failed == 0 ? ExitCode.success : ExitCode.invalid
    }
)
