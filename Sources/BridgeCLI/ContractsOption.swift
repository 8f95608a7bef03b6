import BridgeContracts

/// `--contracts DIR`, shared by every command that reads contracts. Without it the set is found
/// (ContractDiscovery): the nearest contracts/ folder upward, else BRIDGEKIT_CONTRACTS; none is
/// a usage error pointing at `bridgectl init`.
enum ContractsOption {
    static func load(_ arguments: Arguments, includingFixtures: Bool = true) -> Result<ContractSet, ContractError> {
        do {
            let found = try ContractDiscovery.find(flag: arguments.value("contracts"))
            return .success(try ContractSet.load(directory: found.directory, includingFixtures: includingFixtures))
        } catch {
            return .failure(error)
        }
    }

    /// Where the set in use is and how it was found (`bridgectl version`, fix-it hints).
    static func locate(_ arguments: Arguments) -> Result<ContractDiscovery, ContractError> {
        do {
            return .success(try ContractDiscovery.find(flag: arguments.value("contracts")))
        } catch {
            return .failure(error)
        }
    }

    /// ` --contracts DIR` of the set in use, for a printed command that must run on the same set
    /// from the same folder ("" when none is found: the command failed before any hint).
    static func flagText(_ arguments: Arguments) -> String {
        (try? ContractDiscovery.find(flag: arguments.value("contracts"))).map { " " + $0.flagText } ?? ""
    }

    /// The folder that holds the set in use: default output paths are relative to it, never to
    /// a folder of bridgectl's own.
    static func projectFolder(_ arguments: Arguments) -> String? {
        (try? ContractDiscovery.find(flag: arguments.value("contracts")))?.projectFolder
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
