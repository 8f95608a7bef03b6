import Testing
@testable import ContractEvolution

/// The regex example generator proposes strings; these check that its matches match and its
/// near misses miss, with the checker's own regex engine.
@Suite struct RegexExamplesTests {
    let matcher = PatternMatcher()

    @Test func minimalAndTargetedLengthsMatch() throws {
        for pattern in ["^[a-z0-9-]{1,64}$", "^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$", "^(basic|premium)$", "^\\d{3}-\\d{4}$", "^[가-힣]+$"] {
            let regex = try #require(RegexExamples(pattern), "\(pattern) parses")
            let minimal = try #require(regex.minimal)
            #expect(matcher.matches(pattern, minimal), "\(pattern): \(minimal)")
        }
        let slug = try #require(RegexExamples("^[a-z0-9-]{1,64}$"))
        for length in [1, 2, 33, 64] {
            let text = try #require(slug.example(length: length))
            #expect(text.count == length)
            #expect(matcher.matches("^[a-z0-9-]{1,64}$", text))
        }
        #expect(slug.example(length: 65) == nil)
        #expect(slug.example(length: 0) == nil)
    }

    /// The search for a match of a given length has a budget: thirty items of even length cannot
    /// make 91 characters, and finding that out item by item would take 2^30 steps.
    @Test(.timeLimit(.minutes(1)))
    func anImpossibleLengthEndsWithinTheSearchBudget() throws {
        let pattern = "^" + String(repeating: "(aa|aaaa)", count: 30) + "$"
        let regex = try #require(RegexExamples(pattern))
        #expect(regex.example(length: 91) == nil)
        let even = try #require(regex.example(length: 90))
        #expect(even.count == 90 && matcher.matches(pattern, even))
    }

    @Test func samplesIncludeNearMissesOverTheBound() throws {
        let samples = try #require(RegexExamples("^[a-z]{2,4}$")).samples()
        #expect(samples.contains { matcher.matches("^[a-z]{2,4}$", $0) })
        #expect(samples.contains { $0.count == 5 && !matcher.matches("^[a-z]{2,4}$", $0) })
        #expect(samples.contains { $0.count == 1 })
    }

    @Test func lookaroundsAreNotSupported() {
        #expect(RegexExamples("^(?=a)b") == nil)
        #expect(RegexExamples("(a)\\1") == nil)
    }
}
