import BridgeContracts

/// `--contracts DIR`, shared by every command that reads contracts: the bundled set by default.
enum ContractsOption {
    static let option = OptionSpec.value("contracts", "DIR", help: "another contracts folder (default: the bundled contracts)")

    /// The one place a command's contracts are loaded from its arguments.
    static func load(_ arguments: Arguments) throws(ContractError) -> ContractSet {
        if let directory = arguments.value("contracts") {
            return try ContractSet.load(directory: directory)
        }
        return try ContractSet.bundled()
    }
}

/// `--format text|json`, shared by the report commands.
enum FormatOption {
    static let option = OptionSpec.choice("format", ["text", "json"], help: "output format", default: "text")
}
