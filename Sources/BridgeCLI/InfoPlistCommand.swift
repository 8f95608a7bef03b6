import BridgeCodegen
import BridgeContracts

/// `bridgectl generate info-plist`: the LSApplicationQueriesSchemes fragment of the contracts, or
/// (`--check INFO.plist`) the schemes an app's Info.plist fails to declare.
let infoPlistCommand = Command(CommandSpec(
    name: "generate info-plist",
    summary: "the LSApplicationQueriesSchemes fragment for the app's Info.plist",
    forms: [UsageForm("", options: ["contracts", "check"])],
    about: """
    Prints the LSApplicationQueriesSchemes fragment for the app's Info.plist: the manifest's
    queriedURLSchemes, every scheme an external route (a map app) is asked about with canOpenURL.
    """,
    options: [
        ContractsOption.option,
        .value("check", "INFO.plist", help: "instead name the schemes that plist does not declare (exit 1 when any)"),
    ]
), run: { arguments, console in
    guard arguments.positional.isEmpty else { throw UsageError("generate info-plist takes no positional arguments") }
    let contracts = try ContractsOption.load(arguments)
    guard let path = arguments.value("check") else {
        console.out(InfoPlistFragment.text(for: contracts))
        return ExitCode.success
    }
    let plist = String(decoding: try InputFile.read(path, maxBytes: 4 * 1024 * 1024, console: console).get().bytes, as: UTF8.self)
    let missing = InfoPlistFragment.missing(from: plist, for: contracts)
    guard missing.isEmpty else {
        console.out("\(path): LSApplicationQueriesSchemes lacks \(missing.joined(separator: ", ")): canOpenURL says no for them even when the app is installed\n")
        return ExitCode.invalid
    }
    console.out("\(path): LSApplicationQueriesSchemes declares every queried scheme (\(contracts.manifest.queriedURLSchemes.joined(separator: ", ")))\n")
    return ExitCode.success
})
