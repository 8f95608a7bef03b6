/// The platforms app builds ship on.
public enum AppPlatform: String, Sendable, Hashable, CaseIterable {
    case ios
    case android

    /// Parses a platform name, or says which ones exist.
    public init(naming name: String) throws(ReleaseError) {
        guard let platform = AppPlatform(rawValue: name) else {
            throw ReleaseError("unknown platform \"\(name)\" (platforms: \(AppPlatform.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = platform
    }
}

/// One app build: a platform and its version, e.g. `ios@5.13.0`.
public struct AppBuild: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let platform: AppPlatform
    public let version: SemanticVersion

    public init(platform: AppPlatform, version: SemanticVersion) {
        self.platform = platform
        self.version = version
    }

    /// Parses `PLATFORM@VERSION`, the form `--release` and the fake host take.
    public init(reference: String) throws(ReleaseError) {
        let parts = reference.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw ReleaseError("\"\(reference)\" is not PLATFORM@VERSION (e.g. ios@5.13.0)")
        }
        try self.init(platform: String(parts[0]), version: String(parts[1]))
    }

    /// From the two words `release record` takes.
    public init(platform: String, version: String) throws(ReleaseError) {
        self.platform = try AppPlatform(naming: platform)
        do {
            self.version = try SemanticVersion(parsing: version)
        } catch {
            throw ReleaseError(error.description)
        }
    }

    /// `ios@5.13.0`
    public var reference: String { "\(platform.rawValue)@\(version)" }
    /// `ios 5.13.0`
    public var description: String { "\(platform.rawValue) \(version)" }

    /// Platform order first (ios, android), then version.
    public static func < (left: AppBuild, right: AppBuild) -> Bool {
        let order = AppPlatform.allCases
        if left.platform != right.platform {
            return order.firstIndex(of: left.platform)! < order.firstIndex(of: right.platform)!
        }
        return left.version < right.version
    }
}

/// The versions of one action an app build takes (or of one event it sends), ascending.
public struct ActionVersions: Sendable, Hashable {
    public let action: String
    public let versions: [Int]

    public init(action: String, versions: [Int]) {
        self.action = action
        self.versions = versions
    }
}

/// One app build in the field, as releases.json records it.
public struct AppRelease: Sendable, Equatable {
    public enum Status: String, Sendable, CaseIterable {
        case supported
        /// No longer supported: `can-i-deploy` leaves it out and its versions are no longer protected.
        case supportEnded = "support-ended"
    }

    public let build: AppBuild
    public var status: Status
    /// Percent of sessions (0...100) on this build, when known.
    public var share: Double?
    /// The action versions the build takes, in manifest order.
    public let actions: [ActionVersions]
    /// The event versions the build sends its pages (`"events"` in releases.json; a build recorded
    /// before events existed sends none).
    public var events: [ActionVersions] = []

    public init(build: AppBuild, status: Status = .supported, share: Double? = nil, actions: [ActionVersions],
                events: [ActionVersions] = []) {
        self.build = build
        self.status = status
        self.share = share
        self.actions = actions
        self.events = events
    }

    public var isSupported: Bool { status == .supported }

    /// The versions of `action` this build takes; empty when it does not have the action.
    public func versions(of action: String) -> [Int] {
        actions.first { $0.action == action }?.versions ?? []
    }

    /// The versions of `event` this build sends; empty when it never sends it.
    public func versions(ofEvent event: String) -> [Int] {
        events.first { $0.action == event }?.versions ?? []
    }

    /// "apply v1, v2; view_vehicles v1; start v1"
    public var actionSummary: String {
        actions.isEmpty ? "no actions" : Self.summary(actions)
    }

    /// "navigation_completed v1; login_state_changed v1"
    public var eventSummary: String {
        events.isEmpty ? "no events" : Self.summary(events)
    }

    private static func summary(_ entries: [ActionVersions]) -> String {
        entries.map { entry in entry.action + " " + entry.versions.map { "v\($0)" }.joined(separator: ", ") }.joined(separator: "; ")
    }

    /// The current contract set as a build's capabilities: every version of every action.
    public static func actions(of manifest: BridgeManifest) -> [ActionVersions] {
        manifest.actions.map { ActionVersions(action: $0.name, versions: $0.versions.map(\.version)) }
    }

    /// The current contract set's events as a build's: every version of every event, built-in first.
    public static func events(of manifest: BridgeManifest) -> [ActionVersions] {
        manifest.allEvents.map { ActionVersions(action: $0.name, versions: $0.versions.map(\.version)) }
    }
}

/// A release command or reference that cannot be carried out: one line saying why.
public struct ReleaseError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
