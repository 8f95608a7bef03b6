/// Exit codes shared by every command.
public enum ExitCode {
    public static let success: Int32 = 0
    /// Well-formed input that breaks the contract (an invalid message, a failing check).
    public static let invalid: Int32 = 1
    /// Usage errors and input that cannot be read or parsed.
    public static let usage: Int32 = 2
}

/// An error that says which exit code it means. An error thrown by a command that is not one of
/// these (a contracts folder that cannot be read, a file that is not JSON) exits 2.
public protocol ExitCodedError: Error, CustomStringConvertible {
    var exitCode: Int32 { get }
}

extension UsageError: ExitCodedError {
    public var exitCode: Int32 { ExitCode.usage }
}

/// A command's own failure with the exit code it means (1 for a finding reported as an error).
public struct CommandFailure: ExitCodedError, Sendable {
    public let message: String
    public let exitCode: Int32
    public init(_ message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }
    public var description: String { message }
}

/// One `bridgectl` subcommand: its declaration and what it does with the parsed arguments. A new
/// command is a new file with one of these, listed in `BridgeCLI.commands`.
public struct Command: Sendable {
    public let spec: CommandSpec
    /// Commands under this one, picked by the first argument (`link build`, `release list`);
    /// each declares its own options. Their names are the full path ("link build").
    public let subcommands: [Command]
    /// Runs on the main actor: `simulate`, `host` and `check` drive the main-actor navigator.
    /// Returns the exit code of a run that finished (0, or 1 for findings); throws otherwise.
    let body: @MainActor @Sendable (Arguments, Console) throws -> Int32

    public init(_ spec: CommandSpec, run body: @escaping @MainActor @Sendable (Arguments, Console) throws -> Int32) {
        self.spec = spec
        self.subcommands = []
        self.body = body
    }

    /// A command made of subcommands only: without one of them it is a usage error.
    public init(_ spec: CommandSpec, subcommands: [Command]) {
        self.spec = spec
        self.subcommands = subcommands
        let names = subcommands.map(\.word)
        self.body = { arguments, _ in
            guard let given = arguments.positional.first else {
                throw UsageError("expected a subcommand: \(names.joined(separator: ", ")) (see bridgectl \(spec.name) --help)")
            }
            throw UsageError("unknown subcommand \"\(given)\" (\(names.joined(separator: ", ")))")
        }
    }

    /// A command with its own body and subcommands beside it (`generate js` and `generate info-plist`).
    public init(_ spec: CommandSpec, subcommands: [Command],
                run body: @escaping @MainActor @Sendable (Arguments, Console) throws -> Int32) {
        self.spec = spec
        self.subcommands = subcommands
        self.body = body
    }

    public var name: String { spec.name }
    /// The word that picks a subcommand: the last of its name.
    var word: String { String(spec.name.split(separator: " ").last ?? "") }
    public var summary: String { spec.summary }

    /// The command `argv` names, following subcommands, and the arguments left for it.
    func resolve(_ argv: [String]) -> (Command, [String]) {
        guard let first = argv.first, let sub = subcommands.first(where: { $0.word == first }) else { return (self, argv) }
        return sub.resolve(Array(argv.dropFirst()))
    }

    /// Full help text printed for `bridgectl NAME --help`: a command with subcommands shows
    /// theirs too (their usage lines after its own, then each one's options).
    public var help: String {
        spec.help(moreForms: subcommands.flatMap(\.spec.formLines),
                  moreOptions: subcommands.filter { !$0.spec.options.isEmpty }.map { ("\($0.name) options", $0.spec.optionLines) })
    }

    /// The one place errors become exit codes: parses `argv` against the declaration, runs the
    /// command, and prints what it threw as `bridgectl NAME: message` (a usage error from the
    /// declaration with the usage line), returning 2 or the error's own exit code.
    @MainActor
    public func run(_ argv: [String], console: Console) -> Int32 {
        let (command, argv) = resolve(argv)
        guard command.name == name else { return command.run(argv, console: console) }
        do {
            return try body(try Arguments(argv, options: spec.options), console)
        } catch let error as UsageError where error.fromDeclaration {
            let usage = spec.usageLine(positional: argv.first { !$0.hasPrefix("-") })
            console.err("bridgectl \(name): \(error); \(usage)\n")
            return ExitCode.usage
        } catch {
            console.err("bridgectl \(name): \(error)\n")
            return (error as? any ExitCodedError)?.exitCode ?? ExitCode.usage
        }
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
        verifyCommand,
        capabilitiesCommand,
        routeCommand,
        linkCommand,
        docsCommand,
        funnelCommand,
        versionCommand,
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
            console.out(command.resolve(Array(arguments.dropFirst(2))).0.help)
            return ExitCode.success
        }
        if first == "--version" {
            return versionCommand.run(Array(arguments.dropFirst()), console: console)
        }
        guard let command = commands.first(where: { $0.name == first }) else { return unknownCommand(first, console) }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.out(command.resolve(rest).0.help)
            return ExitCode.success
        }
        return command.run(rest, console: console)
    }

    static func unknownCommand(_ name: String, _ console: Console) -> Int32 {
        console.err("bridgectl: unknown command \"\(name)\" (commands: \(commands.map(\.name).joined(separator: ", ")))\n")
        return ExitCode.usage
    }

    static func overview() -> String {
        var text = "bridgectl: WebView bridge contract toolkit\n\nusage: bridgectl COMMAND [OPTIONS]\n\ncommands:\n"
        let width = commands.map(\.name.count).max() ?? 0
        for command in commands {
            text += "  " + command.name + String(repeating: " ", count: width - command.name.count + 2) + command.summary + "\n"
        }
        text += "\nbridgectl COMMAND --help shows a command's options; bridgectl --version the version.\n"
        return text
    }
}
