@testable import BridgeContracts
import JSONCore
import Testing

/// A fixture's expected errors against a checker's output units: the one rule the Swift fixture
/// runner, the event fixture runner and `bridgectl verify` all judge by.
struct ExpectedErrorsTests {
    private let details: [JSONValue] = [
        .object(JSONObject([("instanceLocation", "/payload/vehicleId"), ("keyword", "pattern")])),
        .object(JSONObject([("instanceLocation", "/payload"), ("keyword", "required")])),
    ]

    @Test func anErrorWithoutAKeywordIsReportedByAnyUnitAtItsLocation() {
        #expect(Fixture.ExpectedError(instanceLocation: "/payload/vehicleId", keyword: nil).isReported(in: details))
    }

    @Test func anErrorWithAKeywordNeedsThatKeywordAtThatLocation() {
        #expect(Fixture.ExpectedError(instanceLocation: "/payload/vehicleId", keyword: "pattern").isReported(in: details))
        #expect(!Fixture.ExpectedError(instanceLocation: "/payload/vehicleId", keyword: "required").isReported(in: details))
        #expect(!Fixture.ExpectedError(instanceLocation: "/payload/vehicleid", keyword: "pattern").isReported(in: details))
    }

    @Test func aParentLocationDoesNotStandForItsChild() {
        #expect(!Fixture.ExpectedError(instanceLocation: "/payload/vehicleId/0", keyword: nil).isReported(in: details))
        #expect(!Fixture.ExpectedError(instanceLocation: "/payload/vehicle", keyword: nil).isReported(in: details))
    }

    @Test func eachUnreportedErrorGetsALineNamingItAndWhatWasReported() {
        let wanted = [
            Fixture.ExpectedError(instanceLocation: "/payload", keyword: "required"),
            Fixture.ExpectedError(instanceLocation: "/payload/phone", keyword: nil),
            Fixture.ExpectedError(instanceLocation: "/payload/vehicleId", keyword: "maxLength"),
        ]
        let lines = wanted.unreported(in: details)
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("expected an error at \"/payload/phone\"; details: ["))
        #expect(lines[1].hasPrefix("expected an error at \"/payload/vehicleId\" (keyword maxLength); details: ["))
        #expect(lines[1].contains("\"keyword\":\"pattern\""))
        #expect(Array(wanted.prefix(1)).unreported(in: details).isEmpty)
        #expect([Fixture.ExpectedError]().unreported(in: []).isEmpty)
    }
}
