import BridgeContracts

/// Every case a contract set gives, up to a level: the fixtures, then the scenarios made from them.
public struct ConformanceSuite: Sendable {
    public let cases: [ConformanceCase]
    /// Cases this set cannot make (it lacks the fixture they start from), reported, never dropped.
    public let unbuilt: [UnbuiltCase]

    public init(contracts: ContractSet, upTo level: ConformanceLevel = .events) {
        let picks = FixturePicks(fixtures: contracts.fixtures, routes: contracts.routes)
        let manifest = contracts.manifest
        let messages = MessageCases.cases(picks, manifest: manifest)
        let navigation = NavigationCases.cases(picks, manifest: manifest)
        let events = EventCases.cases(contracts.eventFixtures, picks: picks, manifest: manifest)
        let all = FixtureCases.cases(contracts.fixtures) + messages.built + navigation.built + events.built
        cases = all.filter { $0.level <= level }
        unbuilt = (messages.unbuilt + navigation.unbuilt + events.unbuilt).filter { $0.level <= level }
    }
}
