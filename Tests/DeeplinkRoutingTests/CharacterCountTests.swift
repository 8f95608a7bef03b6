import Testing

@testable import DeeplinkRouting

/// A campaign rule's length counts code points, as JSON Schema does and as the docs and the catalog
/// say: 👍🏽 is two characters, so at a 64-character limit it fits after 62 letters, not after 63.
@Suite struct CharacterCountTests {
    static let variant = CampaignFieldRule(name: "variant", minLength: 1, maxLength: 64, pattern: nil)

    @Test func anEmojiWithASkinToneIsTwoCharacters() {
        #expect(LinkText.length("👍🏽") == 2)
        #expect(LinkText.length("🚚") == 1)
        #expect(LinkText.length("🇰🇷") == 2)
        #expect(LinkText.length("👨‍👩‍👧") == 5)
        #expect(LinkText.length("카") == 1)
    }

    /// 61, 62 and 63 letters before the two-code-point emoji: 63, 64 and 65 characters.
    @Test(arguments: [(61, true), (62, true), (63, false)])
    func theLimitCountsCodePoints(letters: Int, fits: Bool) {
        let value = String(repeating: "가", count: letters) + "👍🏽"
        let violation = Self.variant.violation(value)
        #expect((violation == nil) == fits, "\(letters + 2) characters: \(violation?.problem ?? "fits")")
        if let violation { #expect(violation.problem == "it is 65 characters long, at most 64 allowed") }
    }
}
