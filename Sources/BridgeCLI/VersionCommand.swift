import BridgeContracts

/// `bridgectl version` (also `bridgectl --version`): which tool, and which contracts it carries.
let versionCommand = Command(CommandSpec(
    name: "version",
    summary: "print the tool's version and a digest of the contracts in use (also --version)",
    forms: [UsageForm("", options: ["contracts"])],
    about: """
    `bridgectl --version` is the same. Prints the tool's version, then the contracts in use (the bundled ones, or DIR) with their
    number of files and a SHA-256 digest, so two people can tell whether they run the same
    contracts. The digest is the SHA-256 of the `sha256sum` lines of every .json file, sorted by
    path; in a contracts folder the same number comes from
      find . -name '*.json' | sed 's|^./||' | LC_ALL=C sort | xargs sha256sum | sha256sum
    """,
    options: [ContractsOption.option],
    footer: "exit: 0 printed; 2 usage error or unreadable contracts."
), run: { arguments, console in
        guard arguments.positional.isEmpty else { throw UsageError("version takes no arguments") }
        let contracts = try ContractsOption.load(arguments)
        let files = contracts.files.count
        console.out("bridgectl \(BridgeCLI.version)\ncontracts: \(contracts.origin), \(files) file\(files == 1 ? "" : "s"), sha256 \(contracts.digest)\n")
        return ExitCode.success
    }
)
