/// One option of a command, declared once. Parsing (`Arguments`), the usage lines, the `--help`
/// text and the usage errors are all made from it, so they cannot drift apart.
public struct OptionSpec: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// `--name`, no value.
        case flag
        /// `--name VALUE`; given twice, the last one counts.
        case value
        /// `--name VALUE`, any number of times, every value kept in order.
        case repeatable
    }

    public let name: String
    public let kind: Kind
    /// The value's placeholder in usage and help (`DIR`); for a choice, the choices.
    public let placeholder: String
    /// Help text; a "\n" starts another line of it, indented under the first.
    public let help: String
    /// The value when the option is not given (shown as "(default: X)").
    public let defaultValue: String?
    /// When not empty, the value must be one of these (a usage error otherwise).
    public let choices: [String]

    public static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .flag, placeholder: "", help: help, defaultValue: nil, choices: [])
    }

    public static func value(_ name: String, _ placeholder: String, help: String, default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(name: name, kind: .value, placeholder: placeholder, help: help, defaultValue: defaultValue, choices: [])
    }

    public static func repeatable(_ name: String, _ placeholder: String, help: String) -> OptionSpec {
        OptionSpec(name: name, kind: .repeatable, placeholder: placeholder, help: help, defaultValue: nil, choices: [])
    }

    public static func choice(_ name: String, _ choices: [String], help: String, default defaultValue: String? = nil) -> OptionSpec {
        OptionSpec(name: name, kind: .value, placeholder: choices.joined(separator: "|"), help: help,
                   defaultValue: defaultValue, choices: choices)
    }

    /// `--format text|json`, `--strict`: how the option is written in usage and help.
    public var synopsis: String { placeholder.isEmpty ? "--" + name : "--\(name) \(placeholder)" }
}

/// One way of calling a command: its words and positionals (`js`, `FILE... | -`) and the
/// declared options shown after them (nil: all of them, as `[options]`).
public struct UsageForm: Sendable, Equatable {
    public let arguments: String
    public let options: [String]?
    /// Options of `options` this form needs: shown without brackets.
    public let required: Set<String>

    public init(_ arguments: String, options: [String]? = nil, required: Set<String> = []) {
        self.arguments = arguments
        self.options = options
        self.required = required
    }
}

/// Everything a command declares about how it is called; its help and usage are made from it.
public struct CommandSpec: Sendable {
    public let name: String
    public let summary: String
    public let forms: [UsageForm]
    /// What the command does: the paragraphs between the usage lines and the options.
    public let about: String
    public let options: [OptionSpec]
    /// What follows the options (exit codes, files read).
    public let footer: String

    public init(name: String, summary: String, forms: [UsageForm], about: String, options: [OptionSpec], footer: String = "") {
        self.name = name
        self.summary = summary
        self.forms = forms
        self.about = about
        self.options = options
        self.footer = footer
        for form in forms {
            for option in (form.options ?? []) + form.required {
                precondition(options.contains { $0.name == option }, "\(name): usage names undeclared option --\(option)")
            }
        }
    }

    static let width = 100

    /// `bridgectl NAME ...`, one entry per form, each wrapped under its first argument.
    var formLines: [String] {
        forms.map { form in
            let lead = "bridgectl \(name) "
            var words = form.arguments.isEmpty ? [] : [form.arguments]
            if let shown = form.options {
                words += shown.compactMap { optionName in
                    options.first { $0.name == optionName }.map { option in
                        let text = option.synopsis + (option.kind == .repeatable ? " ..." : "")
                        return form.required.contains(optionName) ? text : "[\(text)]"
                    }
                }
            } else if !options.isEmpty {
                words.append("[options]")
            }
            var lines: [String] = []
            var line = lead
            for word in words {
                // 7 columns of "usage: " go before every line.
                if line.count > lead.count && 7 + line.count + word.count > Self.width {
                    lines.append(String(line.dropLast()))
                    line = String(repeating: " ", count: lead.count)
                }
                line += word + " "
            }
            lines.append(String(line.dropLast()))
            return lines.joined(separator: "\n       ")
        }
    }

    /// The usage lines: `usage: ` before the first form, aligned under it for the others.
    static func usage(_ formLines: [String]) -> String {
        formLines.enumerated().map { ($0.offset == 0 ? "usage: " : "       ") + $0.element }.joined(separator: "\n")
    }

    public var usage: String { Self.usage(formLines) }

    /// The one-line reminder a usage error ends with: the form the first positional picks
    /// (a subcommand such as `generate js`), else the first, with its options as `[options]`.
    func usageLine(positional first: String?) -> String {
        guard !forms.isEmpty else { return "usage: bridgectl \(name) SUBCOMMAND (see bridgectl \(name) --help)" }
        let form = forms.first { form in
            guard let first, let word = form.arguments.split(separator: " ").first else { return false }
            return word.split(separator: "|").contains(Substring(first))
        } ?? forms[0]
        var line = "usage: bridgectl \(name)"
        if !form.arguments.isEmpty { line += " " + form.arguments }
        if !options.isEmpty { line += " [options]" }
        return line
    }

    /// The full `--help` text, ending in exactly one newline.
    public var help: String { help() }

    /// The help text with more usage lines and option sections after this command's own (its
    /// subcommands').
    func help(moreForms: [String] = [], moreOptions: [(title: String, lines: String)] = []) -> String {
        var sections = [Self.usage(formLines + moreForms), about]
        if !options.isEmpty { sections.append("options:\n" + optionLines) }
        for more in moreOptions { sections.append("\(more.title):\n" + more.lines) }
        if !footer.isEmpty { sections.append(footer) }
        return sections.map { section in
            var section = section
            while section.hasSuffix("\n") { section.removeLast() }
            return section
        }.filter { !$0.isEmpty }.joined(separator: "\n\n") + "\n"
    }

    /// Each option as `  --name VALUE   help`, the help in one column; an option too long for
    /// the column puts its help on the next line.
    var optionLines: String {
        let column = min(options.map(\.synopsis.count).max() ?? 0, 22) + 4
        var text = ""
        for option in options {
            var help = option.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if let value = option.defaultValue { help[help.count - 1] += " (default: \(value))" }
            let left = "  " + option.synopsis
            if left.count + 2 > column {
                text += left + "\n"
            } else {
                text += left + String(repeating: " ", count: column - left.count) + help.removeFirst() + "\n"
            }
            for line in help { text += String(repeating: " ", count: column) + line + "\n" }
        }
        return text
    }
}
