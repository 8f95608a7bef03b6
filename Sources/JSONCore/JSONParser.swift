extension JSONValue {
    /// Parses JSON text strictly (RFC 8259): one value, surrounded only by JSON whitespace;
    /// duplicate object keys, invalid UTF-8, lone surrogates, unescaped control characters,
    /// leading zeros and numbers beyond the range of Double are errors. A number without
    /// fraction or exponent that fits in 64 bits is `.integer`; every other number is `.number`.
    ///
    /// Where RFC 8259 leaves a choice, it agrees with SchemaCheck's jansson-backed `JSONDocument`:
    /// `\u0000` is kept inside strings but refused inside object keys, a byte order mark is refused,
    /// nesting stops at `ParseLimits.nestingCap`. Keys that are equal as Swift strings (canonically
    /// equivalent Unicode, e.g. "é" precomposed and decomposed) are duplicates here, because
    /// `JSONObject` cannot hold both.
    ///
    /// The parser keeps its own stack of open containers instead of recursing, so deep input
    /// is safe on any thread.
    public init(parsing text: String, limits: ParseLimits = .unlimited) throws(JSONParseError) {
        var text = text
        self = try text.withUTF8 { JSONParser.parse($0, limits: limits) }.get()
    }

    public init(parsing bytes: some Collection<UInt8>, limits: ParseLimits = .unlimited) throws(JSONParseError) {
        let result = bytes.withContiguousStorageIfAvailable { JSONParser.parse($0, limits: limits) }
            ?? Array(bytes).withUnsafeBufferPointer { JSONParser.parse($0, limits: limits) }
        self = try result.get()
    }
}

/// One parse over a buffer of UTF-8 bytes. Containers being filled are kept on explicit stacks
/// (one for arrays, one for objects), so appending to the innermost one mutates it in place.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let limits: ParseLimits
    private let maxDepth: Int
    private var index = 0

    private enum Container { case array, object }
    private var open: [Container] = []
    private var arrays: [[JSONValue]] = []
    private var objects: [(members: JSONObject, key: String)] = []
    /// Decoded bytes of the string being read, when it has escapes.
    private var scratch: [UInt8] = []

    /// A failure found at a byte offset; line and column are worked out only when one occurs.
    private struct Failure: Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var kind: JSONParseError.Kind = .parse
        var description: String { "\(message) (byte \(offset + 1))" }
    }

    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, limits: ParseLimits) -> Result<JSONValue, JSONParseError> {
        if limits.maxBytes > 0 && bytes.count > limits.maxBytes {
            return .failure(JSONParseError(
                message: "the input of \(bytes.count) bytes is larger than the limit of \(limits.maxBytes) bytes",
                line: 1, column: 1, position: 0, kind: .limitExceeded))
        }
        var parser = JSONParser(bytes: bytes, limits: limits)
        do {
            return .success(try parser.document())
        } catch {
            return .failure(Self.located(error, in: bytes))
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, limits: ParseLimits) {
        self.bytes = bytes
        self.limits = limits
        maxDepth = limits.effectiveMaxDepth
    }

    // MARK: - Structure

    private mutating func document() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw Failure(message: bytes.isEmpty ? "empty input" : "no value, only whitespace", offset: index)
        }
        if bytes.count - index >= 3 && bytes[index] == 0xEF && bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF {
            throw Failure(message: "a byte order mark (U+FEFF) is not allowed before JSON text", offset: index)
        }
        parsing: while true {
            guard var value = try valueOrOpenContainer() else { continue }
            // A value is complete: hand it to the containers it closes, innermost first.
            while let container = open.last {
                switch container {
                case .array:
                    arrays[arrays.count - 1].append(value)
                    if limits.maxArrayLength > 0 && arrays[arrays.count - 1].count > limits.maxArrayLength {
                        throw Failure(message: "an array has more than the limit of \(limits.maxArrayLength) items", offset: index, kind: .limitExceeded)
                    }
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) { continue parsing }
                    guard take(UInt8(ascii: "]")) else { throw expected("',' or ']' after an array item") }
                    open.removeLast()
                    value = .array(arrays.removeLast())
                case .object:
                    let key = objects[objects.count - 1].key
                    objects[objects.count - 1].members[key] = value
                    skipWhitespace()
                    if take(UInt8(ascii: ",")) {
                        try readKey()
                        continue parsing
                    }
                    guard take(UInt8(ascii: "}")) else { throw expected("',' or '}' after an object member") }
                    open.removeLast()
                    value = .object(objects.removeLast().members)
                }
            }
            skipWhitespace()
            if index < bytes.count {
                throw Failure(message: "unexpected \(describeByte(at: index)) after the JSON value", offset: index)
            }
            return value
        }
    }

    /// Reads a scalar value, or opens a container. Returns nil when a non-empty container was
    /// opened (its first value comes next); an empty `[]` or `{}` is returned as a value.
    private mutating func valueOrOpenContainer() throws(Failure) -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count else { throw expected("a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            try enter()
            index += 1
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .object(JSONObject()) }
            open.append(.object)
            objects.append((JSONObject(), ""))
            try readKey(first: true)
            return nil
        case UInt8(ascii: "["):
            try enter()
            index += 1
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return .array([]) }
            open.append(.array)
            arrays.append([])
            return nil
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"):
            return try literal("true", .bool(true))
        case UInt8(ascii: "f"):
            return try literal("false", .bool(false))
        case UInt8(ascii: "n"):
            return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        default:
            throw expected("a value")
        }
    }

    /// One more level of nesting, refused past the limit.
    private func enter() throws(Failure) {
        if open.count + 1 > maxDepth {
            throw Failure(message: "nesting deeper than \(maxDepth) levels", offset: index, kind: .limitExceeded)
        }
    }

    /// The key of the next member and its colon; the innermost object is being filled.
    private mutating func readKey(first: Bool = false) throws(Failure) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw expected(first ? "a string key or '}'" : "a string key")
        }
        let start = index
        let key = try string()
        if key.utf8.contains(0) {
            throw Failure(message: "an object key may not contain U+0000", offset: start)
        }
        let members = objects[objects.count - 1].members
        if members[key] != nil {
            let earlier = members.keys.first { $0 == key } ?? key
            let same = Array(earlier.utf8) == Array(key.utf8)
            throw Failure(message: same
                ? "duplicate key \(JSONValue.string(key).serialized())"
                : "key \(JSONValue.string(key).serialized()) is canonically equivalent to the earlier key \(JSONValue.string(earlier).serialized())",
                offset: start)
        }
        if limits.maxProperties > 0 && members.count + 1 > limits.maxProperties {
            throw Failure(message: "an object has more than the limit of \(limits.maxProperties) properties", offset: start, kind: .limitExceeded)
        }
        skipWhitespace()
        guard take(UInt8(ascii: ":")) else { throw expected("':' after the key") }
        objects[objects.count - 1].key = key
    }

    // MARK: - Scalars

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        let start = index
        for offset in 0..<count {
            guard start + offset < bytes.count, bytes[start + offset] == word.utf8Start[offset] else {
                throw Failure(message: "invalid literal (expected true, false or null)", offset: start)
            }
        }
        index += count
        return value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard index < bytes.count, isDigit(bytes[index]) else { throw expected("a digit") }
        if take(UInt8(ascii: "0")) {
            if index < bytes.count && isDigit(bytes[index]) {
                throw Failure(message: "a number may not have leading zeros", offset: start)
            }
        } else {
            skipDigits()
        }
        if take(UInt8(ascii: ".")) {
            guard index < bytes.count, isDigit(bytes[index]) else { throw expected("a digit after the decimal point") }
            skipDigits()
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard index < bytes.count, isDigit(bytes[index]) else { throw expected("a digit in the exponent") }
            skipDigits()
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        // Whole digits are an integer (Int64 takes no "." or exponent); one beyond 64 bits is kept
        // as a real, as the jansson-backed parser does.
        if let integer = Int64(text) { return .integer(integer) }
        guard let real = Double(text), real.isFinite else {
            throw Failure(message: "the number \(text.count > 40 ? String(text.prefix(40)) + "…" : text) is out of range", offset: start)
        }
        return .number(real)
    }

    private mutating func string() throws(Failure) -> String {
        index += 1  // the opening quote
        let start = index
        var hasEscapes = false
        scratch.removeAll(keepingCapacity: true)
        while true {
            guard index < bytes.count else {
                throw Failure(message: "unterminated string (no closing '\"')", offset: start - 1)
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let text = hasEscapes
                    ? String(decoding: scratch, as: UTF8.self)
                    : String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                let length = hasEscapes ? scratch.count : index - start
                if limits.maxStringLength > 0 && length > limits.maxStringLength {
                    throw Failure(message: "a string of \(length) bytes is longer than the limit of \(limits.maxStringLength) bytes",
                                  offset: start - 1, kind: .limitExceeded)
                }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                if !hasEscapes {
                    hasEscapes = true
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                }
                try escape()
            case 0x00..<0x20:
                throw Failure(message: "control character U+\(hex(UInt32(byte), digits: 4)) in a string must be escaped",
                              offset: index)
            case 0x20..<0x80:
                if hasEscapes { scratch.append(byte) }
                index += 1
            default:
                let length = try utf8Sequence()
                if hasEscapes { scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<index + length])) }
                index += length
            }
        }
    }

    /// Reads the escape at `index` (a backslash) into `scratch`.
    private mutating func escape() throws(Failure) {
        let start = index
        index += 1
        guard index < bytes.count else { throw Failure(message: "unterminated string (no closing '\"')", offset: start) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(letter)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let unit = try hexQuad(escapeAt: start)
            var scalarValue = UInt32(unit)
            if (0xD800...0xDBFF).contains(unit) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw Failure(message: "lone surrogate \\u\(hex(UInt32(unit), digits: 4)) (a high surrogate must be followed by a low one)",
                                  offset: start)
                }
                let lowStart = index
                index += 2
                let low = try hexQuad(escapeAt: lowStart)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw Failure(message: "lone surrogate \\u\(hex(UInt32(unit), digits: 4)) (a high surrogate must be followed by a low one)",
                                  offset: start)
                }
                scalarValue = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw Failure(message: "lone surrogate \\u\(hex(UInt32(unit), digits: 4)) (a low surrogate without a high one)",
                              offset: start)
            }
            scratch.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalarValue)!)!)
        default:
            throw Failure(message: "invalid escape \\\(describeEscaped(letter)) (valid: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                          offset: start)
        }
    }

    /// Four hex digits at `index`, for the `\u` escape starting at `escapeAt`.
    private mutating func hexQuad(escapeAt start: Int) throws(Failure) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw Failure(message: "\\u must be followed by four hex digits", offset: start)
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }

    /// The length of the well-formed UTF-8 sequence at `index` (Unicode Table 3-7: no overlong
    /// forms, no encoded surrogates, nothing past U+10FFFF).
    private func utf8Sequence() throws(Failure) -> Int {
        let lead = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; secondRange = 0xA0...0xBF
        case 0xED: length = 3; secondRange = 0x80...0x9F
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xF0: length = 4; secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; secondRange = 0x80...0x8F
        default: throw invalidUTF8()
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { throw invalidUTF8() }
        for offset in 2..<max(2, length) where !(0x80...0xBF).contains(bytes[index + offset]) {
            throw invalidUTF8()
        }
        return length
    }

    private func invalidUTF8() -> Failure {
        Failure(message: "invalid UTF-8 (byte 0x\(hex(UInt32(bytes[index]), digits: 2)))", offset: index)
    }

    // MARK: - Bytes

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func skipDigits() {
        while index < bytes.count && isDigit(bytes[index]) { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }

    private func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private func expected(_ what: String) -> Failure {
        Failure(message: "unexpected \(describeByte(at: index)), expected \(what)", offset: index)
    }

    /// "'x'" for printable ASCII, "byte 0xNN" otherwise, "end of input" past the end.
    private func describeByte(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        return (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(UInt32(byte), digits: 2))"
    }

    private func describeEscaped(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "(byte 0x\(hex(UInt32(byte), digits: 2)))"
    }

    /// The error with its 1-based line and column (Unicode scalars since the last line feed).
    private static func located(_ failure: Failure, in bytes: UnsafeBufferPointer<UInt8>) -> JSONParseError {
        var line = 1
        var column = 1
        for byte in bytes[..<min(failure.offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(message: failure.message, line: line, column: column, position: failure.offset, kind: failure.kind)
    }
}
