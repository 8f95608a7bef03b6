import BridgeContracts

/// `--contracts DIR`, shared by every command that reads contracts. Without it the set is found
/// (ContractDiscovery): the nearest contracts/ folder upward, else BRIDGEKIT_CONTRACTS; none is
/// a usage error pointing at `bridgectl init`.
enum ContractsOption {
    static let option = OptionSpec.value("contracts", "DIR", help: "the contracts folder (default: found, see bridgectl version)")

    /// The one place a command's contracts are loaded from its arguments.
    static func load(_ arguments: Arguments, includingFixtures: Bool = true) throws(ContractError) -> ContractSet {
        let found = try ContractDiscovery.find(flag: arguments.value("contracts"))
        return try ContractSet.load(directory: found.directory, includingFixtures: includingFixtures)
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

/// `--format text|json`, shared by the report commands.
enum FormatOption {
    static let option = OptionSpec.choice("format", ["text", "json"], help: "output format", default: "text")
}
