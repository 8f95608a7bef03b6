import BridgeContracts
import BridgeHost

/// What the app answers to one fixture, as a catalog page shows it: the reply and what the app
/// then opened. The catalog runs no host itself; its caller answers the fixtures (`bridgectl docs`
/// runs them through the mock host), so this module needs no test double.
public struct FixtureAnswer: Sendable, Equatable {
    public struct Navigation: Sendable, Equatable {
        public var route: String
        public var url: String

        public init(route: String, url: String) {
            self.route = route
            self.url = url
        }
    }

    /// nil for a notification (a message without an id gets no reply).
    public var reply: BridgeReply?
    public var navigations: [Navigation]
    /// The app asked for a login before it opened them.
    public var afterLogin: Bool

    public init(reply: BridgeReply?, navigations: [Navigation], afterLogin: Bool) {
        self.reply = reply
        self.navigations = navigations
        self.afterLogin = afterLogin
    }
}

/// Answers a contract set's fixtures the way the app would.
@MainActor
public protocol FixtureAnswering {
    func answer(_ fixture: Fixture, contracts: ContractSet) throws -> FixtureAnswer
}
