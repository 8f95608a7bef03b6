#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import BridgeContracts
import ContractEvolution

let diffCommand = Command(CommandSpec(
    name: "diff",
    summary: "compare two contract sets: typed findings, breaking ones proven by a counterexample",
    forms: [UsageForm("OLD NEW", options: ["format", "write-counterexamples"]),
            UsageForm("--base REV [NEW]", options: ["format", "write-counterexamples"])],
    about: """
    Compares two contracts folders: every action version present in both, the envelope and the
    other shared schemas, routes.json and the manifest (mappings, origins, limits, hosts,
    timeouts, fallback). Each difference is a typed finding (kinds: docs/contracts.md). A
    released action version must stay compatible both ways; a change that makes a side accept
    or reject a message differently is breaking and carries a counterexample that one side
    accepts and the other rejects, both run through the real checker and router. Without one it
    is "possibly breaking", with the reason. A new version is compared with the previous one, as
    info. Events go the other way (the app writes, pages read): an event version breaks the
    pages that read it when its new schema accepts a message the old one rejects; a stricter
    event schema is compatible, and a removed event version breaks the pages that subscribe.
    """,
    options: [
        .value("base", "REV", help: """
            OLD is the NEW folder as it was at git revision REV of its repository (read
            with git rev-parse / ls-tree / show; nothing is checked out). NEW defaults to
            the contracts in use: the nearest contracts/ folder upward, else
            BRIDGEKIT_CONTRACTS.
            """),
        .value("write-counterexamples", "DIR", help: """
            also write each counterexample as a contract fixture under
            DIR/<action>/v<version>/ (links under DIR/links/)
            """),
        .value("today", "DATE", help: "the date (YYYY-MM-DD) accepted changes expire against (default: today, UTC)"),
        FormatOption.option,
    ],
    footer: """
    NEW/accepted-changes.json accepts findings by kind, action (or event) and version (or
    schema, or route) and schemaPointer, with a reason and an expiry date; an accepted finding
    is printed but does not fail, an expired entry fails.

    exit: 0 nothing breaking; 1 something breaking or possibly breaking (and not accepted), or
          an expired acceptance; 2 usage error, unreadable folder, a schema that does not
          compile, a revision that does not exist or has no contracts.
    """
), run: { arguments, console in try DiffCommandRunner(console: console).run(arguments) })

private struct DiffCommandRunner {
    let console: Console

    func run(_ arguments: Arguments) throws -> Int32 {
        let format = arguments.value("format")
        let today = arguments.value("today") ?? UTCDate.today()
        guard AcceptedChanges.isDate(today) else { throw UsageError("--today \(today) is not a date YYYY-MM-DD") }
        let old: LoadedContracts, new: LoadedContracts
        if let base = arguments.value("base") {
            guard arguments.positional.count <= 1 else {
                throw UsageError("with --base, give at most the NEW folder (got \(arguments.positional.count) folders)")
            }
            let folder = try arguments.positional.first ?? ContractDiscovery.find(flag: nil).directory
            new = try LoadedContracts.folder(folder)
            old = try LoadedContracts.gitRevision(base, folder: folder, git: GitProcess())
        } else {
            guard arguments.positional.count == 2 else {
                throw UsageError("expected OLD and NEW contracts folders (or --base REV [NEW]); see bridgectl diff --help")
            }
            old = try LoadedContracts.folder(arguments.positional[0])
            new = try LoadedContracts.folder(arguments.positional[1])
        }
        let accepted = try new.acceptedChanges()
        let report = try ContractDiff.compare(old: old.contracts, new: new.contracts, accepted: accepted, today: today)
        if let directory = arguments.value("write-counterexamples") {
            do {
                for file in report.counterexampleFixtures {
                    let path = directory + "/" + file.path
                    let folder = String(path[..<path.lastIndex(of: "/")!])
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try Data(file.text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                }
            } catch {
                throw UsageError("cannot write counterexamples to \(directory): \(FileSystem.describe(error))")
            }
        }
        console.out(format == "json" ? report.json.prettyPrinted() + "\n" : report.text)
        return report.fails ? ExitCode.invalid : ExitCode.success
    }
}
