import DeeplinkRouting

/// Reads the part of ECMA-262 regular expressions a campaign field's `pattern` may use into a
/// `ScalarPattern`: anchored at both ends (`^...$`), a sequence of character classes (`[A-Z0-9_.-]`,
/// no negation), `\d`, `\w` and literal characters, each with an optional quantifier (`?`, `*`,
/// `+`, `{n}`, `{n,}`, `{n,m}`). Anything else (alternation, groups, `.`, `\s`, `\p{...}`,
/// lookaround, lazy quantifiers, an unanchored pattern) is refused with the reason: the link tools
/// would otherwise apply a rule that is not the schema's.
enum ScalarPatternParser {
    struct Refusal: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static func parse(_ source: String) throws(Refusal) -> ScalarPattern {
        var scalars = Array(source.unicodeScalars)
        guard scalars.first == "^" else { throw Refusal(message: "must start with ^ (the whole value is matched)") }
        guard scalars.count >= 2, scalars.last == "$", !isEscaped(scalars, at: scalars.count - 1) else {
            throw Refusal(message: "must end with $ (the whole value is matched)")
        }
        scalars = Array(scalars[1..<(scalars.count - 1)])
        var index = 0
        var pieces: [ScalarPattern.Piece] = []
        while index < scalars.count {
            let ranges = try atom(scalars, &index)
            let (min, max) = try quantifier(scalars, &index)
            pieces.append(ScalarPattern.Piece(ranges: ranges, min: min, max: max))
        }
        return ScalarPattern(pieces: pieces)
    }

    private static func isEscaped(_ scalars: [Unicode.Scalar], at index: Int) -> Bool {
        var backslashes = 0
        var cursor = index - 1
        while cursor >= 0, scalars[cursor] == "\\" {
            backslashes += 1
            cursor -= 1
        }
        return backslashes % 2 == 1
    }

    private static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
    /// ECMA-262 `\w` without the i flag: ASCII letters, digits and underscore.
    private static let word: [ClosedRange<UInt32>] = [0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x5F...0x5F]
    /// Characters that stand for themselves after a backslash.
    private static let escapable: Set<Unicode.Scalar> = ["\\", ".", "^", "$", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}", "/", "-"]

    private static func atom(_ scalars: [Unicode.Scalar], _ index: inout Int) throws(Refusal) -> [ClosedRange<UInt32>] {
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "[":
            return try characterClass(scalars, &index)
        case "\\":
            return try escape(scalars, &index, inClass: false)
        case ".":
            throw Refusal(message: "\".\" (any character) is not supported; list the characters in a class such as [A-Za-z0-9]")
        case "(", ")", "|":
            throw Refusal(message: "groups and alternation (\"\(scalar)\") are not supported")
        case "^", "$":
            throw Refusal(message: "\"\(scalar)\" may only anchor the start and the end")
        case "?", "*", "+", "{", "}", "]":
            throw Refusal(message: "\"\(scalar)\" at character \(index) has nothing to repeat or is unbalanced")
        default:
            return try [checked(scalar)...checked(scalar)]
        }
    }

    private static func escape(_ scalars: [Unicode.Scalar], _ index: inout Int, inClass: Bool) throws(Refusal) -> [ClosedRange<UInt32>] {
        guard index < scalars.count else { throw Refusal(message: "ends with a lone backslash") }
        let escaped = scalars[index]
        index += 1
        switch escaped {
        case "d": return digit
        case "w": return word
        default:
            guard escapable.contains(escaped) else {
                throw Refusal(message: "the escape \\\(escaped) is not supported (supported: \\d, \\w and escaped punctuation)")
            }
            return [escaped.value...escaped.value]
        }
    }

    private static func characterClass(_ scalars: [Unicode.Scalar], _ index: inout Int) throws(Refusal) -> [ClosedRange<UInt32>] {
        if index < scalars.count, scalars[index] == "^" {
            throw Refusal(message: "a negated class [^...] is not supported; list the allowed characters")
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard index < scalars.count else { throw Refusal(message: "a character class is not closed with ]") }
            let scalar = scalars[index]
            if scalar == "]" && !first {
                index += 1
                break
            }
            first = false
            index += 1
            var low: [ClosedRange<UInt32>]
            if scalar == "\\" {
                low = try escape(scalars, &index, inClass: true)
            } else if scalar == "[" {
                throw Refusal(message: "\"[\" inside a class must be escaped as \\[")
            } else {
                low = try [checked(scalar)...checked(scalar)]
            }
            // A range a-z: "-" between two single characters, not at the end of the class.
            if low.count == 1, low[0].lowerBound == low[0].upperBound,
               index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                index += 1
                let upperScalar = scalars[index]
                index += 1
                var upper: [ClosedRange<UInt32>]
                if upperScalar == "\\" {
                    upper = try escape(scalars, &index, inClass: true)
                } else {
                    upper = try [checked(upperScalar)...checked(upperScalar)]
                }
                guard upper.count == 1, upper[0].lowerBound == upper[0].upperBound else {
                    throw Refusal(message: "a range cannot end in a class escape")
                }
                guard low[0].lowerBound <= upper[0].lowerBound else {
                    throw Refusal(message: "the range \(LinkText.shownCharacter(low[0].lowerBound))-\(LinkText.shownCharacter(upper[0].lowerBound)) is reversed")
                }
                low = [low[0].lowerBound...upper[0].lowerBound]
            }
            ranges += low
        }
        return ranges
    }

    /// Characters above U+FFFF would count differently in a regex without the u flag.
    private static func checked(_ scalar: Unicode.Scalar) throws(Refusal) -> UInt32 {
        guard scalar.value <= 0xFFFF else {
            throw Refusal(message: "\(LinkText.codePoint(scalar.value)) is outside the Basic Multilingual Plane, which regex engines count differently")
        }
        return scalar.value
    }

    private static func quantifier(_ scalars: [Unicode.Scalar], _ index: inout Int) throws(Refusal) -> (Int, Int?) {
        guard index < scalars.count else { return (1, 1) }
        let result: (Int, Int?)
        switch scalars[index] {
        case "?": result = (0, 1); index += 1
        case "*": result = (0, nil); index += 1
        case "+": result = (1, nil); index += 1
        case "{":
            guard let close = scalars[index...].firstIndex(of: "}") else {
                throw Refusal(message: "a {n,m} quantifier is not closed with }")
            }
            let body = String(String.UnicodeScalarView(scalars[(index + 1)..<close]))
            let parts = body.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            func number(_ text: Substring) throws(Refusal) -> Int {
                guard !text.isEmpty, text.allSatisfy(\.isASCII), let value = Int(text), value <= 100_000 else {
                    throw Refusal(message: "the quantifier {\(body)} is not {n}, {n,} or {n,m}")
                }
                return value
            }
            let low = try number(parts[0])
            let high: Int? = parts.count == 1 ? low : (parts[1].isEmpty ? nil : try number(parts[1]))
            if let high, high < low { throw Refusal(message: "the quantifier {\(body)} has its bounds reversed") }
            result = (low, high)
            index = close + 1
        default:
            return (1, 1)
        }
        if index < scalars.count, ["?", "*", "+", "{"].contains(scalars[index]) {
            throw Refusal(message: "lazy or stacked quantifiers (\"\(scalars[index])\" after a quantifier) are not supported")
        }
        return result
    }
}

/// A schema `pattern` in plain words, when it is of the form campaign rules can express
/// ("1 to 64 of a-z 0-9 -" for ^[a-z0-9-]{1,64}$); nil otherwise. For the contract catalog.
public enum PatternWords {
    public static func summary(_ pattern: String) -> String? {
        guard let parsed = try? ScalarPatternParser.parse(pattern) else { return nil }
        return parsed.summary
    }
}
