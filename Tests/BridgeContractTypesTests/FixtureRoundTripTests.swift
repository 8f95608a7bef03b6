#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import JSONCore
import BridgeContracts
import BridgeContractTypes
import TestSupport

@Suite("BridgeContractTypes: every valid fixture decodes to its generated type and re-encodes to an equivalent message")
struct FixtureRoundTripTests {
    static let fixtures: [Fixture] = (try? ContractSet.load(directory: ExampleContracts.path, includingFixtures: true).fixtures) ?? []

    static var validFixtures: [Fixture] {
        fixtures.filter { $0.expect.valid && $0.message != nil }
    }

    /// Decode as T, encode again, read both as JSON values (member order does not matter).
    static func roundTrip<Message: BridgeMessage>(_ type: Message.Type, _ message: JSONValue) throws -> JSONValue {
        let decoded = try JSONDecoder().decode(Message.self, from: Data(message.serialized().utf8))
        let encoded = try JSONEncoder().encode(decoded)
        return try JSONValue(parsing: String(decoding: encoded, as: UTF8.self))
    }

    /// Equal as JSON Schema compares instances: `1.0` and `1` are the same number; members in any order.
    static func equivalent(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.integer, .number), (.number, .integer):
            guard let x = a.integerValue, let y = b.integerValue else { return false }
            return x == y
        case (.array(let left), .array(let right)):
            return left.count == right.count && zip(left, right).allSatisfy { equivalent($0, $1) }
        case (.object(let left), .object(let right)):
            return Set(left.keys) == Set(right.keys) && left.keys.allSatisfy { equivalent(left[$0]!, right[$0]!) }
        default:
            return a == b
        }
    }

    @Test("each valid fixture round-trips through its type", arguments: validFixtures.map(\.path))
    func validFixtureRoundTrips(path: String) throws {
        let fixture = try #require(Self.fixtures.first { $0.path == path })
        let message = try #require(fixture.message)
        let action = try #require(message["action"]?.stringValue)
        let version = Int(try #require(message["version"]?.integerValue))
        let type = try #require(ContractTypes.type(action: action, version: version), "no generated type for \(action) v\(version)")
        let again = try Self.roundTrip(type, message)
        #expect(Self.equivalent(again, message), "\(path): re-encoded as \(again)")
    }

    @Test("every action version of the manifest has a generated type and valid fixtures to prove it")
    func everyActionVersionIsCovered() throws {
        let manifest = try ContractSet.load(directory: ExampleContracts.path).manifest
        for action in manifest.actions {
            for contract in action.versions {
                #expect(ContractTypes.type(action: action.name, version: contract.version) != nil, "\(action.name) v\(contract.version)")
                #expect(Self.validFixtures.contains { $0.action == action.name && $0.version == contract.version },
                        "\(action.name) v\(contract.version) has no valid fixture")
            }
        }
        #expect(ContractTypes.all.count == manifest.actions.reduce(0) { $0 + $1.versions.count })
    }

    @Test("a message of another action does not decode as ApplyV1: the constants are checked")
    func constantsAreChecked() throws {
        let start = #"{"v":1,"id":"req-000001","action":"start","version":1,"payload":{}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ApplyV1.self, from: Data(start.utf8)) }
        let decoded = try JSONDecoder().decode(StartV1.self, from: Data(start.utf8))
        #expect(decoded.id == "req-000001")
        #expect(decoded.payload == StartV1.Payload())
    }

    @Test("typed access: the payload's enum and optional members, the shared campaign type")
    func typedAccess() throws {
        let text = #"{"v":1,"id":"req-000002","action":"view_vehicles","version":1,"payload":{"vehicleType":"2.5ton","page":2},"campaign":{"campaign_id":"c1","utm_source":"kakaotalk"}}"#
        let message = try JSONDecoder().decode(ViewVehiclesV1.self, from: Data(text.utf8))
        #expect(message.payload.vehicleType == ._2_5ton)
        #expect(message.payload.page == 2)
        #expect(message.payload.region == nil)
        #expect(message.campaign?.campaignId == "c1")
        #expect(ViewVehiclesV1.action == "view_vehicles" && ViewVehiclesV1.version == 1)
    }
}
