import JSONCore
import DeeplinkRouting
import DeeplinkNavigation

/// A step of a scenario after its message (the story of a deferred deep link, the clock), written
/// as the JSON line `bridgectl host --stdio` reads and `bridgectl simulate --step` takes: the one
/// parser both use, so both answer a bad step with the same message naming the field.
///
///     {"type":"deferred","url":URL,"source":SOURCE?}   install attribution hands over the link
///     {"type":"interaction"}                           the person used the app (a tap, a scroll)
///     {"type":"accept","offer":N}                      the person takes offer N
///     {"type":"dismiss","offer":N}                     the person swipes offer N away
///     {"type":"advance","ms":N}                        time passes on the mock host's clock
public enum ScenarioStep: Sendable, Equatable {
    case deferred(url: String, source: CampaignMetadata.Source?)
    case interaction
    case accept(offer: EnvelopeID)
    case dismiss(offer: EnvelopeID)
    case advance(byMs: Int)

    /// A deferred link's source must be built in or declared by the contracts' routes.json.
    public func checkSource(against channels: ChannelRules) throws(ScenarioError) {
        guard case .deferred(_, let source?) = self, !channels.knownSources.contains(source) else { return }
        throw ScenarioError("\"source\" must be one of \(channels.knownSources.map(\.rawValue).joined(separator: ", "))")
    }

    /// The step types this parser reads.
    public static let types = ["deferred", "interaction", "accept", "dismiss", "advance"]

    /// Reads a step object; the error names the field at fault.
    public init(_ object: JSONObject) throws(ScenarioError) {
        switch object["type"]?.stringValue {
        case "deferred":
            guard let value = object["url"] else { throw ScenarioError("missing \"url\" (the deferred link)") }
            guard let url = value.stringValue else { throw ScenarioError("\"url\" must be a string (the deferred link)") }
            var source: CampaignMetadata.Source?
            if let value = object["source"], value != .null {
                // Checked against the contracts' channels when the scenario runs.
                guard let name = value.stringValue, !name.isEmpty else {
                    throw ScenarioError("\"source\" must be a channel name (push, externalURL, appInternal or a declared one)")
                }
                source = CampaignMetadata.Source(rawValue: name)
            }
            self = .deferred(url: url, source: source)
        case "interaction":
            self = .interaction
        case let type? where type == "accept" || type == "dismiss":
            guard let value = object["offer"] else { throw ScenarioError("missing \"offer\" (the number of an offer line)") }
            guard let raw = value.integerValue, let number = Int(exactly: raw), number > 0 else {
                throw ScenarioError("\"offer\" must be a positive integer (the number of an offer line)")
            }
            self = type == "accept" ? .accept(offer: EnvelopeID(number)) : .dismiss(offer: EnvelopeID(number))
        case "advance":
            guard let milliseconds = object["ms"]?.integerValue, milliseconds >= 0, milliseconds <= 86_400_000 else {
                throw ScenarioError("\"ms\" must be an integer from 0 to 86400000")
            }
            self = .advance(byMs: Int(milliseconds))
        default:
            throw ScenarioError("\"type\" must be one of \(Self.types.joined(separator: ", "))")
        }
    }

    /// Reads a step from its JSON text (`simulate --step`).
    public init(text: String) throws(ScenarioError) {
        guard case .object(let object)? = try? JSONValue(parsing: text) else {
            throw ScenarioError("a step is a JSON object such as {\"type\":\"interaction\"}, not \(text)")
        }
        try self.init(object)
    }

    /// Runs the step on the host. A link that does not route, or an offer that cannot be taken
    /// (ended, or never made), is an error saying which; nothing is navigated then.
    @MainActor
    public func run(on host: MockBridgeHost) throws(ScenarioError) {
        switch self {
        case .deferred(let url, let source):
            do { try host.openDeferred(url, source: source) } catch {
                throw ScenarioError("the deferred link does not route: \(error)")
            }
        case .interaction:
            host.interact()
        case .accept(let offer):
            do { try host.acceptOffer(offer) } catch { throw ScenarioError("cannot accept: \(error)") }
        case .dismiss(let offer):
            do { try host.dismissOffer(offer) } catch { throw ScenarioError("cannot dismiss: \(error)") }
        case .advance(let milliseconds):
            host.advanceClock(byMs: milliseconds)
        }
    }
}
