import JSONCore
import BridgeContracts

/// What this host takes, as the page reads it: the capability manifest
/// `{"bridge", "envelope", "app": {"platform", "version"}, "actions": {"apply": [1, 2], ...},
/// "events": {"navigation_completed": [1], ...}}` (`events` only when the build sends any).
/// A real app builds it from its own platform and version and the contracts it was built with
/// (every version); a test host or `bridgectl host --release` builds it from a recorded release.
/// The host accepts exactly these action versions and answers the others UNKNOWN_ACTION or
/// UNSUPPORTED_VERSION, as that build does in the field.
public struct HostCapabilities: Sendable, Equatable {
    /// The built-in request a page sends to read the manifest again over the bridge.
    public static let requestAction = BridgeManifest.capabilitiesRequestAction
    public static let requestVersion = 1

    public let bridge: String
    public let envelope: Int
    /// The app build; nil for a development host that is no recorded build.
    public let app: AppBuild?
    /// In manifest order, versions ascending; an action the build lacks is absent.
    public let actions: [ActionVersions]
    /// The events the build sends its pages (`action` is the event name), built-in first.
    public let events: [ActionVersions]

    /// Every action version of the contracts: an app built with them (or, without `app`, a
    /// development host).
    public init(contracts: ContractSet, app: AppBuild? = nil) {
        bridge = contracts.manifest.bridge
        envelope = contracts.manifest.envelopeVersion
        self.app = app
        actions = AppRelease.actions(of: contracts.manifest)
        events = AppRelease.events(of: contracts.manifest)
    }

    /// Exactly what a recorded build takes. Every version must be one the contracts have: the host
    /// needs its schema and mapping to accept it.
    public init(contracts: ContractSet, release: AppRelease) throws(ReleaseError) {
        try self.init(contracts: contracts, app: release.build, actions: release.actions, events: release.events)
    }

    /// A build that takes `actions` and sends `events` (a host protocol setup, a recorded release).
    /// Every version must be one the contracts have; actions are kept in manifest order.
    public init(contracts: ContractSet, app: AppBuild?, actions taken: [ActionVersions], events sent: [ActionVersions]) throws(ReleaseError) {
        let who = app?.description ?? "this build"
        for entry in taken {
            let known = contracts.manifest.action(named: entry.action)
            for version in entry.versions where known?.contract(version: version) == nil {
                throw ReleaseError("\(who) takes \(entry.action) v\(version), which \(contracts.origin) do not have: a host cannot accept it")
            }
        }
        var actions: [ActionVersions] = []
        for action in contracts.manifest.actions {
            let versions = Array(Set(taken.filter { $0.action == action.name }.flatMap(\.versions))).sorted()
            guard !versions.isEmpty else { continue }
            actions.append(ActionVersions(action: action.name, versions: versions))
        }
        bridge = contracts.manifest.bridge
        envelope = contracts.manifest.envelopeVersion
        self.app = app
        self.actions = actions
        events = sent
    }

    /// The versions of `action` this host takes; empty when it lacks the action.
    public func versions(of action: String) -> [Int] {
        actions.first { $0.action == action }?.versions ?? []
    }

    public func takes(_ action: String, version: Int) -> Bool {
        withVersions(of: action) { $0.contains(version) }
    }

    /// Whether this build takes some version of `action` (`!versions(of:).isEmpty`, in place).
    public func takesAnyVersion(of action: String) -> Bool {
        withVersions(of: action) { !$0.isEmpty }
    }

    /// `body` on the action's version list where it lies (the host asks for every message; a
    /// copy of the list would be a reference count taken and dropped).
    private func withVersions(of action: String, _ body: ([Int]) -> Bool) -> Bool {
        guard let index = actions.firstIndex(where: { $0.action == action }) else { return body([]) }
        return body(actions[index].versions)
    }

    /// Whether this build sends version `version` of `event`.
    public func sends(_ event: String, version: Int) -> Bool {
        events.first { $0.action == event }?.versions.contains(version) ?? false
    }

    public var json: JSONValue {
        var object = JSONObject([("bridge", .string(bridge)), ("envelope", .integer(Int64(envelope)))])
        if let app {
            object["app"] = ["platform": .string(app.platform.rawValue), "version": .string(app.version.description)]
        }
        object["actions"] = .object(JSONObject(actions.map { ($0.action, .array($0.versions.map { .integer(Int64($0)) })) }))
        // A build recorded before events existed sends none and says nothing of them, as it did.
        if !events.isEmpty {
            object["events"] = .object(JSONObject(events.map { ($0.action, .array($0.versions.map { .integer(Int64($0)) })) }))
        }
        return .object(object)
    }

    /// The global the manifest is installed under: window.<bridge>Capabilities.
    public var globalName: String { bridge + "Capabilities" }

    /// The document-start script that installs the manifest: the template js/host/capabilities.js
    /// (embedded at build time) with its two arguments filled in as JSON literals.
    public var documentStartScript: String {
        // One pass over the template: a value is never searched for placeholders itself.
        let values = [Self.globalPlaceholder: JSONValue.string(globalName).serialized(escapeForScript: true),
                      Self.manifestPlaceholder: json.serialized(escapeForScript: true)]
        var out = ""
        var rest = Self.scriptTemplate[...]
        while let next = values.keys.compactMap({ key in rest.firstRange(of: key).map { (key, $0) } }).min(by: { $0.1.lowerBound < $1.1.lowerBound }) {
            out += rest[..<next.1.lowerBound] + values[next.0]!
            rest = rest[next.1.upperBound...]
        }
        return out + rest
    }

    static let globalPlaceholder = "BRIDGEKIT_CAPABILITIES_GLOBAL"
    static let manifestPlaceholder = "BRIDGEKIT_CAPABILITIES_MANIFEST"

    /// The template as built in, for tests that check it has each placeholder exactly once.
    public static var scriptTemplate: String { BundledHostScripts.files["capabilities.js"]! }
}
