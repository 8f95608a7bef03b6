import JSONCore
import BridgeContracts
import BridgeHost

/// `bridgectl capabilities`: the capability manifest an app build gives its pages, or the
/// document-start script that installs it, exactly as the Swift host produces them.
let capabilitiesCommand = Command(CommandSpec(
    name: "capabilities",
    summary: "print an app build's capability manifest, or the document-start script that installs it",
    forms: [UsageForm("", options: ["release", "script", "contracts"])],
    about: """
    Prints what the Swift host (HostCapabilities) gives the page: the capability manifest
      {"bridge", "envelope", "app": {"platform", "version"}, "actions": {"apply": [1, 2], ...}}
    or, with --script, the document-start script that installs it as window.<bridge>Capabilities
    in every frame (the template js/host/capabilities.js with the manifest filled in). The same
    manifest answers a page's "capabilities" request over the bridge.
    """,
    options: [
        .value("release", "PLATFORM@VERSION", help: """
            that build of releases.json (e.g. ios@5.13.0); without it,
            every version of the contracts and no "app" (a development host)
            """),
        .flag("script", help: "print the document-start script instead of the manifest"),
        ContractsOption.option,
    ],
    footer: "exit: 0, or 2 for a usage error, unreadable contracts or a release that is not recorded."
), run: { arguments, console in
        guard arguments.positional.isEmpty else { throw UsageError("unexpected argument \(arguments.positional[0])") }
        let contracts = try ContractsOption.load(arguments)
        let capabilities = try ReleaseOption.capabilities(arguments, contracts: contracts) ?? HostCapabilities(contracts: contracts)
        console.out(arguments.has("script") ? capabilities.documentStartScript : capabilities.json.serialized() + "\n")
        return ExitCode.success
    }
)
