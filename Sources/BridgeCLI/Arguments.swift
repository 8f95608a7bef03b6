/// A small argv parser over a command's declared options (`OptionSpec`): `--name value`,
/// `--name=value`, boolean `--flag`, repeatable options, `--` ends options, and `-` is a
/// positional (standard input). An unknown option, a missing value and a value outside the
/// declared choices are usage errors; an option not given has its declared default.
public struct Arguments: Sendable {
    public private(set) var positional: [String] = []
    private var values: [String: [String]] = [:]
    private var setFlags: Set<String> = []
    private var defaults: [String: String] = [:]

    public init(_ argv: [String], options declared: [OptionSpec]) throws(UsageError) {
        let spec = (options: Set(declared.filter { $0.kind != .flag }.map(\.name)),
                    flags: Set(declared.filter { $0.kind == .flag }.map(\.name)).union(["help"]))
        var index = 0
        var optionsEnded = false
        while index < argv.count {
            let word = argv[index]
            index += 1
            if optionsEnded || !word.hasPrefix("--") || word == "-" {
                if !optionsEnded && word.hasPrefix("-") && word != "-" && word.count > 1 && !word.hasPrefix("--") {
                    if word == "-h" { setFlags.insert("help"); continue }
                    throw UsageError("unknown option \(word)", fromDeclaration: true)
                }
                positional.append(word)
                continue
            }
            if word == "--" { optionsEnded = true; continue }
            var name = String(word.dropFirst(2))
            var inlineValue: String?
            if let (before, after) = Self.splitAtFirstEquals(name) {
                inlineValue = after
                name = before
            }
            if spec.flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value", fromDeclaration: true) }
                setFlags.insert(name)
            } else if spec.options.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < argv.count else { throw UsageError("--\(name) needs a value", fromDeclaration: true) }
                    values[name, default: []].append(argv[index])
                    index += 1
                }
            } else {
                let known = (spec.options.union(spec.flags)).sorted().map { "--" + $0 }.joined(separator: ", ")
                throw UsageError("unknown option --\(name) (known: \(known))", fromDeclaration: true)
            }
        }
        for option in declared {
            if let given = values[option.name]?.last, !option.choices.isEmpty, !option.choices.contains(given) {
                throw UsageError("--\(option.name) must be one of \(option.choices.joined(separator: ", ")), not \"\(given)\"",
                                 fromDeclaration: true)
            }
            defaults[option.name] = option.defaultValue
        }
    }

    /// Whether the option was given (`value` also answers with a declared default).
    public func isGiven(_ name: String) -> Bool { values[name] != nil }

    public func has(_ flag: String) -> Bool { setFlags.contains(flag) }

    /// NAME=VALUE split at the first "=" scalar. Not at a Character: "=" followed by a combining
    /// mark (`--variant=\u{301}a`) is one Character, and the value must keep its mark.
    public static func splitAtFirstEquals(_ text: String) -> (String, String)? {
        guard let equals = text.unicodeScalars.firstIndex(of: "=") else { return nil }
        return (String(text.unicodeScalars[..<equals]), String(text.unicodeScalars[text.unicodeScalars.index(after: equals)...]))
    }

    /// The last value given for an option, else its declared default.
    public func value(_ name: String) -> String? { values[name]?.last ?? defaults[name] }

    /// Every value given for a repeatable option, in order.
    public func all(_ name: String) -> [String] { values[name] ?? [] }
}

/// A command called wrongly: exit 2. One made from the declaration (an unknown option, a
/// missing value, a bad choice) is printed with the command's usage line.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public let fromDeclaration: Bool
    public init(_ message: String, fromDeclaration: Bool = false) {
        self.message = message
        self.fromDeclaration = fromDeclaration
    }
    public var description: String { message }
}
