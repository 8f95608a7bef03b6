import JSONCore
import BridgeContracts
import BridgeHost
import DeeplinkNavigation

/// The state a host starts in, as the `hello` line of the host protocol sets it (version 1):
///
///     {"type":"hello","protocol":1,"setup":{"loggedIn":false,"appState":"coldStart",
///      "capabilities":{"app":"android@5.12.0","actions":{"apply":[1]},"events":{"navigation_completed":[1]}}}}
///
/// Every member is optional; a missing one keeps the host's own start (its command-line flags).
/// `bridgectl verify` starts one host per case and sets it up this way, so a host written in
/// another language (an Android app's test build) takes the same setups without flags of ours.
public struct HostSetup: Sendable, Equatable {
    public var loggedIn: Bool?
    public var appState: AppState?
    /// The app build to act as: exactly these action versions are taken, these events sent.
    public var capabilities: HostCapabilities?

    public init(loggedIn: Bool? = nil, appState: AppState? = nil, capabilities: HostCapabilities? = nil) {
        self.loggedIn = loggedIn
        self.appState = appState
        self.capabilities = capabilities
    }

    /// Reads a `setup` object; every problem names the member.
    public init(_ value: JSONValue, contracts: ContractSet) throws(ScenarioError) {
        guard case .object(let object) = value else { throw ScenarioError("\"setup\" must be an object") }
        for key in object.keys where !["loggedIn", "appState", "capabilities"].contains(key) {
            throw ScenarioError("setup: unknown member \"\(key)\" (loggedIn, appState, capabilities)")
        }
        if let flag = object["loggedIn"] {
            guard let known = flag.boolValue else { throw ScenarioError("setup/loggedIn must be true or false") }
            loggedIn = known
        }
        if let state = object["appState"] {
            guard let name = state.stringValue, let known = AppState(rawValue: name) else {
                throw ScenarioError("setup/appState must be one of foreground, background, coldStart")
            }
            appState = known
        }
        if let manifest = object["capabilities"] {
            capabilities = try Self.capabilities(manifest, contracts: contracts)
        }
    }

    /// `{"app": "PLATFORM@VERSION"?, "actions": {NAME: [N, ...]}, "events": {NAME: [N, ...]}?}`.
    static func capabilities(_ value: JSONValue, contracts: ContractSet) throws(ScenarioError) -> HostCapabilities {
        guard case .object(let object) = value else { throw ScenarioError("setup/capabilities must be an object") }
        for key in object.keys where !["app", "actions", "events", "bridge", "envelope"].contains(key) {
            throw ScenarioError("setup/capabilities: unknown member \"\(key)\" (app, actions, events)")
        }
        var build: AppBuild?
        if let app = object["app"] {
            guard let reference = app.stringValue else { throw ScenarioError("setup/capabilities/app must be \"PLATFORM@VERSION\"") }
            do { build = try AppBuild(reference: reference) } catch { throw ScenarioError("setup/capabilities/app: \(error)") }
        }
        guard let actions = object["actions"] else { throw ScenarioError("setup/capabilities/actions is missing") }
        let taken = try versionLists(actions, at: "setup/capabilities/actions")
        let sent = try object["events"].map { value throws(ScenarioError) in try versionLists(value, at: "setup/capabilities/events") } ?? []
        do {
            return try HostCapabilities(contracts: contracts, app: build, actions: taken, events: sent)
        } catch {
            throw ScenarioError("setup/capabilities: \(error)")
        }
    }

    private static func versionLists(_ value: JSONValue, at path: String) throws(ScenarioError) -> [ActionVersions] {
        guard case .object(let object) = value else { throw ScenarioError("\(path) must be an object of version lists") }
        var lists: [ActionVersions] = []
        for (name, versions) in object {
            guard let items = versions.arrayValue else { throw ScenarioError("\(path)/\(name) must be an array of versions") }
            var numbers: [Int] = []
            for item in items {
                guard let raw = item.integerValue, let number = Int(exactly: raw), number >= 1 else {
                    throw ScenarioError("\(path)/\(name) must hold positive integers")
                }
                numbers.append(number)
            }
            lists.append(ActionVersions(action: name, versions: Array(Set(numbers)).sorted()))
        }
        return lists
    }
}
