#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BridgeContracts
import ContractEvolution

let diffCommand = Command(
    name: "diff",
    summary: "compare two contract sets: typed findings, breaking ones proven by a counterexample",
    help: """
    usage: bridgectl diff OLD NEW [--format text|json] [--write-counterexamples DIR]
           bridgectl diff --base REV [NEW] [--format text|json] [--write-counterexamples DIR]

    Compares two contracts folders: every action version present in both, the envelope and the
    other shared schemas, routes.json and the manifest (mappings, origins, limits, hosts,
    timeouts, fallback). Each difference is a typed finding (kinds: docs/contracts.md). A
    released action version must stay compatible both ways; a change that makes a side accept
    or reject a message differently is breaking and carries a counterexample that one side
    accepts and the other rejects, both run through the real checker and router. Without one it
    is "possibly breaking", with the reason. A new version is compared with the previous one, as
    info.

    --base REV     OLD is the NEW folder as it was at git revision REV of its repository (read
                   with git rev-parse / ls-tree / show; nothing is checked out). NEW defaults to
                   the contracts/ folder of the repository the current directory is in.
    --write-counterexamples DIR
                   also write each counterexample as a contract fixture under
                   DIR/<action>/v<version>/ (links under DIR/links/)
    --today DATE   the date (YYYY-MM-DD) accepted changes expire against (default: today, UTC)

    NEW/accepted-changes.json accepts findings by kind, action and version (or schema, or
    route) and schemaPointer, with a reason and an expiry date; an accepted finding is printed
    but does not fail, an expired entry fails.

    exit: 0 nothing breaking; 1 something breaking or possibly breaking (and not accepted), or
          an expired acceptance; 2 usage error, unreadable folder, a schema that does not
          compile, a revision that does not exist or has no contracts.
    """,
    run: { argv, console in DiffCommandRunner(console: console).run(argv) }
)

private struct DiffCommandRunner {
    let console: Console

    func fail(_ message: String) -> Int32 {
        console.err("bridgectl diff: \(message)\n")
        return ExitCode.usage
    }

    func run(_ argv: [String]) -> Int32 {
        let arguments: Arguments
        let format: String
        do {
            arguments = try Arguments(argv, spec: .init(options: ["format", "base", "write-counterexamples", "today"]))
            format = try arguments.choice("format", ["text", "json"], default: "text")
        } catch {
            return fail("\(error)")
        }
        let today = arguments.value("today") ?? UTCDate.today()
        guard AcceptedChanges.isDate(today) else { return fail("--today \(today) is not a date YYYY-MM-DD") }
        let old: LoadedContracts, new: LoadedContracts
        do {
            if let base = arguments.value("base") {
                guard arguments.positional.count <= 1 else {
                    return fail("with --base, give at most the NEW folder (got \(arguments.positional.count) folders)")
                }
                let git = GitProcess()
                let folder = try arguments.positional.first ?? LoadedContracts.repositoryContractsFolder(git: git)
                new = try LoadedContracts.folder(folder)
                old = try LoadedContracts.gitRevision(base, folder: folder, git: git)
            } else {
                guard arguments.positional.count == 2 else {
                    return fail("expected OLD and NEW contracts folders (or --base REV [NEW]); see bridgectl diff --help")
                }
                old = try LoadedContracts.folder(arguments.positional[0])
                new = try LoadedContracts.folder(arguments.positional[1])
            }
        } catch {
            return fail("\(error)")
        }
        let report: DiffReport
        do {
            let accepted = try new.acceptedChanges()
            report = try ContractDiff.compare(old: old.contracts, new: new.contracts, accepted: accepted, today: today)
        } catch {
            return fail("\(error)")
        }
        if let directory = arguments.value("write-counterexamples") {
            do {
                for file in report.counterexampleFixtures {
                    let path = directory + "/" + file.path
                    let folder = String(path[..<path.lastIndex(of: "/")!])
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                }
            } catch {
                return fail("cannot write counterexamples to \(directory): \(FileSystem.describe(error))")
            }
        }
        console.out(format == "json" ? report.json.prettyPrinted() + "\n" : report.text)
        return report.fails ? ExitCode.invalid : ExitCode.success
    }
}
