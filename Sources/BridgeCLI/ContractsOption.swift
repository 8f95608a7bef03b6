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
