import BridgeContracts
import BridgeHost

/// `--release PLATFORM@VERSION` (host, simulate, capabilities): the app build of the contracts'
/// releases.json the host acts as, as the capabilities it takes; nil without the option.
enum ReleaseOption {
    static func capabilities(_ arguments: Arguments, contracts: ContractSet) throws(UsageError) -> HostCapabilities? {
        guard let reference = arguments.value("release") else { return nil }
        do {
            let release = try contracts.releaseCatalog().release(reference: reference)
            return try HostCapabilities(contracts: contracts, release: release)
        } catch {
            throw UsageError("--release \(reference): \(error)")
        }
    }
}
