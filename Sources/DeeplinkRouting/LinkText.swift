/// The text rules every link tool shares for values as people type and paste them: surrounding
/// whitespace, decomposed Unicode, control characters, and how a value is shown in a message.
/// The web side (js/src) implements the same rules over the same lists, and the shared table of
/// hostile values (Tests/shared/hostile-link-values.json) holds both to identical answers.
public enum LinkText {
    /// What surrounds pasted text and is removed: the characters JavaScript's `String.prototype.trim`
    /// removes (tab, line feed, vertical tab, form feed, carriage return, the space separators,
    /// U+2028, U+2029 and the byte-order mark), listed here so both sides use one fixed list.
    public static let surroundingWhitespace: Set<UInt32> = [
        0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680,
        0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200A,
        0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF,
    ]

    /// `text` without surrounding whitespace, and whether anything was removed.
    public static func trimmed(_ text: String) -> (text: String, removed: Bool) {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !surroundingWhitespace.contains($0.value) }) else {
            return ("", !text.isEmpty)
        }
        let last = scalars.lastIndex(where: { !surroundingWhitespace.contains($0.value) })!
        let kept = String(scalars[first...last])
        return (kept, kept.utf8.count != text.utf8.count)
    }

    /// The composed form (Unicode Normalization Form C) of `text`. Decomposed Hangul (as some
    /// systems put it on the clipboard) and composed Hangul look the same and compare equal in
    /// Swift, but they are different bytes in a URL and two different values in analytics.
    /// Uses the standard library's own normalizer (the one String comparison uses; Swift's
    /// Unicode tables, no ICU) and does nothing to ASCII.
    public static func composed(_ text: String) -> String {
        var native = text  // withUTF8 reads a native string in place
        if native.withUTF8({ $0.allSatisfy { $0 < 0x80 } }) { return text }
        let bytes = text._nfcCodeUnits
        return bytes.elementsEqual(text.utf8) ? text : String(decoding: bytes, as: UTF8.self)
    }

    /// The first C0 or C1 control character or DEL in `text`.
    public static func firstControl(_ text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isControl)
    }

    /// A C0 or C1 control character or DEL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Characters, as JSON Schema's minLength and maxLength count them (code points).
    public static func length(_ text: String) -> Int {
        text.unicodeScalars.count
    }

    /// "U+0009".
    public static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// One character of a set in plain words: "space", "U+0009" for invisible ones, else itself.
    public static func shownCharacter(_ value: UInt32) -> String {
        if value == 0x20 { return "space" }
        guard let scalar = Unicode.Scalar(value), !isControl(scalar), !surroundingWhitespace.contains(value) else {
            return codePoint(value)
        }
        return String(Character(scalar))
    }

    /// One character of a value, for "character 5 is ...": `" " (U+0020)`, or `U+0009` alone
    /// for a control character.
    public static func described(_ scalar: Unicode.Scalar) -> String {
        isControl(scalar) ? codePoint(scalar.value) : "\"" + String(Character(scalar)) + "\" (" + codePoint(scalar.value) + ")"
    }

    /// A value as messages quote it: control characters as <U+0009>, and a long value cut to its
    /// first 32 characters and "…" (the position in the message still counts the whole value).
    public static func shown(_ text: String) -> String {
        var out = ""
        for (index, scalar) in text.unicodeScalars.enumerated() {
            if index == 32, text.unicodeScalars.count > 40 { return "\"" + out + "…\"" }
            out += isControl(scalar) ? "<" + codePoint(scalar.value) + ">" : String(scalar)
        }
        return "\"" + out + "\""
    }
}
