import BridgeHostTesting
import DeeplinkNavigation
import DeeplinkRouting
import JSONCore
import Testing

/// The step lines `bridgectl host --stdio` and `simulate --step` read: each type, its bounds,
/// and each bad field named.
@Suite struct ScenarioStepTests {
    func step(_ text: String) -> Result<ScenarioStep, ScenarioError> {
        Result { () throws(ScenarioError) in
            guard case .object(let object)? = try? JSONValue(parsing: text) else { throw ScenarioError("not an object") }
            return try ScenarioStep(object)
        }
    }

    func refusal(_ text: String) -> String? {
        if case .failure(let error) = step(text) { return error.message }
        return nil
    }

    @Test func aDeferredLinkTakesAnOptionalChannel() throws {
        #expect(try step(#"{"type":"deferred","url":"https://a.example/x"}"#).get() == .deferred(url: "https://a.example/x", source: nil))
        #expect(try step(#"{"type":"deferred","url":"u","source":null}"#).get() == .deferred(url: "u", source: nil), "null is no source")
        #expect(try step(#"{"type":"deferred","url":"u","source":"push"}"#).get() == .deferred(url: "u", source: .push))
        #expect(try step(#"{"type":"deferred","url":"u","source":"kakaotalk"}"#).get() == .deferred(url: "u", source: CampaignMetadata.Source(rawValue: "kakaotalk")))
        let channel = "\"source\" must be a channel name (push, externalURL, appInternal or a declared one)"
        #expect(refusal(#"{"type":"deferred","url":"u","source":""}"#) == channel)
        #expect(refusal(#"{"type":"deferred","url":"u","source":1}"#) == channel)
        #expect(refusal(#"{"type":"deferred"}"#) == "missing \"url\" (the deferred link)")
        #expect(refusal(#"{"type":"deferred","url":1}"#) == "\"url\" must be a string (the deferred link)")
    }

    @Test func anOfferIsAPositiveNumber() throws {
        #expect(try step(#"{"type":"accept","offer":1}"#).get() == .accept(offer: EnvelopeID(1)))
        #expect(try step(#"{"type":"dismiss","offer":2}"#).get() == .dismiss(offer: EnvelopeID(2)))
        let positive = "\"offer\" must be a positive integer (the number of an offer line)"
        for offer in ["0", "-1", "1.5", "\"1\""] {
            #expect(refusal(#"{"type":"accept","offer":"# + offer + "}") == positive, "\(offer)")
        }
        #expect(refusal(#"{"type":"dismiss"}"#) == "missing \"offer\" (the number of an offer line)")
    }

    /// Time moves from 0 to a day (86,400,000 ms) a step.
    @Test(arguments: [(-1, false), (0, true), (1, true), (86_399_999, true), (86_400_000, true), (86_400_001, false)])
    func anAdvanceIsFromZeroToADay(ms: Int, taken: Bool) throws {
        let parsed = step(#"{"type":"advance","ms":\#(ms)}"#)
        if taken {
            #expect(try parsed.get() == .advance(byMs: ms))
        } else {
            #expect(refusal(#"{"type":"advance","ms":\#(ms)}"#) == "\"ms\" must be an integer from 0 to 86400000")
        }
    }

    @Test func anInteractionAndAnUnknownType() throws {
        #expect(try step(#"{"type":"interaction"}"#).get() == .interaction)
        let types = "\"type\" must be one of deferred, interaction, accept, dismiss, advance"
        #expect(refusal(#"{"type":"tap"}"#) == types)
        #expect(refusal(#"{"step":"advance"}"#) == types)
        #expect(refusal(#"{"type":1}"#) == types)
    }
}
