/// Limits applied while parsing untrusted JSON. Zero means no limit. Both parsers of the package
/// honour them the same way: JSONCore's `JSONValue(parsing:)` and SchemaCheck's jansson-backed
/// `JSONDocument`.
public struct ParseLimits: Sendable, Hashable {
    public var maxBytes: Int
    /// Nesting of arrays and objects: `[[1]]` has depth 2. Never more than `nestingCap`.
    public var maxDepth: Int
    /// UTF-8 bytes per string (after escapes are decoded), property names included.
    public var maxStringLength: Int
    public var maxProperties: Int
    public var maxArrayLength: Int

    public init(maxBytes: Int = 0, maxDepth: Int = 0, maxStringLength: Int = 0, maxProperties: Int = 0,
                maxArrayLength: Int = 0) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.maxStringLength = maxStringLength
        self.maxProperties = maxProperties
        self.maxArrayLength = maxArrayLength
    }

    /// The nesting every parse stops at, whatever the limits say: jansson's own cap, so the two
    /// parsers agree on where "too deep" starts.
    public static let nestingCap = 2048

    /// No limits beyond the nesting cap (2048).
    public static let unlimited = ParseLimits()

    /// What a WebView bridge message may be: 64 KiB, nesting 64, strings of 16 KiB,
    /// 256 members per object, 1024 items per array.
    public static let bridgeMessage = ParseLimits(
        maxBytes: 64 * 1024, maxDepth: 64, maxStringLength: 16 * 1024, maxProperties: 256, maxArrayLength: 1024)

    /// The nesting this parse stops at: `maxDepth` when set and below the cap, else the cap.
    public var effectiveMaxDepth: Int {
        maxDepth > 0 && maxDepth < Self.nestingCap ? maxDepth : Self.nestingCap
    }
}

/// Why a JSON text was refused: not JSON, invalid UTF-8, a duplicate key, trailing data,
/// or a limit. Line and column are 1-based (the column counts Unicode scalars, as an editor
/// does); position is a byte offset.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int
    public var position: Int
    /// Whether the text is not JSON or broke a limit (or, from the C parser, memory ran out).
    public var kind: Kind

    /// What kind of refusal this is, for programs (the message is for people).
    public enum Kind: Sendable, Hashable {
        /// Not JSON: syntax, invalid UTF-8, a duplicate key, trailing data.
        case parse
        /// A limit was exceeded: input size, nesting, string length, members, items.
        case limitExceeded
        /// An allocation failed; nothing is wrong with the input.
        case outOfMemory
    }

    public init(message: String, line: Int = 0, column: Int = 0, position: Int = 0, kind: Kind = .parse) {
        self.message = message
        self.line = line
        self.column = column
        self.position = position
        self.kind = kind
    }

    public var description: String {
        line > 0 ? "line \(line) column \(column): \(message)" : message
    }
}
