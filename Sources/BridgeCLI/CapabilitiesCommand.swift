import JSONCore
import BridgeContracts
import BridgeHost

/// `bridgectl capabilities`: the capability manifest an app build gives its pages, or the
/// document-start script that installs it, exactly as the Swift host produces them.
let capabilitiesCommand = Command(
    name: "capabilities",
    summary: "print an app build's capability manifest, or the document-start script that installs it",
    help: """
    usage: bridgectl capabilities [--release PLATFORM@VERSION] [--script] [--contracts DIR]

    Prints what the Swift host (HostCapabilities) gives the page: the capability manifest
      {"bridge", "envelope", "app": {"platform", "version"}, "actions": {"apply": [1, 2], ...}}
    or, with --script, the document-start script that installs it as window.<bridge>Capabilities
    in every frame (the template js/host/capabilities.js with the manifest filled in). The same
    manifest answers a page's "capabilities" request over the bridge.

    options:
      --release PLATFORM@VERSION  that build of releases.json (e.g. ios@5.13.0); without it,
                                  every version of the contracts and no "app" (a development host)
      --script                    print the document-start script instead of the manifest
      --contracts DIR             the contracts folder (default: found, see bridgectl version)

    exit: 0, or 2 for a usage error, unreadable contracts or a release that is not recorded.
    """,
    run: { argv, console in
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, spec: .init(options: ["contracts", "release"], flags: ["script"]))
            guard arguments.positional.isEmpty else { throw UsageError("unexpected argument \(arguments.positional[0])") }
        } catch {
            console.err("bridgectl capabilities: \(error)\n")
            return ExitCode.usage
        }
        let contracts: ContractSet
        switch ContractsOption.load(arguments) {
        case .failure(let error):
            console.err("bridgectl capabilities: \(error)\n")
            return ExitCode.usage
        case .success(let loaded): contracts = loaded
        }
        let capabilities: HostCapabilities
        do {
            capabilities = try ReleaseOption.capabilities(arguments, contracts: contracts) ?? HostCapabilities(contracts: contracts)
        } catch {
            console.err("bridgectl capabilities: \(error)\n")
            return ExitCode.usage
        }
        console.out(arguments.has("script") ? capabilities.documentStartScript : capabilities.json.serialized() + "\n")
        return ExitCode.success
    }
)
