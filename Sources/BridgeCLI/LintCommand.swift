import BridgeCodegen
import BridgeContracts
import BridgeSwiftCodegen
import JSONCore

let lintCommand = Command(CommandSpec(
    name: "lint",
    summary: "check the contracts: schemas against their meta-schemas, manifest references, fixtures",
    forms: [UsageForm("", options: ["contracts", "format"])],
    about: """
    Validates every contract schema against the official meta-schema of its dialect (2020-12,
    2019-09, draft-07, -06 or -04, built into bridgectl), checks that every schema, route and
    JSON Pointer the manifest names resolves, that every action version has valid and invalid
    fixtures, and that the JS validator generator (generate js) can compile every keyword the
    contracts use. Warns about a schema part the Swift type generator (generate swift) cannot
    express (oneOf, a list of types, an open object...), and about a $ref loop with no property
    or item in between (such a schema compiles, but a message that reaches the loop cannot be
    checked).
    """,
    options: [ContractsOption.option, FormatOption.option],
    footer: "exit: 0 clean or warnings only; 1 findings; 2 the contracts cannot be read at all."
), run: { arguments, console in
        let contracts = try ContractsOption.load(arguments)
        let format = arguments.value("format")
        guard arguments.positional.isEmpty else { throw UsageError("unexpected argument \(arguments.positional[0])") }
        let findings = ContractLinter(contracts: contracts).lint()
            + JavaScriptGenerator.validatorProblems(for: contracts).map {
                LintFinding(file: "schemas/\($0.file)", pointer: $0.pointer, message: "JS validators: " + $0.message)
            }
            // A warning: the web side and the checker are fine with such a schema; only the typed
            // Swift messages (generate swift, which fails on it) are not.
            + SwiftTypesGenerator.unsupported(in: contracts).map {
                LintFinding(file: "schemas/\($0.file)", pointer: $0.pointer, message: "Swift types: " + $0.reason, severity: .warning)
            }
        if format == "json" {
            let report: JSONValue = [
                "contracts": .string(contracts.origin),
                "findings": .array(findings.map {
                    ["file": .string($0.file), "pointer": .string($0.pointer), "message": .string($0.message),
                     "severity": .string($0.severity.rawValue)]
                }),
            ]
            console.out(report.prettyPrinted() + "\n")
        } else {
            for finding in findings { console.out(finding.description + "\n") }
            let summary = "\(contracts.schemas.count) schemas, \(contracts.routes.count) routes, \(contracts.fixtures.count) fixtures"
            let warnings = findings.filter { $0.severity == .warning }.count
            let errors = findings.count - warnings
            if errors > 0 {
                console.out("lint: \(errors) finding(s)\(warnings > 0 ? ", \(warnings) warning(s)" : "") (\(summary))\n")
            } else {
                console.out("lint: clean\(warnings > 0 ? ", \(warnings) warning(s)" : "") (\(summary))\n")
            }
        }
        return findings.contains { $0.severity == .error } ? ExitCode.invalid : ExitCode.success
    }
)
