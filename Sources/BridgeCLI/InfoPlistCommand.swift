import BridgeCodegen
import BridgeContracts

/// `bridgectl generate info-plist`: the LSApplicationQueriesSchemes fragment of the contracts, or
/// (`--check INFO.plist`) the schemes an app's Info.plist fails to declare.
struct InfoPlistCommand {
    let console: Console

    func run(_ argv: [String]) -> Int32 {
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, spec: .init(options: ["contracts", "check"], flags: []))
            guard arguments.positional.isEmpty else { throw UsageError("generate info-plist takes no positional arguments") }
        } catch {
            console.err("bridgectl generate info-plist: \(error)\n")
            return ExitCode.usage
        }
        let contracts: ContractSet
        switch ContractsOption.load(arguments) {
        case .success(let loaded): contracts = loaded
        case .failure(let error):
            console.err("bridgectl generate info-plist: \(error)\n")
            return ExitCode.usage
        }
        guard let path = arguments.value("check") else {
            console.out(InfoPlistFragment.text(for: contracts))
            return ExitCode.success
        }
        let plist: String
        switch InputFile.read(path, maxBytes: 4 * 1024 * 1024, console: console) {
        case .failure(let error):
            console.err("bridgectl generate info-plist: \(error.line)\n")
            return ExitCode.usage
        case .success(let file): plist = String(decoding: file.bytes, as: UTF8.self)
        }
        let missing = InfoPlistFragment.missing(from: plist, for: contracts)
        guard missing.isEmpty else {
            console.out("\(path): LSApplicationQueriesSchemes lacks \(missing.joined(separator: ", ")): canOpenURL says no for them even when the app is installed\n")
            return ExitCode.invalid
        }
        console.out("\(path): LSApplicationQueriesSchemes declares every queried scheme (\(contracts.manifest.queriedURLSchemes.joined(separator: ", ")))\n")
        return ExitCode.success
    }
}
