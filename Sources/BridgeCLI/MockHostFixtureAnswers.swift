import BridgeContracts
import BridgeHostTesting
import ContractCatalog

/// The catalog's fixture answers from the mock host: each fixture runs as a scenario, with the
/// real BridgeHost in front of a host that records what the app would open.
@MainActor
public struct MockHostFixtureAnswers: FixtureAnswering {
    public init() {}

    public func answer(_ fixture: Fixture, contracts: ContractSet) throws -> FixtureAnswer {
        let outcome = try Scenario(fixture: fixture).run(contracts: contracts)
        return FixtureAnswer(
            reply: outcome.reply,
            navigations: outcome.host.navigations.map { FixtureAnswer.Navigation(route: $0.route, url: $0.url) },
            afterLogin: outcome.host.loginPresentations > 0)
    }
}
