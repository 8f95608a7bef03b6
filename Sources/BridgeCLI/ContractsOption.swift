import BridgeContracts

/// `--contracts DIR`, shared by every command that reads contracts: the bundled set by default.
enum ContractsOption {
    static func load(_ arguments: Arguments) -> Result<ContractSet, ContractError> {
        do {
            if let directory = arguments.value("contracts") {
                return .success(try ContractSet.load(directory: directory))
            }
            return .success(try ContractSet.bundled())
        } catch {
            return .failure(error)
        }
    }
}

/// The start every contracts-reading report command shares: parse `--contracts DIR` and
/// `--format text|json`, load the contracts, and print a usage error naming the command.
struct ContractsReportSetup {
    let arguments: Arguments
    let format: String
    let contracts: ContractSet

    static func parse(_ argv: [String], command: String, console: Console) -> ContractsReportSetup? {
        do {
            let arguments = try Arguments(argv, spec: .init(options: ["contracts", "format"]))
            let format = try arguments.choice("format", ["text", "json"], default: "text")
            switch ContractsOption.load(arguments) {
            case .success(let contracts):
                return ContractsReportSetup(arguments: arguments, format: format, contracts: contracts)
            case .failure(let error):
                console.err("bridgectl \(command): \(error)\n")
            }
        } catch {
            console.err("bridgectl \(command): \(error)\n")
        }
        return nil
    }
}
