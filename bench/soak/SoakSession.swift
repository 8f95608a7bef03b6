#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore

/// SplitMix64: the session is the same on every run and machine for a given seed.
struct SoakRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range` (small ranges: the modulo bias is irrelevant here).
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double(next() >> 11) / Double(1 << 53) < p
    }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}

/// One message of the session and what must come of it.
struct SoakMessage {
    enum Kind: String, CaseIterable {
        // Valid: the contract accepts them.
        case applyV1, applyV2, viewVehicles, start
        /// A valid message without id: no reply, its outcome is recorded.
        case notification
        /// A valid message that looks hostile (javascript:, markup, a foreign URL in a string).
        case hostileLooking
        /// The same destination as the message before, with a new id (the navigator's duplicate window).
        case sameDestination
        // Rejected before the navigator.
        /// The previous request's exact bytes again (its id was already handled).
        case resentID
        case invalidParams, wrongVersion, unknownAction, brokenJSON, duplicateKeys, missingID, notAnObject
        case oversize, deepNesting, invalidUTF8, lookalikeOrigin, subframe, httpOrigin, opaqueOrigin

        var isValid: Bool {
            switch self {
            case .applyV1, .applyV2, .viewVehicles, .start, .notification, .hostileLooking, .sameDestination: return true
            default: return false
            }
        }
    }

    let number: Int
    let kind: Kind
    let body: [UInt8]
    let origin: String
    let isMainFrame: Bool
    /// The id the reply must echo; nil when it must be null (nothing readable) or there is no reply.
    let replyID: String?
    /// False only for a valid notification (a message without id gets no reply).
    let expectsReply: Bool
    /// Sent right after the one before, without waiting for its reply (a page firing CTAs quickly).
    let burst: Bool
}

/// Everything a session does, in order: what a harness line of `host --stdio` says.
enum SoakEvent {
    case open(url: String?, source: String?)
    case message(SoakMessage)
    case login, logout, ready
    case coldStart, foreground
    /// Time passes (the manual clock of host --stdio; the in-process run is on the wall clock).
    case advance(byMs: Int)

    /// The `host --stdio` input line for this event.
    var stdioLine: String {
        switch self {
        case .open(let url, let source):
            var object = JSONObject([("type", "open"), ("url", url.map(JSONValue.string) ?? .null)])
            if let source { object["source"] = .string(source) }
            return JSONValue.object(object).serialized()
        case .message(let message):
            var object = JSONObject([("type", "message")])
            if let text = String(validating: message.body, as: UTF8.self) {
                object["body"] = .string(text)
            } else {
                object["bodyBase64"] = .string(Data(message.body).base64EncodedString())
            }
            object["origin"] = .string(message.origin)
            if !message.isMainFrame { object["isMainFrame"] = false }
            return JSONValue.object(object).serialized()
        case .login: return #"{"type":"login"}"#
        case .logout: return #"{"type":"logout"}"#
        case .ready: return #"{"type":"ready"}"#
        case .coldStart: return #"{"type":"state","state":"coldStart"}"#
        case .foreground: return #"{"type":"state","state":"foreground"}"#
        case .advance(let milliseconds): return #"{"type":"advance","ms":\#(milliseconds)}"#
        }
    }
}

/// A long seeded session of one person's app: event pages opened from AlimTalk, push, marketing
/// links and in-app; the three CTAs (apply v1 and v2, view_vehicles, start) with Korean text;
/// resends and double taps; logged-out stretches that end with a login; cold starts whose ready
/// comes late (some long enough to fill the navigator's queue); invalid and hostile messages;
/// messages from the other allowed origins and from origins that must be refused. Generated
/// lazily, so a run of 500,000 messages holds one event at a time.
///
/// The events end with login, ready and foreground, and (for the manual clock) a long advance,
/// so every navigation can finish and every envelope must be consumed.
struct SoakSession: Sequence, IteratorProtocol {
    let messageCount: Int
    private var random: SoakRandom
    private var produced = 0
    private var queued: [SoakEvent] = []
    private var loggedIn = true
    private var logoutLeft = 0
    private var coldStart = false
    private var coldStartLeft = 0
    private var pageLeft = 0
    private var burstLeft = 0
    private var finished = false
    /// The last valid request, for resends and double taps.
    private var lastRequest: (body: [UInt8], id: String, origin: String, rebuild: (String) -> String)?

    static let origin = "https://sendy.co.kr"
    static let otherAllowedOrigins = ["https://www.sendy.co.kr", "https://event.sendy.co.kr", "https://SENDY.co.kr:443"]
    static let entries: [(url: String?, source: String?)] = [
        ("https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3_signup_retarget&group_id=B&variant=card_scanner_cta&utm_source=kakaotalk&utm_medium=alimtalk", nil),
        ("https://sendy.co.kr/event/truck-week?campaign_id=truck_week&variant=%EC%B9%B4%EB%93%9C%EC%8A%A4%EC%BA%90%EB%84%88&utm_source=push", "push"),
        ("sendy://event/spring-sale?campaign_id=spring&utm_source=newsletter&utm_medium=email", "externalURL"),
        (nil, nil),
        ("https://sendy.co.kr/event/new-user-promo", nil),
    ]

    init(messages: Int, seed: UInt64) {
        messageCount = messages
        random = SoakRandom(seed: seed)
    }

    mutating func next() -> SoakEvent? {
        if !queued.isEmpty { return queued.removeFirst() }
        if finished { return nil }
        if produced == messageCount {
            finished = true
            // The end of the session: everything that waits for the person or the app is released,
            // and (manual clock) time runs past every latency, reply deadline and step timeout.
            if !loggedIn { queued.append(.login) }
            if coldStart { queued.append(.ready) }
            queued.append(.foreground)
            queued.append(.advance(byMs: 60_000))
            return next()
        }
        plan()
        return queued.isEmpty ? nil : queued.removeFirst()
    }

    /// The events before the next message, the message, and the time after it.
    private mutating func plan() {
        if pageLeft == 0 {
            let entry = random.pick(Self.entries)
            queued.append(.open(url: entry.url, source: entry.source))
            pageLeft = random.int(20...150)
            lastRequest = nil
        }
        pageLeft -= 1
        if burstLeft == 0 {
            if loggedIn, random.chance(0.006) {
                loggedIn = false
                logoutLeft = random.int(3...40)
                queued.append(.logout)
            } else if !loggedIn {
                logoutLeft -= 1
                if logoutLeft <= 0 {
                    loggedIn = true
                    queued.append(.login)
                }
            }
            if !coldStart, random.chance(0.003) {
                coldStart = true
                // One cold start in five lasts long enough to fill the navigator's queue.
                coldStartLeft = random.chance(0.2) ? random.int(70...160) : random.int(2...30)
                queued.append(.coldStart)
            } else if coldStart {
                coldStartLeft -= 1
                if coldStartLeft <= 0 {
                    coldStart = false
                    queued.append(.ready)
                }
            }
        }
        let burst = burstLeft > 0
        if burstLeft > 0 {
            burstLeft -= 1
        } else if random.chance(0.02) {
            burstLeft = random.int(2...6)
        }
        produced += 1
        queued.append(.message(message(number: produced, burst: burst)))
        if burstLeft == 0 {
            // Every third message the duplicate window passes; otherwise a short pause.
            queued.append(.advance(byMs: produced % 3 == 0 ? 2_500 : random.int(0...400)))
        }
    }

    // MARK: - Messages

    private static func id(_ number: Int) -> String {
        let digits = String(number)
        return "soak-" + String(repeating: "0", count: Swift.max(0, 8 - digits.count)) + digits
    }

    private static func slug(_ number: Int) -> String { "ev-" + String(number, radix: 36) }

    private static let memos = ["빠른 연락 부탁드립니다", "오전에 전화 주세요 + 주차 가능", "Call me after 6pm", "화물 2톤, 부산 → 서울 🚚", "100% 할인 & 무료?"]
    private static let regions = ["서울", "부산", "경기 남부", "대전", "Jeju"]
    private static let hostileStrings = ["javascript:alert(1)", "<script>alert(1)</script>", "https://evil.example/?q=1", "%252F..%252Fetc", "\u{202E}gnp.exe"]

    private mutating func campaignFields() -> String {
        guard random.chance(0.3) else { return "" }
        // Sometimes disagrees with the entry link: a campaign conflict is recorded, the entry wins.
        let id = random.chance(0.5) ? "2025Q3_signup_retarget" : "page_side_\(random.int(1...5))"
        return #","campaign":{"campaign_id":"\#(id)","utm_source":"kakaotalk","utm_content":"cta_\#(random.int(1...3))"}"#
    }

    private static func quoted(_ text: String) -> String { JSONValue.string(text).serialized() }

    /// A valid request of one of the three CTAs; `rebuild` makes the same request under another id.
    private mutating func validRequest(_ kind: SoakMessage.Kind, number: Int, memo: String? = nil) -> (String, (String) -> String) {
        let campaign = campaignFields()
        let payload: String
        let head: String
        switch kind {
        case .applyV1, .applyV2:
            let v2 = kind == .applyV2
            var fields = [#""slug":"\#(Self.slug(number))""#]
            if v2 || random.chance(0.5) { fields.append(#""plan":"\#(random.pick(["basic", "premium", "business"]))""#) }
            if v2 && random.chance(0.7) { fields.append(#""contactTime":"\#(random.pick(["morning", "afternoon", "evening", "anytime"]))""#) }
            if let memo { fields.append(#""memo":\#(Self.quoted(memo))"#) } else if random.chance(0.4) {
                fields.append(#""memo":\#(Self.quoted(random.pick(Self.memos) + " #\(number)"))"#)
            }
            head = #""action":"apply","version":\#(v2 ? 2 : 1)"#
            payload = "{" + fields.joined(separator: ",") + "}"
        case .viewVehicles:
            var fields: [String] = [#""from":"\#(Self.slug(number))""#]
            if random.chance(0.6) { fields.append(#""vehicleType":"\#(random.pick(["damas", "labo", "1ton", "2.5ton", "5ton"]))""#) }
            if let memo { fields.append(#""region":\#(Self.quoted(String(memo.prefix(40))))"#) } else if random.chance(0.5) {
                fields.append(#""region":\#(Self.quoted(random.pick(Self.regions)))"#)
            }
            if random.chance(0.3) { fields.append(#""sort":"\#(random.pick(["recommended", "price", "distance"]))""#) }
            // Page 13 is a list the app cannot load (the in-process app answers "not found").
            if random.chance(0.4) { fields.append(#""page":\#(random.chance(0.1) ? 13 : random.int(1...12))"#) }
            head = #""action":"view_vehicles","version":1"#
            payload = "{" + fields.joined(separator: ",") + "}"
        default:
            var fields: [String] = [#""referrer":"\#(Self.slug(number))""#]
            // A promo code starting FAIL makes the in-process app's detail fetch fail.
            if random.chance(0.4) { fields.append(#""promoCode":"\#(random.chance(0.1) ? "FAIL\(number % 1000)" : "SENDY\(random.int(10...99))")""#) }
            head = #""action":"start","version":1"#
            payload = "{" + fields.joined(separator: ",") + "}"
        }
        let sentAt = random.chance(0.5) ? #","sentAt":"2026-11-29T12:00:00Z""# : ""
        let rebuild = { (id: String) in #"{"v":1,"id":"\#(id)",\#(head),"payload":\#(payload)\#(campaign)\#(sentAt)}"# }
        return (rebuild(Self.id(number)), rebuild)
    }

    private mutating func message(number: Int, burst: Bool) -> SoakMessage {
        let id = Self.id(number)
        var origin = Self.origin
        if random.chance(0.1) { origin = random.pick(Self.otherAllowedOrigins) }
        func make(_ kind: SoakMessage.Kind, _ text: String, replyID: String?, origin: String = origin,
                  isMainFrame: Bool = true, expectsReply: Bool = true) -> SoakMessage {
            SoakMessage(number: number, kind: kind, body: Array(text.utf8), origin: origin, isMainFrame: isMainFrame,
                        replyID: replyID, expectsReply: expectsReply, burst: burst)
        }
        var roll = random.int(0...999)
        // A resend or a double tap needs a request before it on this page.
        if (730..<820).contains(roll), lastRequest == nil { roll = 0 }
        switch roll {
        case 0..<640:
            let kind: SoakMessage.Kind = roll < 150 ? .applyV1 : roll < 300 ? .applyV2 : roll < 480 ? .viewVehicles : .start
            let (text, rebuild) = validRequest(kind, number: number)
            lastRequest = (Array(text.utf8), id, origin, rebuild)
            return make(kind, text, replyID: id)
        case 640..<680:
            let (text, rebuild) = validRequest(random.pick([.applyV1, .viewVehicles, .start]), number: number, memo: random.pick(Self.hostileStrings))
            lastRequest = (Array(text.utf8), id, origin, rebuild)
            return make(.hostileLooking, text, replyID: id)
        case 680..<730:
            // A notification: view_vehicles without id.
            let (text, _) = validRequest(.viewVehicles, number: number)
            let withoutID = text.replacing(#""id":"\#(id)","#, with: "")
            return make(.notification, withoutID, replyID: nil, expectsReply: false)
        case 730..<780:
            let last = lastRequest!
            return SoakMessage(number: number, kind: .resentID, body: last.body, origin: last.origin, isMainFrame: true,
                               replyID: last.id, expectsReply: true, burst: burst)
        case 780..<820:
            let last = lastRequest!
            return make(.sameDestination, last.rebuild(id), replyID: id, origin: last.origin)
        case 820..<850:
            let text = random.pick([
                #"{"v":1,"id":"\#(id)","action":"apply","version":1,"payload":{"slug":"Bad Slug!"}}"#,
                #"{"v":1,"id":"\#(id)","action":"view_vehicles","version":1,"payload":{"page":0}}"#,
                #"{"v":1,"id":"\#(id)","action":"start","version":1,"payload":{"promoCode":"lower"}}"#,
                #"{"v":1,"id":"\#(id)","action":"apply","version":2,"payload":{"slug":"ok-slug","plan":"gold"}}"#,
                #"{"v":1,"id":"\#(id)","action":"view_vehicles","version":1,"payload":{"__proto__":{"admin":true}}}"#,
            ])
            return make(.invalidParams, text, replyID: id)
        case 850..<865:
            return make(.wrongVersion, #"{"v":1,"id":"\#(id)","action":"apply","version":7,"payload":{"slug":"x"}}"#, replyID: id)
        case 865..<880:
            return make(.unknownAction, #"{"v":1,"id":"\#(id)","action":"share","version":1,"payload":{}}"#, replyID: id)
        case 880..<895:
            return make(.brokenJSON, #"{"v":1,"id":"\#(id)","action":"apply","version":1,"payload":{"slug":"#, replyID: id)
        case 895..<905:
            return make(.duplicateKeys, #"{"v":1,"id":"\#(id)","action":"start","action":"apply","version":1,"payload":{}}"#, replyID: id)
        case 905..<915:
            return make(.missingID, #"{"v":1,"action":"apply","version":1,"payload":{"slug":"no-id"}}"#, replyID: nil)
        case 915..<922:
            return make(.notAnObject, random.pick(["[1,2,3]", "\"apply\"", "null", "42"]), replyID: nil)
        case 922..<923:
            let memo = String(repeating: "가", count: 24_000)
            return make(.oversize, #"{"v":1,"id":"\#(id)","action":"apply","version":1,"payload":{"slug":"big","memo":"\#(memo)"}}"#, replyID: id)
        case 923..<934:
            let nested = String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100)
            return make(.deepNesting, #"{"v":1,"id":"\#(id)","action":"start","version":1,"payload":\#(nested)}"#, replyID: id)
        case 934..<944:
            var bytes = Array(#"{"v":1,"id":"\#(id)","action":"apply","version":1,"payload":{"slug":"a","memo":""#.utf8)
            bytes += [0xC3, 0x28, 0xFF]
            bytes += Array(#""}}"#.utf8)
            return SoakMessage(number: number, kind: .invalidUTF8, body: bytes, origin: origin, isMainFrame: true,
                               replyID: id, expectsReply: true, burst: burst)
        default:
            let (text, _) = validRequest(.start, number: number)
            switch random.int(0...3) {
            case 0: return make(.lookalikeOrigin, text, replyID: id, origin: random.pick(["https://sendy.co.kr.evil.example", "https://evil.sendy.co.kr", "https://user@sendy.co.kr"]))
            case 1: return make(.subframe, text, replyID: id, isMainFrame: false)
            case 2: return make(.httpOrigin, text, replyID: id, origin: "http://sendy.co.kr")
            default: return make(.opaqueOrigin, text, replyID: id, origin: "null")
            }
        }
    }
}
