import Testing
@testable import FunnelMetrics

/// The symbols the funnel compares instead of strings: equal exactly when the strings are, and
/// a table that stays small however many texts a log has.
@Suite("funnel symbols")
struct FunnelSymbolTests {
    @Test("texts equal as Swift compares strings share a symbol, shown in their first spelling; others do not")
    func canonicalEquivalence() {
        var symbols = SymbolTable()
        let composed = symbols.symbol("caf\u{E9}")
        #expect(symbols.symbol("cafe\u{301}") == composed)
        #expect(symbols.symbol("caf\u{E9}") == composed)
        #expect(symbols.text(composed).unicodeScalars.elementsEqual("caf\u{E9}".unicodeScalars))
        #expect(symbols.symbol("\u{212A}") == symbols.symbol("K"))
        #expect(symbols.symbol("cafe") != composed)
        #expect(symbols.symbol("Cafe") != symbols.symbol("cafe"))
        #expect(symbols.count == 4)
    }

    @Test("thousands of texts, long and short, each keep their own symbol as the table grows")
    func manyTexts() {
        var symbols = SymbolTable()
        let texts = (0..<5000).map { "t\($0)" + String(repeating: "x", count: $0 % 23) }
        let first = texts.map { symbols.symbol($0) }
        #expect(Set(first).count == texts.count)
        #expect(texts.map { symbols.symbol($0) } == first)
        #expect(first.map(symbols.text) == texts)
    }

    /// Two 16-byte ASCII texts with the same hash, found by working the hash backwards: the first
    /// block of each is chosen, and the second block of the other text is the one that cancels
    /// the difference the first blocks left. The hash is a few rounds of xor and multiply, so
    /// whether the table compares bytes is tried here, not left to a collision in real logs.
    static func collidingTexts() -> (String, String)? {
        func rotated(_ value: UInt64) -> UInt64 { value << 5 | value >> 59 }
        func block(_ text: String) -> UInt64 { Array(text.utf8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) } }
        func firstRound(_ first: UInt64) -> UInt64 { (rotated(16 &* 0x9E37_79B9_7F4A_7C15) ^ first) &* 0x517C_C1B7_2722_0A95 }
        let first = "aaaaaaaa", second = "bbbbbbbb"
        for n in 0..<1_000_000 {
            let other = "c" + String(String(n).reversed()).padding(toLength: 7, withPad: "x", startingAt: 0)
            let cancelling = rotated(firstRound(block(first))) ^ rotated(firstRound(block(other))) ^ block(second)
            let bytes = withUnsafeBytes(of: cancelling.littleEndian) { Array($0) }
            if bytes.allSatisfy({ (0x21...0x7E).contains($0) }) {
                return (first + second, other + String(decoding: bytes, as: UTF8.self))
            }
        }
        return nil
    }

    @Test("two different texts of the same length and hash keep their own symbols")
    func hashCollision() throws {
        let (one, other) = try #require(Self.collidingTexts())
        let hashes = [one, other].map { text in var text = text; return text.withUTF8 { SymbolTable.hash($0) } }
        #expect(one != other && one.utf8.count == other.utf8.count)
        #expect(hashes[0] == hashes[1], "the texts must collide, or this test tries nothing")
        var symbols = SymbolTable()
        let first = symbols.symbol(one), second = symbols.symbol(other)
        #expect(first != second)
        #expect(symbols.text(second) == other)
        #expect(symbols.symbol(one) == first && symbols.symbol(other) == second)
    }

    static let resolver = FunnelReportTests.resolver
    static let vocabulary = FunnelReportTests.example

    /// Visits of ever new campaign ids, links, screens and variants, their events interleaved so
    /// visits stay open while many new texts pass.
    static let manyTextsLog: [String] = {
        var timed: [(time: Int, line: String)] = []
        func add(_ event: String, _ visit: Int, _ time: Int, _ properties: String) {
            let line = #"{"event":"\#(event)","properties":{"distinct_id":"p\#(visit % 41)","time":\#(time)\#(properties)}}"#
            timed.append((time, line))
        }
        for visit in 0..<600 {
            let start = 1_764_000_000 + visit * 10, campaign = "c\(visit)"
            let ctaCampaign = visit % 4 == 0 ? campaign : "other\(visit)"
            let screen = visit % 3 == 0 ? "order_detail" : "screen\(visit)"
            add("push_clicked", visit, start,
                #","path":"/order/\#(visit)","campaign_id":"\#(campaign)","variant":"v\#(visit % 7)","cold_start":\#(visit % 3 == 0)"#)
            if visit % 2 == 0 { add("sign_in_success", visit, start + 95, "") }
            add("event_webview_cta_clicked", visit, start + 101, #","route":"applyForm","campaign_id":"\#(ctaCampaign)""#)
            add("screen_view", visit, start + 203, #","screen":"\#(screen)","campaign_id":"\#(campaign)""#)
        }
        return timed.sorted { $0.time < $1.time }.map(\.line)
    }()

    @Test("with a small symbol limit the table is made anew and stays small, and the report is the same")
    func tableMadeAnew() throws {
        let log = try FunnelLog.events(Array(Self.manyTextsLog.joined(separator: "\n").utf8))
        let expected = FunnelReport(events: log.events, summary: log.summary, resolver: Self.resolver, vocabulary: Self.vocabulary)
        var tracker = VisitTracker(vocabulary: Self.vocabulary, resolver: Self.resolver, dimensions: [.campaign, .variant, .day],
                                   maxOpenVisits: FunnelLogStream.maxOpenVisits, symbolLimit: 16)
        var largest = 0
        for event in log.events {
            tracker.add(event)
            largest = max(largest, tracker.symbols.count)
        }
        // Some 2,000 texts passed; at most about twice what the open visits use is held.
        #expect(largest < 300)
        tracker.finish()
        let small = FunnelReport(tracker: tracker, summary: log.summary, skipped: SkippedLines())
        let wide = FunnelReport(events: log.events, summary: log.summary, resolver: Self.resolver, vocabulary: Self.vocabulary,
                                dimensions: [.campaign, .variant, .day])
        #expect(small == wide)
        #expect(expected.all.sessions == 600)
        #expect(expected.all.coldStartConsumption.denominator > 0 && expected.all.targetReach.numerator > 0)
    }

    @Test("a stream with a small symbol limit gives the report of one with the usual limit")
    func streamMadeAnew() throws {
        let text = Self.manyTextsLog.joined(separator: "\n")
        var small = FunnelLogStream(resolver: Self.resolver, vocabulary: Self.vocabulary, symbolLimit: 16)
        try small.feed(Array(text.utf8))
        var usual = FunnelLogStream(resolver: Self.resolver, vocabulary: Self.vocabulary)
        try usual.feed(Array(text.utf8))
        #expect(try small.finish() == usual.finish())
    }
}
