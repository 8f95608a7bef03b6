import BridgeContracts

/// `bridgectl version` (also `bridgectl --version`): which tool, and which contracts it would use.
let versionCommand = Command(CommandSpec(
    name: "version",
    summary: "print the tool's version and a digest of the contracts in use (also --version)",
    forms: [UsageForm("", options: ["contracts"])],
    about: """
    `bridgectl --version` is the same. Prints the tool's version, then the contracts in use and
    how they were found: --contracts DIR; else the nearest contracts/ folder (one holding
    manifest.json) from the current folder upward; else the folder in BRIDGEKIT_CONTRACTS. Then
    their number of files and a SHA-256 digest, so two people can tell whether they run the same
    contracts. bridgectl carries no contracts of its own: with none found it says so (create a
    set with bridgectl init). The digest is the SHA-256 of the `sha256sum` lines of every .json
    file, sorted by path; in a contracts folder the same number comes from
      find . -name '*.json' | sed 's|^./||' | LC_ALL=C sort | xargs sha256sum | sha256sum
    """,
    options: [ContractsOption.option],
    footer: "exit: 0 printed (also when no contracts are found); 2 usage error or unreadable contracts."
), run: { arguments, console in
        guard arguments.positional.isEmpty else { throw UsageError("version takes no arguments") }
        console.out("bridgectl \(BridgeCLI.version)\n")
        let found: ContractDiscovery
        switch ContractsOption.locate(arguments) {
        case .failure(let error):
            // The version is still worth printing; "none found" is an answer, not a failure.
            console.out("contracts: none found (\(error.message))\n")
            return ExitCode.success
        case .success(let located): found = located
        }
        let contracts = try ContractSet.load(directory: found.directory)
        let files = contracts.files.count
        console.out("found: \(found.summary)\n")
        console.out("contracts: \(contracts.origin), \(files) file\(files == 1 ? "" : "s"), sha256 \(contracts.digest)\n")
        return ExitCode.success
    }
)
