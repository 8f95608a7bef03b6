import BridgeHost
import BridgeHostTesting
import JSONCore
import Testing

/// A message the host cannot parse is answered INVALID_MESSAGE echoing the request id its raw
/// text still shows (a top-level string `id`, once, well-formed and of sane length), so a page on
/// a channel whose replies are matched by id settles the call at once instead of timing out.
@Suite("Unreadable messages: the reply echoes the id the raw text shows")
@MainActor
struct UnreadableMessageIDTests {
    /// The text of a message whose members are given as raw JSON (any text, valid or not).
    private func raw(_ members: [(String, String)]) -> String {
        "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
    }

    private let loneHigh = #"{"slug":"new-user-promo","memo":"cut \ud83d"}"#

    /// The reply to `text`, which must be INVALID_MESSAGE.
    private func reply(to text: String) throws -> BridgeReply {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        let reply = try #require(host.receive(text))
        #expect(reply.error?.code == .invalidMessage, "\(reply.text)")
        #expect(host.navigations.isEmpty)
        return reply
    }

    @Test("a lone surrogate in the payload: INVALID_MESSAGE naming it, with the request id")
    func loneSurrogateInPayloadEchoesTheID() throws {
        let text = raw([("v", "1"), ("id", #""req-cut-0001""#), ("action", #""apply""#), ("version", "1"), ("payload", loneHigh)])
        let answer = try reply(to: text)
        #expect(answer.id == "req-cut-0001")
        let message = try #require(answer.error?.message)
        #expect(message.hasPrefix("the message is not valid JSON: line 1 column "), "\(message)")
        #expect(message.contains(#"invalid Unicode '\uD83D'"#) && message.contains("lone UTF-16 surrogate"), "\(message)")
        #expect(answer.error?.details.first?["position"]?.integerValue != nil, "the position is kept")
    }

    @Test("a lone low surrogate is named too; a bad escape that is no surrogate is not called one")
    func onlySurrogatesAreCalledSurrogates() throws {
        let low = try reply(to: raw([("id", #""req-low-0001""#), ("payload", #"{"memo":"\udc00"}"#)]))
        #expect(low.error?.message.contains("lone UTF-16 surrogate") == true)
        #expect(low.id == "req-low-0001")
        let other = try reply(to: raw([("id", #""req-bad-0001""#), ("payload", #"{"memo":"\q"}"#)]))
        #expect(other.error?.message.contains("surrogate") == false, "\(other.text)")
        #expect(other.id == "req-bad-0001")
    }

    @Test("the id is recovered when it comes after the bad member, and before it")
    func idAfterAndBeforeTheBadMember() throws {
        let after = raw([("v", "1"), ("payload", loneHigh), ("action", #""apply""#), ("id", #""req-after-01""#)])
        #expect(try reply(to: after).id == "req-after-01")
        let before = raw([("id", #""req-before-1""#), ("payload", loneHigh), ("version", "NaN")])
        #expect(try reply(to: before).id == "req-before-1")
    }

    @Test("an id nested in the payload or campaign is not the request's id")
    func nestedIDIsNotTaken() throws {
        let nested = raw([("v", "1"), ("payload", #"{"id":"inner-000001","memo":"\ud83d","list":[{"id":"deeper-00001"}]}"#),
                          ("campaign", #"{"id":"campaign-0001"}"#)])
        #expect(try reply(to: nested).id == nil)
        let both = raw([("payload", #"{"id":"inner-000001","memo":"\ud83d"}"#), ("id", #""outer-000001""#)])
        #expect(try reply(to: both).id == "outer-000001")
    }

    @Test("the word id as a value, not a key, is not taken for the member")
    func idAsAValueIsNotAKey() throws {
        #expect(try reply(to: raw([("action", #""id""#), ("payload", loneHigh)])).id == nil)
        #expect(try reply(to: raw([("action", #""id""#), ("x", #""req-not-0001""#), ("payload", loneHigh)])).id == nil)
    }

    @Test("two id members, however spelled, give no id")
    func duplicateIDKeysGiveNone() throws {
        #expect(try reply(to: raw([("id", #""req-first-01""#), ("payload", loneHigh), ("id", #""req-second-1""#)])).id == nil)
        // "\u0069d" is "id" to a parser: still two.
        #expect(try reply(to: raw([("id", #""req-first-01""#), (#"\u0069d"#, #""req-second-1""#), ("payload", loneHigh)])).id == nil)
        #expect(try reply(to: raw([(#"\u0069d"#, #""req-escaped-1""#), ("payload", loneHigh)])).id == "req-escaped-1")
    }

    @Test("an id that is not a well-formed string gives none", arguments: [
        #""req-\ud83d-0001""#, #""req-\udc00-0001""#, #""req-\q-000001""#, #""req-\u12-000001""#, "12345678", "null",
        #"["req-array-01"]"#, "\"req-\u{01}-ctrl-01\"",
    ])
    func malformedIDGivesNone(_ id: String) throws {
        #expect(try reply(to: raw([("v", "1"), ("id", id), ("payload", loneHigh)])).id == nil, "\(id)")
    }

    @Test("escapes in the id are decoded: a surrogate pair, quotes, a backslash")
    func escapedIDIsDecoded() throws {
        #expect(try reply(to: raw([("id", #""req-\ud83d\ude00-01""#), ("payload", loneHigh)])).id == "req-😀-01")
        #expect(try reply(to: raw([("id", #""req-\"q\"-\\-01""#), ("payload", loneHigh)])).id == #"req-"q"-\-01"#)
    }

    @Test("escaped quotes and brackets inside strings do not end them early")
    func escapedQuotesInsideStrings() throws {
        let tricky = #"{"memo":"a \"} ], \"id\": \"fake-000001\" {","x":"\\","y":"\ud83d"}"#
        #expect(try reply(to: raw([("payload", tricky), ("id", #""req-real-001""#)])).id == "req-real-001")
        #expect(try reply(to: raw([("note", #""\"id\":\"fake-000001\"""#), ("payload", loneHigh)])).id == nil)
    }

    @Test("truncated text: the id read before the cut is echoed, one cut inside it is not")
    func truncatedText() throws {
        let whole = raw([("v", "1"), ("id", #""req-trunc-01""#), ("action", #""apply""#), ("payload", loneHigh)])
        let cutAfterID = String(whole.prefix(whole.count - 12))
        #expect(try reply(to: cutAfterID).id == "req-trunc-01")
        let cutInID = try #require(whole.range(of: "trunc")).upperBound
        #expect(try reply(to: String(whole[..<cutInID])).id == nil)
        #expect(try reply(to: #"{"v":1,"payload":{"memo":"\ud83d"#).id == nil)
    }

    @Test("an id of 127, 128 and 129 scalars: echoed up to 128, as for a message that parses",
          arguments: [(127, true), (128, true), (129, false)])
    func idLengthBoundary(_ length: Int, _ echoed: Bool) throws {
        // Astral characters count once each (scalars, not UTF-16 units or bytes).
        let id = "r" + String(repeating: "😀", count: length - 1)
        let answer = try reply(to: raw([("v", "1"), ("id", "\"\(id)\""), ("payload", loneHigh)]))
        #expect(answer.id == (echoed ? id : nil))
        #expect(try reply(to: raw([("id", "\"\"")]) + "x").id == nil, "an empty id is never echoed")
    }

    @Test("trailing data after a whole message: the id of the first object is echoed")
    func trailingData() throws {
        let text = raw([("v", "1"), ("id", #""req-trail-01""#), ("action", #""apply""#), ("version", "1"), ("payload", #"{"slug":"a"}"#)])
        #expect(try reply(to: text + "x").id == "req-trail-01")
        #expect(try reply(to: text + raw([("id", #""req-second-1""#)])).id == "req-trail-01")
    }

    @Test("over the size limit: the id is echoed when it is within the first KiB, else not")
    func oversizedMessage() throws {
        let big = #"{"slug":""# + String(repeating: "a", count: 70_000) + #""}"#
        #expect(try reply(to: raw([("v", "1"), ("id", #""req-large-01""#), ("payload", big)])).id == "req-large-01")
        let padding = String(repeating: "b", count: 1_100)
        #expect(try reply(to: raw([("pad", "\"\(padding)\""), ("id", #""req-large-02""#), ("payload", big)])).id == nil)
    }

    @Test("a message that parses keeps today's path: its own id, the envelope's verdict")
    func parsedMessageKeepsItsPath() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        let refused = try #require(host.receive(raw([("v", "1"), ("id", #""req-parsed-1""#), ("action", #""apply""#), ("version", "1"), ("payload", "[]")])))
        #expect(refused.error?.code == .invalidMessage)
        #expect(refused.error?.message.hasPrefix("the message does not match the envelope schema") == true)
        #expect(refused.id == "req-parsed-1")
    }

    @Test("a rejected unreadable message with an id changes nothing: the same id is accepted after")
    func recoveredIDIsNotRemembered() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        let bad = raw([("v", "1"), ("id", #""req-again-01""#), ("action", #""apply""#), ("version", "1"), ("payload", loneHigh)])
        #expect(host.receive(bad)?.id == "req-again-01")
        let good = raw([("v", "1"), ("id", #""req-again-01""#), ("action", #""apply""#), ("version", "1"), ("payload", #"{"slug":"new-user-promo"}"#)])
        #expect(host.receive(good)?.ok == true)
    }
}
