#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import DeeplinkRouting

/// Identifies one entry into the navigator. Sequential rather than random so logs and tests
/// read in arrival order.
public struct EnvelopeID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: Int
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public static func < (lhs: EnvelopeID, rhs: EnvelopeID) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// One entry (push, link, CTA) wrapped once at the door, as the coordinator seed's RouteEnvelope:
/// everything after this point talks about the envelope, so every exit path can mark it consumed.
public struct RouteEnvelope: Sendable, Equatable {
    public let id: EnvelopeID
    public let route: ParsedDeeplink
    /// The door the request came through (push, a marketing link, a web CTA...), checked against
    /// the route's `enabledFrom`.
    public let channel: EntryChannel
    public let receivedAt: Date
    /// Same destination, same parameters, same campaign: the same payload delivered twice
    /// (e.g. a pending route and a notification tap) has the same fingerprint.
    public let fingerprint: String
    /// The offer of a deferred deep link the person took to make this envelope: it navigates even
    /// though they are browsing, and it is no duplicate of the envelope that was offered.
    public let acceptedOffer: EnvelopeID?

    public init(id: EnvelopeID, route: ParsedDeeplink, channel: EntryChannel? = nil, receivedAt: Date, fingerprint: String? = nil,
                acceptedOffer: EnvelopeID? = nil) {
        self.id = id
        self.acceptedOffer = acceptedOffer
        self.route = route
        self.channel = channel ?? EntryChannel(route.campaignMetadata.source)
        self.receivedAt = receivedAt
        self.fingerprint = fingerprint ?? RouteEnvelope.fingerprint(of: route)
    }

    /// A canonical text of the routed payload: route name, path parameters, query (keys sorted,
    /// repeated values in order) and campaign metadata including its source. The channel is not
    /// part of it: a push delivered both as a pending route and as a tap is one payload.
    public static func fingerprint(of route: ParsedDeeplink) -> String {
        var path = JSONObject()
        for key in route.pathParameters.keys.sorted() { path[key] = .string(route.pathParameters[key]!) }
        var query = JSONObject()
        for key in route.queryParameters.keys.sorted() {
            query[key] = .array(route.queryParameters[key]!.map { .string($0) })
        }
        let canonical: JSONValue = [
            "route": .string(route.configuration.name),
            "path": .object(path),
            "query": .object(query),
            "campaign": route.campaignMetadata.json,
        ]
        return canonical.serialized(sortedKeys: true)
    }
}
