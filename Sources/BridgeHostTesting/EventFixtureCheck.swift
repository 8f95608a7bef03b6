import JSONCore
import BridgeContracts
import BridgeHost

/// Checks an event fixture by emitting it through a mock host, as the app would: a valid message
/// must reach the page exactly as written; an invalid one must be refused with every error the
/// fixture names, and nothing posted.
@MainActor
public enum EventFixtureCheck {
    public static func problems(_ fixture: EventFixture, compiled: CompiledContracts) throws(BridgeHostSetupError) -> [String] {
        guard case .object(let fields) = fixture.message, let event = fixture.message["event"]?.stringValue,
              let rawVersion = fixture.message["version"]?.integerValue, let version = Int(exactly: rawVersion),
              let payload = fixture.message["payload"] else {
            return ["\"message\" must be a page-bound message {\"v\":1,\"event\",\"version\",\"payload\"}"]
        }
        let extra = fields.keys.filter { !["v", "event", "version", "payload"].contains($0) }
        if !extra.isEmpty || fixture.message["v"]?.integerValue != Int64(BuiltInEvents.envelopeVersion) {
            return ["the host builds the envelope itself: a message has v 1 and only event, version and payload (found \(fields.keys.joined(separator: ", ")))"]
        }
        let host = try MockBridgeHost(compiled: compiled)
        do {
            try host.emit(event: event, version: version, payload: payload)
        } catch {
            return refusalProblems(fixture, error: error, host: host)
        }
        guard fixture.valid else { return ["expected a refusal, but the page got \(fixture.message.serialized())"] }
        guard host.pageEventsPosted.count == 1, host.pageEventsPosted[0].message == fixture.message else {
            return ["expected the page to get the message as written, got \(host.pageEventsPosted.map { $0.text })"]
        }
        return []
    }

    private static func refusalProblems(_ fixture: EventFixture, error: PageEventError, host: MockBridgeHost) -> [String] {
        var problems: [String] = []
        if !host.pageEventsPosted.isEmpty { problems.append("refused, yet something was posted to the page") }
        guard !fixture.valid else { return problems + ["expected the page to get it, got a refusal: \(error)"] }
        guard case .invalidPayload = error else { return problems + ["expected a schema refusal, got: \(error)"] }
        return problems + fixture.errors.unreported(in: error.details)
    }
}
