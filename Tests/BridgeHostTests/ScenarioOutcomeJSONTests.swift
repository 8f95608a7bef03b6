import BridgeContracts
import BridgeHostTesting
import DeeplinkNavigation
import JSONCore
import Testing

/// What `bridgectl simulate --format json` prints of a run: an entry link's dropped campaign
/// values are listed under entryWarnings, a step that could not run under stepErrors, and a
/// clean run adds neither member.
@MainActor @Suite struct ScenarioOutcomeJSONTests {
    static let message = #"{"v":1,"id":"scenario-json-1","action":"apply","version":1,"payload":{"slug":"new-user-promo"}}"#

    func outcome(entry: String) throws -> JSONValue {
        var scenario = Scenario(body: Self.message)
        scenario.entry = entry
        return try scenario.run(contracts: try repositoryContracts()).json
    }

    @Test func anEntryLinkWithDroppedCampaignValuesListsThemAsWarnings() throws {
        let variant = String(repeating: "v", count: 70)
        let json = try outcome(entry: "https://sendy.co.kr/event/new-user-promo?campaign_id=2025%20Q3&variant=\(variant)&utm_source=kakaotalk")
        let warnings = try #require(json["entryWarnings"]?.arrayValue)
        #expect(warnings.count == 2)
        #expect(warnings.first?.stringValue?.contains("query.campaign_id") == true, "\(warnings)")
        #expect(json["reply"]?["ok"] == true)
    }

    @Test func aCleanEntryLinkAddsNoWarningsMember() throws {
        let json = try outcome(entry: "https://sendy.co.kr/event/new-user-promo?campaign_id=2025Q3&utm_source=kakaotalk")
        #expect(json["entryWarnings"] == nil && json["stepErrors"] == nil, "\(json.serialized())")
        #expect(json["entryError"] == nil && json["reply"]?["ok"] == true)
    }

    @Test func aStepThatCannotRunIsListedAsAStepError() throws {
        var scenario = Scenario(body: Self.message)
        scenario.steps = [.accept(offer: EnvelopeID(99))]
        let json = try scenario.run(contracts: try repositoryContracts()).json
        let errors = try #require(json["stepErrors"]?.arrayValue, "\(json.serialized())")
        #expect(errors.count == 1)
        #expect(errors.first?.stringValue?.hasPrefix("step 1: ") == true, "\(errors)")
    }
}
