import BridgeCodegen
import BridgeContracts
import ContractCatalog

/// `bridgectl docs --out DIR`: the contract catalog, static pages for people.
let docsCommand = Command(CommandSpec(
    name: "docs",
    summary: "write the contract catalog: HTML pages of actions, fields, examples and a link builder",
    forms: [UsageForm("", options: ["out", "contracts"], required: ["out"])],
    about: """
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
    """,
    options: [
        .value("out", "DIR", help: "required: the folder to write the catalog into"),
        ContractsOption.option,
    ],
    footer: "exit: 0 written; 2 usage error, unreadable contracts, or a file that cannot be written."
), run: { arguments, console in
        guard arguments.positional.isEmpty else { throw UsageError("docs takes no positional arguments (use --out DIR)") }
        guard let directory = arguments.value("out") else { throw UsageError("docs needs --out DIR, the folder to write the catalog into") }
        let contracts = try ContractsOption.load(arguments)
        let files: [GeneratedFile]
        do {
            files = try ContractCatalog.files(for: contracts, toolVersion: BridgeCLI.version, answers: MockHostFixtureAnswers())
        } catch {
            throw UsageError("cannot write the catalog of \(contracts.origin): \(error)")
        }
        do {
            let written = try GeneratedFiles.write(files, to: directory)
            console.out("\(directory): \(files.count) files, \(written.count) written; open \(directory.hasSuffix("/") ? directory : directory + "/")index.html\n")
            return ExitCode.success
        } catch {
            throw UsageError("cannot write to \(directory): \(FileSystem.describe(error))")
        }
    }
)
