import Testing

@testable import BridgeCLI

/// Usage, help and usage errors all come from each command's declared options.
@MainActor @Suite struct CommandSpecTests {
    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole()
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    /// Every command, subcommands included, with the words that reach it.
    nonisolated static let everyCommand: [[String]] = BridgeCLI.commands.flatMap { command in
        [[command.name]] + command.subcommands.map { $0.name.split(separator: " ").map(String.init) }
    }

    /// The `--name` words that start an option line in a help section (two-space indent).
    func optionsListed(in help: String, section title: String) -> [String] {
        guard let start = help.range(of: "\n\(title):\n") else { return [] }
        var names: [String] = []
        for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            if line.hasPrefix("  --") { names.append(String(line.dropFirst(4).prefix { $0 != " " })) }
        }
        return names
    }

    @Test(arguments: everyCommand)
    func helpListsExactlyTheDeclaredOptionsInOrder(words: [String]) throws {
        let command = try #require(BridgeCLI.commands.first { $0.name == words[0] }?.resolve(Array(words.dropFirst())).0)
        let help = run(words + ["--help"])
        #expect(help.code == 0)
        #expect(help.out == command.help)
        #expect(optionsListed(in: help.out, section: "options") == command.spec.options.map(\.name), "\(words)")
        for sub in command.subcommands {
            #expect(optionsListed(in: help.out, section: "\(sub.name) options") == sub.spec.options.map(\.name), "\(sub.name)")
        }
        for option in command.spec.options {
            if let value = option.defaultValue { #expect(help.out.contains("(default: \(value))"), "\(words) --\(option.name)") }
            #expect(help.out.contains(option.synopsis), "\(words) --\(option.name)")
        }
    }

    @Test(arguments: everyCommand)
    func anUnknownOptionIsExitTwoWithTheCommandsUsageLine(words: [String]) throws {
        let command = try #require(BridgeCLI.commands.first { $0.name == words[0] }?.resolve(Array(words.dropFirst())).0)
        let result = run(words + ["--no-such-option"])
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        let usage = command.spec.usageLine(positional: nil)
        #expect(result.err == "bridgectl \(command.name): unknown option --no-such-option (known: "
            + (command.spec.options.map(\.name) + ["help"]).sorted().map { "--" + $0 }.joined(separator: ", ")
            + "); \(usage)\n")
    }

    @Test func aMissingValueIsExitTwoWithTheUsageLine() {
        let result = run(["can-i-deploy", "usage.json", "--format"])
        #expect(result.code == 2)
        #expect(result.err == "bridgectl can-i-deploy: --format needs a value; usage: bridgectl can-i-deploy USAGE.json|- [options]\n")
        let flag = run(["can-i-deploy", "usage.json", "--strict=yes"])
        #expect(flag.code == 2)
        #expect(flag.err == "bridgectl can-i-deploy: --strict takes no value; usage: bridgectl can-i-deploy USAGE.json|- [options]\n")
    }

    @Test func aValueOutsideTheDeclaredChoicesIsExitTwoWithTheUsageLine() {
        let result = run(["lint", "--format", "xml"])
        #expect(result.code == 2)
        #expect(result.err == "bridgectl lint: --format must be one of text, json, not \"xml\"; usage: bridgectl lint [options]\n")
        // The subcommand's own form is named, not the first of the command's.
        let sub = run(["link", "routes", "--scheme", "ftp"])
        #expect(sub.code == 2 && sub.err.hasSuffix("; usage: bridgectl link routes [options]\n"), "\(sub.err)")
        // Every declared choice is accepted.
        for format in ["text", "json"] { #expect(run(["lint", "--format", format]).code == 0) }
    }

    @Test func aDeclaredDefaultIsTheValueWhenTheOptionIsNotGiven() throws {
        let options: [OptionSpec] = [
            .choice("format", ["text", "json"], help: "", default: "text"),
            .value("step-timeout", "MS", help: "", default: "10000"),
            .value("out", "DIR", help: ""),
        ]
        let none = try Arguments([], options: options)
        #expect(none.value("format") == "text" && !none.isGiven("format"))
        #expect(none.value("step-timeout") == "10000")
        #expect(none.value("out") == nil)
        let given = try Arguments(["--format=json", "--step-timeout", "5"], options: options)
        #expect(given.value("format") == "json" && given.isGiven("format"))
        #expect(given.value("step-timeout") == "5")
        // Through a command: the default text format, the same as asking for it.
        #expect(run(["lint"]).out == run(["lint", "--format", "text"]).out)
    }

    @Test func aRepeatableOptionKeepsEveryValueInOrderAndAValueOptionTheLast() throws {
        let options: [OptionSpec] = [.repeatable("ref", "FILE", help: ""), .value("out", "DIR", help: "")]
        let parsed = try Arguments(["--ref", "a", "--out", "x", "--ref=b", "--out", "y", "--", "--ref"], options: options)
        #expect(parsed.all("ref") == ["a", "b"])
        #expect(parsed.value("out") == "y")
        #expect(parsed.positional == ["--ref"])
    }

    @Test func usageWrapsLongFormsUnderTheirFirstArgumentAndMarksRequiredOptions() {
        let spec = CommandSpec(
            name: "demo", summary: "", forms: [UsageForm("FILE", options: ["out", "strict"], required: ["out"])],
            about: "", options: [.value("out", "DIR", help: "where"), .flag("strict", help: "refuse")])
        #expect(spec.usage == "usage: bridgectl demo FILE --out DIR [--strict]")
        let long = CommandSpec(
            name: "demo", summary: "", forms: [UsageForm("", options: (1...12).map { "option-\($0)" })],
            about: "", options: (1...12).map { .value("option-\($0)", "VALUE", help: "h") })
        let lines = long.usage.split(separator: "\n")
        #expect(lines.count > 1)
        #expect(lines.allSatisfy { $0.count <= CommandSpec.width })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(String(repeating: " ", count: "usage: bridgectl demo ".count) + "[") })
    }

    struct Unreadable: Error, CustomStringConvertible {
        var description: String { "in\u{1B}[2Jput.json: cannot be read" }
    }

    @Test func theRunnerPrintsWhatACommandThrowsAndMapsItToItsExitCode() {
        let spec = CommandSpec(name: "demo", summary: "", forms: [UsageForm("WHAT")], about: "",
                               options: [.flag("loud", help: "")])
        let cases: [(thrown: any Error, code: Int32, message: String)] = [
            (UsageError("give WHAT"), 2, "bridgectl demo: give WHAT\n"),
            (CommandFailure("refused", exitCode: 1), 1, "bridgectl demo: refused\n"),
            // Anything else is input that cannot be used: 2, its text escaped for the terminal.
            (Unreadable(), 2, "bridgectl demo: in\\u{1B}[2Jput.json: cannot be read\n"),
        ]
        for (thrown, code, message) in cases {
            let command = Command(spec) { _, _ in throw thrown }
            let console = CapturingConsole()
            #expect(command.run(["x"], console: console) == code)
            #expect(console.stderr == message && console.stdout.isEmpty)
        }
        let finished = Command(spec) { arguments, console in
            console.out(arguments.has("loud") ? "LOUD\n" : "quiet\n")
            return ExitCode.invalid
        }
        let console = CapturingConsole()
        #expect(finished.run(["--loud"], console: console) == 1)
        #expect(console.stdout == "LOUD\n" && console.stderr.isEmpty)
    }
}
