@testable import BridgeHost
import Testing

/// The raw-text reader behind the id of an unreadable message, on its own: where a string ends,
/// and its value only when it is well-formed, every bad escape giving none rather than a guess.
struct RawJSONStringTests {
    private func decode(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        return RawJSONString.decode(bytes[...])
    }

    @Test(arguments: [
        (#"plain"#, "plain"),
        (#"a\"b\\c\/d"#, "a\"b\\c/d"),
        (#"\b\f\n\r\t"#, "\u{8}\u{C}\n\r\t"),
        (#"caf\u00e9 \ud83d\ude00"#, "café 😀"),
        (#""#, ""),
    ])
    func wellFormedStringsAreDecoded(raw: String, value: String) {
        #expect(decode(raw) == value)
    }

    @Test(arguments: [
        #"ends with a backslash\"#,
        #"\"#,
        #"short \u12"#,
        #"\u12g4"#,
        #"\x41"#,
        #"lone \ud83d"#,
        #"lone low \ude00"#,
        #"high then no low \ud83d\u0041"#,
        "tab\tinside",
    ])
    func aBadOrCutEscapeOrAControlCharacterGivesNoValue(raw: String) {
        #expect(decode(raw) == nil)
    }

    @Test func aStringEndsAtTheFirstUnescapedQuote() {
        let bytes = Array(#"x"a\"b\\"y"#.utf8)
        #expect(RawJSONString.span(in: bytes, from: 1, end: bytes.count) == 2..<8)
        let cut = Array(#""a\""#.utf8)
        #expect(RawJSONString.span(in: cut, from: 0, end: cut.count) == nil)
    }

    /// A slice that does not start at index 0 (the reader passes slices of the whole message).
    @Test func aSliceInsideTheMessageIsReadFromItsOwnStart() {
        let bytes = Array(#"{"id":"a\u0041\\"}"#.utf8)
        let range = RawJSONString.span(in: bytes, from: 6, end: bytes.count)
        #expect(range == 7..<16)
        #expect(range.map { RawJSONString.decode(bytes[$0]) } == "aA\\")
    }
}
