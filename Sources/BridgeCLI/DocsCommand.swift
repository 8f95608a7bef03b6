import BridgeCodegen
import BridgeContracts
import ContractCatalog

/// `bridgectl docs --out DIR`: the contract catalog, static pages for people.
let docsCommand = Command(
    name: "docs",
    summary: "write the contract catalog: HTML pages of actions, fields, examples and a link builder",
    help: """
    usage: bridgectl docs --out DIR [--contracts DIR]

    Writes the contract catalog into DIR, for operations, CRM, PMs and QA, who do not read JSON
    Schemas: open DIR/index.html in a browser (it works from disk, fetches nothing).
      index.html          the actions and versions with their Korean titles (and, when the
                          contracts record releases, the app builds that take each), the routes,
                          the campaign rules
      actions/A-vN.html   one page per action version: its fields in plain words, the fixtures as
                          examples with the answer the app gives, the route with an example link
      link-builder.html   a form that builds exactly what `bridgectl link build` builds, with the
                          same rules and warnings (link-builder.js carries the shim's own code)
      catalog.css
    The output is deterministic (no dates). Files that are already current are not rewritten.

    exit: 0 written; 2 usage error, unreadable contracts, or a file that cannot be written.
    """,
    run: { argv, console in
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, spec: .init(options: ["out", "contracts"]))
            guard arguments.positional.isEmpty else { throw UsageError("docs takes no positional arguments (use --out DIR)") }
            guard arguments.value("out") != nil else { throw UsageError("docs needs --out DIR, the folder to write the catalog into") }
        } catch {
            console.err("bridgectl docs: \(error)\n")
            return ExitCode.usage
        }
        let contracts: ContractSet
        switch ContractsOption.load(arguments) {
        case .failure(let error):
            console.err("bridgectl docs: \(error)\n")
            return ExitCode.usage
        case .success(let loaded): contracts = loaded
        }
        let directory = arguments.value("out")!
        let files: [GeneratedFile]
        do {
            files = try ContractCatalog.files(for: contracts, toolVersion: BridgeCLI.version, answers: MockHostFixtureAnswers())
        } catch {
            console.err("bridgectl docs: cannot write the catalog of \(contracts.origin): \(error)\n")
            return ExitCode.usage
        }
        do {
            let written = try GeneratedFiles.write(files, to: directory)
            console.out("\(directory): \(files.count) files, \(written.count) written; open \(directory.hasSuffix("/") ? directory : directory + "/")index.html\n")
            return ExitCode.success
        } catch {
            console.err("bridgectl docs: cannot write to \(directory): \(FileSystem.describe(error))\n")
            return ExitCode.usage
        }
    }
)
