@testable import BridgeContracts
import DeeplinkRouting
import Testing

/// The campaign-pattern reader at the edges of a character class: a "-" between two characters
/// is a range, one before "]" or at the very end is itself, and a class cut off is refused.
struct ScalarPatternParserTests {
    private func ranges(_ pattern: String) throws -> [ClosedRange<UInt32>] {
        try ScalarPatternParser.parse(pattern).pieces.flatMap(\.ranges)
    }

    @Test func aDashBetweenTwoCharactersIsARange() throws {
        #expect(try ranges("^[a-c]$") == [0x61...0x63])
    }

    @Test func aDashBeforeTheClosingBracketIsItself() throws {
        #expect(try ranges("^[a-]$") == [0x61...0x61, 0x2D...0x2D])
    }

    @Test(arguments: ["^[a-$", "^[a$", "^[-$", "^[$"])
    func aClassCutOffIsRefusedNotReadPastItsEnd(pattern: String) {
        let refusal = #expect(throws: ScalarPatternParser.Refusal.self) { try ScalarPatternParser.parse(pattern) }
        #expect(refusal?.message == "a character class is not closed with ]")
    }
}
