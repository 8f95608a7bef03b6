import BridgeCodegen
import BridgeContracts

/// `bridgectl generate js`: the web team's shim, types and fake host, from the contracts alone.
let generateCommand = Command(
    name: "generate",
    summary: "generate the web-side JS shim, its TypeScript types and the fake host (generate js)",
    help: """
    usage: bridgectl generate js [--contracts DIR] [--out DIR] [--check] [--update-runtime]
           bridgectl generate info-plist [--contracts DIR] [--check INFO.plist]

    Writes the web team's kit. From the contracts (manifest, routes, schemas):
      DIR/bridge.js                 the ES module the event pages import (createBridge), with
                                    the contract table
      DIR/bridge.d.ts               one typed function per action and version, payload types
                                    converted from the JSON Schemas
      DIR/testing/fake-host.js      a fake native host for the web team's tests (+ .d.ts)
    and, as built into bridgectl from the repository's js/src (the same for every contract set):
      DIR/src/bridge-runtime.js     the shim's runtime, which bridge.js imports (+ .d.ts)
      DIR/src/fake-host.js          the fake host's runtime (+ .d.ts)
    --out DIR          where to write them (default: js)
    --check            write nothing; exit 1 naming each file that is missing or differs (run
                       it in CI so a contract change cannot ship without the regenerated kit)
    --update-runtime   replace DIR/src files that differ from the runtime built into bridgectl
                       (without it they are left alone and the command fails: in the
                       repository they are the source, and a bridgectl built before an edit
                       of js/src must not overwrite it)
    The output is deterministic (manifest order, no dates), so it can be committed and checked.
    Files that are already current are not rewritten.

    generate info-plist prints the LSApplicationQueriesSchemes fragment for the app's Info.plist:
    the manifest's queriedURLSchemes, every scheme an external route (a map app) is asked about
    with canOpenURL. --check INFO.plist instead names the schemes that plist does not declare.

    exit: 0 written or current; 1 --check found stale or missing files; 2 usage error,
          unreadable contracts, a schema the TypeScript generator does not support, a runtime
          file that differs (without --update-runtime), or a file that cannot be written.
    """,
    run: { argv, console in GenerateCommandRunner(console: console).run(argv) }
)

private struct GenerateCommandRunner {
    let console: Console

    func run(_ argv: [String]) -> Int32 {
        if argv.first == "info-plist" { return InfoPlistCommand(console: console).run(Array(argv.dropFirst())) }
        let arguments: Arguments
        do {
            arguments = try Arguments(argv, spec: .init(options: ["contracts", "out"], flags: ["check", "update-runtime"]))
            guard arguments.positional == ["js"] else {
                throw UsageError("expected the target \"js\" or \"info-plist\": bridgectl generate js [--out DIR] [--check]")
            }
        } catch {
            console.err("bridgectl generate: \(error)\n")
            return ExitCode.usage
        }
        let contracts: ContractSet
        switch ContractsOption.load(arguments) {
        case .success(let loaded): contracts = loaded
        case .failure(let error):
            console.err("bridgectl generate: \(error)\n")
            return ExitCode.usage
        }
        let files: [GeneratedFile]
        do {
            files = try JavaScriptGenerator.files(for: contracts)
        } catch {
            console.err("bridgectl generate: cannot generate from \(contracts.origin): \(error)\n")
            return ExitCode.usage
        }
        let directory = arguments.value("out") ?? "js"

        if arguments.has("check") {
            let stale = GeneratedFiles.stale(files, in: directory)
            guard !stale.isEmpty else {
                console.out("\(directory): the \(files.count) files of the kit are current\n")
                return ExitCode.success
            }
            for file in stale { console.out("\(file)\n") }
            console.out("regenerate with: \(JavaScriptGenerator.regenerateCommand)\n")
            return ExitCode.invalid
        }
        do {
            let written = try GeneratedFiles.write(files, to: directory, replacingRuntime: arguments.has("update-runtime"))
            for path in written { console.out("wrote \(path)\n") }
            if written.isEmpty { console.out("\(directory): the \(files.count) files of the kit are already current\n") }
            return ExitCode.success
        } catch let error as GeneratedFiles.RuntimeDiffers {
            console.err("bridgectl generate: \(error)\n")
            return ExitCode.usage
        } catch {
            console.err("bridgectl generate: cannot write to \(directory): \(FileSystem.describe(error))\n")
            return ExitCode.usage
        }
    }
}
