/// An app build's version as semver 2.0 writes it: MAJOR.MINOR.PATCH with an optional
/// pre-release (`5.13.0-beta.2`). Build metadata (`+42`) is refused: it has no order, so two
/// builds differing only there could not be told apart in releases.json.
public struct SemanticVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let major: Int
    public let minor: Int
    public let patch: Int
    /// Dot-separated identifiers after "-", empty for a release version.
    public let preRelease: [String]

    public init(major: Int, minor: Int, patch: Int, preRelease: [String] = []) {
        self.major = major
        self.minor = minor
        self.patch = patch
        self.preRelease = preRelease
    }

    /// Parses `text`; the error says what is wrong with it in a few words.
    public init(parsing text: String) throws(SemanticVersionError) {
        guard !text.contains("+") else {
            throw SemanticVersionError(text: text, reason: "build metadata (+...) has no order; use MAJOR.MINOR.PATCH[-PRERELEASE]")
        }
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let core = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3 else { throw SemanticVersionError(text: text, reason: "expected MAJOR.MINOR.PATCH, e.g. 5.13.0") }
        var numbers: [Int] = []
        for part in core {
            guard let number = Self.numericIdentifier(part) else {
                throw SemanticVersionError(text: text, reason: "\"\(part)\" is not a number without leading zeros")
            }
            numbers.append(number)
        }
        var preRelease: [String] = []
        if parts.count == 2 {
            for identifier in parts[1].split(separator: ".", omittingEmptySubsequences: false) {
                let isAlphanumeric = !identifier.isEmpty && identifier.unicodeScalars.allSatisfy {
                    ("0"..."9").contains($0) || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "-"
                }
                let isNumeric = identifier.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
                guard isAlphanumeric, !isNumeric || Self.numericIdentifier(identifier) != nil else {
                    throw SemanticVersionError(text: text, reason: "pre-release identifier \"\(identifier)\" is empty, has a character other than A-Z a-z 0-9 -, or a leading zero")
                }
                preRelease.append(String(identifier))
            }
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2], preRelease: preRelease)
    }

    private static func numericIdentifier(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
              text == "0" || !text.hasPrefix("0") else { return nil }
        return Int(text)
    }

    public var description: String {
        "\(major).\(minor).\(patch)" + (preRelease.isEmpty ? "" : "-" + preRelease.joined(separator: "."))
    }

    /// Semver precedence: numbers first; a pre-release sorts before its release; identifiers
    /// compare numerically when both are numbers, else as ASCII, and a numeric one sorts first.
    public static func < (left: SemanticVersion, right: SemanticVersion) -> Bool {
        if (left.major, left.minor, left.patch) != (right.major, right.minor, right.patch) {
            return (left.major, left.minor, left.patch) < (right.major, right.minor, right.patch)
        }
        if left.preRelease.isEmpty || right.preRelease.isEmpty { return !left.preRelease.isEmpty && right.preRelease.isEmpty }
        for (a, b) in zip(left.preRelease, right.preRelease) where a != b {
            switch (Int(a), Int(b)) {
            case let (x?, y?): return x < y
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
            }
        }
        return left.preRelease.count < right.preRelease.count
    }
}

public struct SemanticVersionError: Error, Sendable, Equatable, CustomStringConvertible {
    public let text: String
    public let reason: String

    public var description: String { "malformed version \"\(text)\": \(reason)" }
}
