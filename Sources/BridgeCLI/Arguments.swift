/// A small argv parser: `--name value`, `--name=value`, boolean `--flag`, repeatable options,
/// `--` ends options, and `-` is a positional (standard input). Unknown options are usage errors.
public struct Arguments: Sendable {
    public struct Spec: Sendable {
        /// Options that take a value.
        public var options: Set<String>
        /// Options without a value.
        public var flags: Set<String>
        public init(options: Set<String> = [], flags: Set<String> = []) {
            self.options = options
            self.flags = flags.union(["help"])
        }
    }

    public private(set) var positional: [String] = []
    private var values: [String: [String]] = [:]
    private var setFlags: Set<String> = []

    public init(_ argv: [String], spec: Spec) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < argv.count {
            let word = argv[index]
            index += 1
            if optionsEnded || !word.hasPrefix("--") || word == "-" {
                if !optionsEnded && word.hasPrefix("-") && word != "-" && word.count > 1 && !word.hasPrefix("--") {
                    if word == "-h" { setFlags.insert("help"); continue }
                    throw UsageError("unknown option \(word)")
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
                guard inlineValue == nil else { throw UsageError("--\(name) takes no value") }
                setFlags.insert(name)
            } else if spec.options.contains(name) {
                if let inlineValue {
                    values[name, default: []].append(inlineValue)
                } else {
                    guard index < argv.count else { throw UsageError("--\(name) needs a value") }
                    values[name, default: []].append(argv[index])
                    index += 1
                }
            } else {
                let known = (spec.options.union(spec.flags)).sorted().map { "--" + $0 }.joined(separator: ", ")
                throw UsageError("unknown option --\(name) (known: \(known))")
            }
        }
    }

    public func has(_ flag: String) -> Bool { setFlags.contains(flag) }

    /// NAME=VALUE split at the first "=" scalar. Not at a Character: "=" followed by a combining
    /// mark (`--variant=\u{301}a`) is one Character, and the value must keep its mark.
    public static func splitAtFirstEquals(_ text: String) -> (String, String)? {
        guard let equals = text.unicodeScalars.firstIndex(of: "=") else { return nil }
        return (String(text.unicodeScalars[..<equals]), String(text.unicodeScalars[text.unicodeScalars.index(after: equals)...]))
    }

    /// The last value given for an option.
    public func value(_ name: String) -> String? { values[name]?.last }

    /// Every value given for a repeatable option, in order.
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of an option that must be one of `choices`.
    public func choice(_ name: String, _ choices: [String], default fallback: String) throws(UsageError) -> String {
        guard let given = value(name) else { return fallback }
        guard choices.contains(given) else {
            throw UsageError("--\(name) must be one of \(choices.joined(separator: ", ")), not \"\(given)\"")
        }
        return given
    }
}

public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
