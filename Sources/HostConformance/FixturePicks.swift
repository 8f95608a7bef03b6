import JSONCore
import BridgeContracts
import DeeplinkRouting

/// The fixtures the scenario cases start from, picked by what they show, never by name: another
/// company's set has other actions and other files.
struct FixturePicks {
    let fixtures: [Fixture]
    /// The routes that need a logged-in person.
    let routesNeedingLogin: Set<String>

    init(fixtures: [Fixture], routes: [RouteDefinition]) {
        self.fixtures = fixtures
        routesNeedingLogin = Set(routes.filter(\.requiresAuth).map(\.name))
    }

    /// A request the host must park while the person is logged out, and the route it then takes.
    struct Gated {
        let fixture: Fixture
        let route: JSONValue?
    }

    /// Valid requests (a message with a string id) from the page's own origin and main frame.
    var requests: [Fixture] {
        fixtures.filter { fixture in
            fixture.expect.valid && fixture.message?["id"]?.stringValue != nil && fixture.origin == nil && fixture.isMainFrame
                && fixture.installed.isEmpty
        }
    }

    /// A logged-out request the fixtures show parked for login; else a logged-in one that
    /// navigates to a route needing login, which must be parked when sent logged out.
    var gated: Gated? {
        if let shown = requests.first(where: { !$0.authenticated && $0.expect.reply?["result"]?["pendingLogin"] == true }) {
            return Gated(fixture: shown, route: shown.expect.reply?["result"]?["route"])
        }
        let derived = requests.first { fixture in
            guard fixture.authenticated, let route = fixture.expect.navigation?["route"]?.stringValue else { return false }
            return routesNeedingLogin.contains(route)
        }
        return derived.map { Gated(fixture: $0, route: $0.expect.navigation?["route"]) }
    }

    /// A logged-in request that navigates in the app, and what it navigates to.
    var navigating: Fixture? {
        requests.first { $0.authenticated && $0.expect.navigation?.objectValue != nil }
    }

    /// A request opened from an entry link whose campaign reaches the navigation.
    var campaigned: Fixture? {
        requests.first { fixture in
            fixture.authenticated && fixture.entry != nil && fixture.expect.navigation?["campaign"]?.objectValue?.isEmpty == false
        }
    }

    /// A logged-in request of `action` at `version`.
    func request(_ action: String, version: Int) -> Fixture? {
        requests.first { $0.authenticated && $0.action == action && $0.version == version }
    }

    /// The open line of a fixture's page.
    static func open(_ fixture: Fixture) -> JSONValue {
        var open = JSONObject([("type", "open"), ("url", fixture.entry.map { .string($0) } ?? .null)])
        if let source = fixture.source { open["source"] = .string(source) }
        return .object(open)
    }
}
