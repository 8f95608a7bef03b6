import Testing
import JSONCore
@testable import FunnelMetrics

/// The scanner that reads export lines without JSONCore's tree: the same events, as the visit
/// tracker reads them, as the full parse, or the same refusal, for plain, unusual and hostile lines alike.
@Suite("funnel line scanner")
struct FunnelLineScannerTests {
    /// What the tracker reads of an event, its symbols as their texts.
    struct SeenEvent: Equatable {
        var name: String
        var sessionKey: String?
        var time: Double?
        var line: Int
        /// source, link, target_screen, campaign_id, variant, screen, route, app_state, launch.
        var texts: [String?]
        var hasSource: Bool
        var coldStart: Bool

        init(_ event: TrackedEvent, _ symbols: SymbolTable) {
            name = symbols.text(event.name)
            sessionKey = event.sessionKey
            time = event.time
            line = event.line
            texts = [event.source, event.link, event.targetScreen, event.campaign, event.variant, event.screen, event.route,
                     event.appState, event.launch].map { $0.map(symbols.text) }
            hasSource = event.hasSource
            coldStart = event.coldStart
        }
    }

    /// What the funnel sees of one line: its events, or the error.
    struct Seen: Equatable, CustomStringConvertible {
        var events: [SeenEvent] = []
        var error: FunnelLogError?
        var description: String { error.map { "\($0)" } ?? "\(events)" }
    }

    func seen(_ line: [UInt8], usesScanner: Bool) -> Seen {
        var reader = FunnelLineReader(format: .auto, usesScanner: usesScanner)
        var symbols = SymbolTable()
        var events: [TrackedEvent] = []
        let read = line.withUnsafeBufferPointer { bytes -> Result<Void, FunnelLogError> in
            do throws(FunnelLogError) { try reader.read(line: bytes, number: 3, symbols: &symbols, into: &events) } catch {
                return .failure(error)
            }
            return .success(())
        }
        if case .failure(let error) = read { return Seen(error: error) }
        return Seen(events: events.map { SeenEvent($0, symbols) })
    }

    func scans(_ line: String) -> Bool {
        var scanner = FunnelLineScanner()
        return Array(line.utf8).withUnsafeBufferPointer { scanner.scan($0) }
    }

    /// Checks the two readers agree on `line`; returns whether the scanner read it itself.
    @discardableResult
    func expectAgreement(_ line: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let fast = seen(line, usesScanner: true)
        let full = seen(line, usesScanner: false)
        #expect(fast == full, "\(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
        var scanner = FunnelLineScanner()
        return line.withUnsafeBufferPointer { scanner.scan($0) }
    }

    static let hostile: [String] = [
        #"{"event":"a","properties":{"source":"q\"u\\o\/t\b\f\n\r\t","screen":"\u00e9\u0000x","variant":"\ud83d\ude00"}}"#,
        #"{"event":"a","properties":{"source":"\ud83d"}}"#,
        #"{"event":"a","properties":{"source":"\ude00x"}}"#,
        #"{"event":"a","properties":{"source":"\ud83d\u0041"}}"#,
        #"{"event":"a","properties":{"source":"\u12G4"}}"#,
        #"{"event":"a","properties":{"source":"\x"}}"#,
        #"{"event":"a","properties":{"other":"\ud83d"}}"#,
        "{\"event\":\"a\",\"properties\":{\"other\":\"tab\tinside\"}}",
        "{\"event\":\"a\",\"properties\":{\"e\u{301}\":1,\"\u{E9}\":2}}",
        #"{"event":"a","properties":{"source":"한국어 👍🏽","screen":"e\u0301"}}"#,
        #"{"event":"a","properties":{"e\u0301":1,"é":2}}"#,
        #"{"event":"a","properties":{"é":1,"é":2}}"#,
        #"{"event":"a","properties":{"x":1,"x":2}}"#,
        #"{"event":"a","properties":{"source":"p","source":"q"}}"#,
        #"{"event":"a","event":"b"}"#,
        #"{"event":"a","properties":{"n":{"k":1,"k":2}}}"#,
        #"{"event":"a","properties":{"n":[{"k":1},{"k":2}]}}"#,
        #"{"event":"a","properties":{"n":{"k":[1,2,{"m":[true,false,null]}]},"time":5}}"#,
        #"{"event":"a","properties":{"time":1.5e3}}"#,
        #"{"event":"a","properties":{"time":1e400}}"#,
        #"{"event":"a","properties":{"other":1e400}}"#,
        #"{"event":"a","properties":{"other":01}}"#,
        #"{"event":"a","properties":{"other":-}}"#,
        #"{"event":"a","properties":{"other":1.}}"#,
        #"{"event":"a","properties":{"other":-0,"time":-0}}"#,
        #"{"event":"a","properties":{"time":99999999999999999999}}"#,
        #"{"event":"a","properties":{"distinct_id":123456789012345678,"time":"1764000000500"}}"#,
        #"{"event":"a","distinct_id":-12,"session_id":"s","time":1764000000.25}"#,
        #"{"event":"a","properties":{"distinct_id":"","session_id":7}}"#,
        #"{"event":"a","properties":{"distinct_id":true,"time":null}}"#,
        #"{"event":"a","properties":{"cold_start":true,"source":{"x":1},"screen":["s"],"target_screen":7}}"#,
        #"{"event":"a","properties":"x"}"#,
        #"{"event":"a","properties":null}"#,
        #"{"event":7}"#,
        #"{"event":""}"#,
        #"{"event":"a","time":"12a"}"#,
        #"{"event":"a","time":-1}"#,
        #"{"event":"a","type":"event","name":"b"}"#,
        #"{"type":"login_presented","event":"a"}"#,
        #"{"foo":1}"#,
        "{}",
        "[]",
        #""event""#,
        #"  {  "event" : "a" , "properties" : { "source" : "s" , "time" : 1 }  }  "#,
        "\t{\"event\":\"a\"}\t\r\n",
        "{\"event\":\"a\"}\r",
        #"{"event":"a"}}"#,
        #"{"event":"a"} x"#,
        #"{"event":"a",}"#,
        #"{"event":"a","properties":{"x":1,}}"#,
        #"{"event":"a","properties":{"x":[1,]}}"#,
        #"{"event":"a","properties":{"x":tru}}"#,
        #"{"event":"a","properties":{"x":nul}}"#,
        #"{"event":"a","properties":{"x":True}}"#,
        #"{event:"a"}"#,
        #"{"event""a"}"#,
        #"{"event":"a""#,
        #"{"event":"a","properties":{"source":"s"#,
        #"{"event":"a","properties":{"source":"s\"#,
        #"{"event":"a","properties":{"source":"s\u00"#,
        #"{"event":"a","properties":{"#,
        "{\"event\":\"a\",\"properties\":{\"x\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}}",
        "{\"event\":\"a\",\"properties\":{\"x\":" + String(repeating: "[", count: 70) + String(repeating: "]", count: 70) + "}}",
        "{\"event\":\"a\",\"properties\":{\"x\":1" + String(repeating: "0", count: 400) + "}}",
    ]

    @Test("hostile lines: escapes, unicode, duplicates, nesting, numbers, wrong types and truncation read as the full parse reads them",
          arguments: hostile)
    func hostileLines(line: String) {
        expectAgreement(Array(line.utf8))
    }

    @Test("invalid UTF-8 inside and outside strings is refused as the full parse refuses it")
    func invalidUTF8() {
        let prefix = Array(#"{"event":"a","properties":{"source":""#.utf8)
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC3], [0xE2, 0x82]] {
            expectAgreement(prefix + bad + Array(#""}}"#.utf8))
            expectAgreement(prefix + Array(#"","other":""#.utf8) + bad + Array(#""}}"#.utf8))
        }
    }

    @Test("escapes in the fields the funnel reads are decoded, surrogate pairs included")
    func decodesEscapes() {
        let line = #"{"event":"a\u0062","properties":{"source":"q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","distinct_id":"\u0070"}}"#
        let events = seen(Array(line.utf8), usesScanner: true).events
        #expect(scans(line))
        #expect(events.first?.name == "ab")
        #expect(events.first?.texts.first == "q\"\\/\u{08}\u{0C}\n\r\té😀")
        #expect(events.first?.sessionKey == "p")
    }

    @Test("plain export lines are read by the scanner; host lines and escaped keys go to the full parse")
    func whichLinesScan() {
        #expect(scans(#"{"event":"a","properties":{"distinct_id":"p","time":1,"$os":"iOS","n":{"k":[1.5,-2,true,null]}}}"#))
        #expect(!scans(#"{"type":"event","name":"a"}"#))
        #expect(!scans(#"{"event":"a","properties":{"sourc\u0065":"s"}}"#))
        #expect(!scans(#"{"event":"a","properties":{"x":1,"x":2}}"#))
    }

    @Test("thousands of generated lines, plain and mutated, give the same events or the same refusal")
    func generatedLines() {
        var random = SplitMix(seed: 42)
        var scanned = 0
        for round in 0..<6000 {
            var line = Array(Self.generatedLine(&random).utf8)
            switch round % 4 {
            case 1: line = Array(line.prefix(random.below(line.count + 1)))
            case 2: line.insert(Self.hostileBytes[random.below(Self.hostileBytes.count)], at: random.below(line.count + 1))
            case 3: if !line.isEmpty { line.remove(at: random.below(line.count)) }
            default: break
            }
            if expectAgreement(line) { scanned += 1 }
        }
        // The comparison means something only if the scanner read many lines itself.
        #expect(scanned > 1500)
    }

    static let hostileBytes: [UInt8] = Array(#""\{}[],:0-.eE+ut"#.utf8) + [0x00, 0x09, 0x0A, 0x1F, 0x7F, 0x80, 0xC3, 0xE2, 0xF0, 0xFF]

    static let keys = FunnelLineScanner.propertyKeys + ["$os", "app_version", "mp_lib", "nested", "list", "n", "é", ""]
    static let texts = ["", "push", "home", "a\\\"b", "\\u00e9\\ud83d\\ude00", "\\n\\t\\/", "한국어", "👍🏽", "1764000000", "12.5", "\\ud83d", "x\\u0000y",
                               "한\\u0041", "é\\n국", "👍🏽\\\"x"]

    static func generatedLine(_ random: inout SplitMix) -> String {
        var members: [String] = []
        for _ in 0..<random.below(8) {
            let key = keys[random.below(keys.count)]
            members.append(space(&random) + "\"\(key)\"" + space(&random) + ":" + space(&random) + value(&random, depth: 0) + space(&random))
        }
        var top = ["\"event\":\"" + ["push_clicked", "screen_view", "", "a\\u0062"][random.below(4)] + "\""]
        top.append("\"properties\":{" + members.joined(separator: ",") + "}")
        if random.below(4) == 0 { top.append("\"distinct_id\":" + value(&random, depth: 2)) }
        if random.below(4) == 0 { top.append("\"time\":" + value(&random, depth: 2)) }
        if random.below(8) == 0 { top.append("\"other\":" + value(&random, depth: 0)) }
        return space(&random) + "{" + top.shuffled(using: &random).joined(separator: ",") + "}" + space(&random)
    }

    static func value(_ random: inout SplitMix, depth: Int) -> String {
        switch random.below(depth < 2 ? 10 : 8) {
        case 0, 1, 2: return "\"" + texts[random.below(texts.count)] + "\""
        case 3: return ["0", "-0", "17", "1764000000", "1764000000123", "-5", "2.5", "1e3", "9223372036854775808", "01"][random.below(10)]
        case 4: return ["true", "false", "null"][random.below(3)]
        case 5, 6: return String(random.below(100_000))
        case 7: return "\"" + String(random.below(10)) + "\""
        case 8: return "{" + (0..<random.below(3)).map { "\"k\($0 % 2)\":" + value(&random, depth: depth + 1) }.joined(separator: ",") + "}"
        default: return "[" + (0..<random.below(3)).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        }
    }

    static func space(_ random: inout SplitMix) -> String { ["", "", "", " ", "\t", "\r", "  \n"][random.below(7)] }
}

/// A small seeded generator, so a failing line can be found again.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}

/// The stream's search for line ends, which reads eight bytes at a time.
@Suite("funnel line ends")
struct FunnelLineEndTests {
    @Test("every line end is found, wherever it falls in an eight-byte word, and none past the end")
    func findsEveryLineEnd() {
        var random = SplitMix(seed: 9)
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in [UInt8(0x0A), 0x0B, 0x8A, 0x00, 0xFF, 0x41][random.below(6)] }
            bytes.withUnsafeBufferPointer { buffer in
                for start in 0...length {
                    #expect(FunnelLogStream.newline(in: buffer, from: start) == bytes[start...].firstIndex(of: 0x0A))
                }
            }
        }
    }
}
