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

    /// Each escape is read as the scalar or set it names, in and out of a class, and the first
    /// example is that scalar (or the set's first printable one), which the checker matches.
    @Test(arguments: [
        (#"^\x41$"#, "A"), (#"^\u0042$"#, "B"), (#"^\u{1F600}$"#, "😀"), (#"^\u{AC00}\u{AC01}$"#, "가각"),
        (#"^[\x41-\x43]$"#, "A"), (#"^[\u0061-\u0063]$"#, "a"), (#"^[\u{AC00}-\u{D7A3}]$"#, "가"), (#"^[x\u0041]$"#, "x"),
        (#"^[\d]$"#, "0"), (#"^[\D]$"#, "a"), (#"^\p{Lu}$"#, "A"), (#"^\p{Script=Hangul}$"#, "가"), (#"^\p{Script=Han}$"#, "一"),
        (#"^\P{L}$"#, "0"), (#"^(?<year>\d{2})-(?:x)$"#, "00-x"), (#"^\t\n$"#, "\t\n"), (#"^[\b]$"#, "\u{8}"), (#"^[\x01-\b]$"#, "\u{1}"),
    ])
    func escapesNameTheirScalarsInAndOutOfAClass(_ pattern: String, _ minimal: String) throws {
        let regex = try #require(RegexExamples(pattern), "\(pattern) parses")
        #expect(regex.minimal == minimal, "\(pattern)")
        #expect(matcher.matches(pattern, minimal), "\(pattern) matches \(minimal)")
    }

    @Test func aTruncatedOrUnclosedEscapeIsNotAPattern() {
        for pattern in [#"^\x4"#, #"^\u004"#, #"^\u{41"#, #"^\p{Lu"#, #"^\pL$"#, #"^[\x41-\d]$"#, #"^[b-a]$"#, #"^(?<name"#] {
            #expect(RegexExamples(pattern) == nil, "\(pattern)")
        }
    }

    /// Without its word boundaries and back-references a pattern still gives candidates; the
    /// escapes it keeps are read as written.
    @Test func anApproximationDropsBoundariesAndKeepsOtherEscapes() throws {
        let regex = try #require(RegexExamples.approximating(#"^\bab\d\.\B$"#))
        #expect(regex.minimal == "ab0.")
        let lookahead = try #require(RegexExamples.approximating(#"^(?=\d)\d(?<!x)\x41$"#))
        #expect(lookahead.minimal == "0A")
    }

    @Test func lookaroundsAreNotSupported() {
        #expect(RegexExamples("^(?=a)b") == nil)
        #expect(RegexExamples("(a)\\1") == nil)
    }
}
