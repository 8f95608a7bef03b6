/// Exit codes shared by every command.
public enum ExitCode {
    public static let success: Int32 = 0
    /// Well-formed input that breaks the contract (an invalid message, a failing check).
    public static let invalid: Int32 = 1
    /// Usage errors and input that cannot be read or parsed.
    public static let usage: Int32 = 2
}

/// One `bridgectl` subcommand. A new command is a new file with one of these, listed in `BridgeCLI.commands`.
public struct Command: Sendable {
    public let name: String
    public let summary: String
    /// Full help text printed for `bridgectl NAME --help`.
    public let help: String
    /// Maintainer tools (benchmarks) run like any command but are not listed by `--help`.
    public let hidden: Bool
    /// Runs on the main actor: `simulate`, `host` and `check` drive the main-actor navigator.
    public let run: @MainActor @Sendable ([String], Console) -> Int32

    public init(
        name: String, summary: String, help: String, hidden: Bool = false,
        run: @escaping @MainActor @Sendable ([String], Console) -> Int32
    ) {
        self.name = name
        self.summary = summary
        // Exactly one newline at the end, however the literal ends: the prompt starts on its own line.
        var help = help
        while help.hasSuffix("\n") { help.removeLast() }
        self.help = help + "\n"
        self.hidden = hidden
        self.run = run
    }
}

public enum BridgeCLI {
    /// The tool's version (`bridgectl --version`).
    public static let version = "0.1.0"

    /// Every subcommand, in the order `--help` lists them.
    public static let commands: [Command] = [
        initCommand,
        validateCommand,
        lintCommand,
        checkCommand,
        diffCommand,
        releaseCommand,
        canIDeployCommand,
        generateCommand,
        simulateCommand,
        hostCommand,
        capabilitiesCommand,
        routeCommand,
        linkCommand,
        docsCommand,
        funnelCommand,
        versionCommand,
        benchRoutesCommand,
    ]

    /// Runs `bridgectl ARGS...` and returns the exit code. Conventions every command keeps:
    /// `--help` (or `-h`) prints to standard output and exits 0; a usage error is one line on
    /// standard error and exit 2.
    @MainActor
    public static func main(_ arguments: [String], console: Console) -> Int32 {
        guard let first = arguments.first else {
            // No command is a usage error: the overview goes where errors go.
            console.err(overview())
            return ExitCode.usage
        }
        if first == "--help" || first == "-h" {
            console.out(overview())
            return ExitCode.success
        }
        if first == "help" {
            guard let name = arguments.dropFirst().first else {
                console.out(overview())
                return ExitCode.success
            }
            guard let command = commands.first(where: { $0.name == name }) else { return unknownCommand(name, console) }
            console.out(command.help)
            return ExitCode.success
        }
        if first == "--version" {
            return versionCommand.run(Array(arguments.dropFirst()), console)
        }
        guard let command = commands.first(where: { $0.name == first }) else { return unknownCommand(first, console) }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.help)
            return ExitCode.success
        }
        return command.run(rest, console)
    }

    static func unknownCommand(_ name: String, _ console: Console) -> Int32 {
        console.err("bridgectl: unknown command \"\(name)\" (commands: \(commands.filter { !$0.hidden }.map(\.name).joined(separator: ", ")))\n")
        return ExitCode.usage
    }

    static func overview() -> String {
        var text = "bridgectl: WebView bridge contract toolkit\n\nusage: bridgectl COMMAND [OPTIONS]\n\ncommands:\n"
        let listed = commands.filter { !$0.hidden }
        let width = listed.map(\.name.count).max() ?? 0
        for command in listed {
            text += "  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.summary + "\n"
        }
        text += "\nbridgectl COMMAND --help shows a command's options; bridgectl --version the version.\n"
        return text
    }
}
