import DeeplinkRouting
import Testing

/// Where a value first breaks a campaign field's pattern: the 1-based character a person counts
/// to, at the first, a middle and the last character, and a value that stops before the pattern.
struct ScalarPatternMismatchTests {
    private let alphanumeric: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x61...0x7A]
    private var pattern: ScalarPattern {
        ScalarPattern(pieces: [
            .init(ranges: alphanumeric, min: 1, max: 1),
            .init(ranges: alphanumeric + [0x2D...0x2E, 0x5F...0x5F], min: 0, max: 3),
            .init(ranges: [0x21...0x21], min: 1, max: 1),
        ])
    }

    @Test(arguments: [("_ab!", 1, "_"), ("a b!", 2, " "), ("ab_ ", 4, " "), ("abcde!", 5, "e")])
    func theFirstCharacterNoRunTakesIsNamedCountingFromOne(value: String, position: Int, scalar: String) {
        guard case .notAllowed(let found, let character, _)? = pattern.mismatch(Array(value.unicodeScalars)) else {
            Issue.record("\(value) should not match")
            return
        }
        #expect(found == position)
        #expect(String(character) == scalar)
    }

    @Test func whatTheLiveRunsAllowIsListedAtTheFirstCharacter() {
        let mismatch = pattern.mismatch(Array("_".unicodeScalars))
        #expect(mismatch == .notAllowed(position: 1, scalar: "_", allowed: [pattern.pieces[0].allowed]))
    }

    @Test func aValueThatStopsBeforeThePatternEndsEndsTooEarly() {
        #expect(pattern.mismatch(Array("ab".unicodeScalars)) == .endsTooEarly)
        #expect(pattern.mismatch([]) == .endsTooEarly)
        #expect(pattern.mismatch(Array("ab!".unicodeScalars)) == nil)
    }
}
