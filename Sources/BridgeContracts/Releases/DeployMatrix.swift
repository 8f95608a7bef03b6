/// `can-i-deploy`: every supported app build against every call a page makes, decided by the
/// shim's own rule. The shim sends the highest version the page offers that the build takes; a
/// build that takes none of them but has other versions of the action answers
/// UNSUPPORTED_VERSION (the shim never falls back then); a build without the action at all gets
/// the contract's fallback (the Universal Link), or nothing when the contract has none. Each
/// event the page subscribes to that a supported build never sends (in a version the page
/// reads) is a warning.
public struct DeployMatrix: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// The page's highest version is sent.
        case ok(version: Int)
        /// An older version the page also offers is sent.
        case olderVersion(Int)
        /// The build has no version of the action: the Universal Link opens instead.
        case fallback
        /// The call fails on this build: why, in a few words.
        case broken(String)

        public var isBroken: Bool {
            if case .broken = self { return true }
            return false
        }

        public var isFallback: Bool { self == .fallback }

        /// The cell text: ok, ok (older version N), fallback, BROKEN.
        public var label: String {
            switch self {
            case .ok: return "ok"
            case .olderVersion(let version): return "ok (older version \(version))"
            case .fallback: return "fallback"
            case .broken: return "BROKEN"
            }
        }
    }

    public struct Row: Sendable {
        public let release: AppRelease
        /// One per call of the usage, in its order.
        public let outcomes: [Outcome]
    }

    /// A supported build that never sends an event version the page subscribes to. A warning,
    /// not a refusal: a page must cope with an event that never comes.
    public struct EventWarning: Sendable, Equatable {
        public let build: AppBuild
        public let subscription: PageUsage.Subscription
        /// The versions of the event the build does send: none, or only others.
        public let sent: [Int]

        /// "ios 5.13.0 never sends login_state_changed v1 (it sends no version of it)"
        public var text: String {
            let sends = sent.isEmpty ? "it sends no version of it" : "it sends \(sent.map { "v\($0)" }.joined(separator: ", ")) only"
            return "\(build) never sends \(subscription.label) (\(sends)): the page's handlers never run there"
        }
    }

    public let usage: PageUsage
    /// Supported builds, by platform then newest first.
    public let rows: [Row]
    /// Per subscription, then per build in row order.
    public let eventWarnings: [EventWarning]

    public init(usage: PageUsage, catalog: ReleaseCatalog, manifest: BridgeManifest) {
        self.usage = usage
        let builds = catalog.supported.sorted {
            $0.build.platform != $1.build.platform ? $0.build < $1.build : $0.build.version > $1.build.version
        }
        rows = builds.map { release in
            Row(release: release, outcomes: usage.calls.map { Self.outcome(of: $0, on: release, manifest: manifest) })
        }
        eventWarnings = usage.subscriptions.flatMap { subscription in
            builds.compactMap { Self.warning(for: subscription, on: $0) }
        }
    }

    /// A warning when the build sends none of the versions the page reads (a build recorded
    /// before events existed sends none at all).
    public static func warning(for subscription: PageUsage.Subscription, on release: AppRelease) -> EventWarning? {
        let sent = release.versions(ofEvent: subscription.event)
        guard !subscription.versions.contains(where: sent.contains) else { return nil }
        return EventWarning(build: release.build, subscription: subscription, sent: sent)
    }

    static func outcome(of call: PageUsage.Call, on release: AppRelease, manifest: BridgeManifest) -> Outcome {
        let taken = release.versions(of: call.action)
        if let best = call.versions.first(where: taken.contains) {
            return best == call.versions[0] ? .ok(version: best) : .olderVersion(best)
        }
        if !taken.isEmpty {
            return .broken("takes \(call.action) \(taken.map { "v\($0)" }.joined(separator: ", ")) only and answers UNSUPPORTED_VERSION to \(call.versions.map { "v\($0)" }.joined(separator: ", "))")
        }
        let fallback = manifest.action(named: call.action)?.contract(version: call.versions[0])?.fallback
        return fallback == .universalLink ? .fallback : .broken("has no \(call.action), and its contract has no fallback")
    }

    /// Rows with at least one BROKEN call.
    public var brokenRows: [Row] { rows.filter { $0.outcomes.contains(where: \.isBroken) } }
    /// Rows not broken where at least one call only falls back.
    public var fallbackRows: [Row] { rows.filter { row in !row.outcomes.contains(where: \.isBroken) && row.outcomes.contains(where: \.isFallback) } }

    /// Whether the page may ship: no supported build broken, and with `strict` none that only falls back.
    public func deployable(strict: Bool) -> Bool {
        brokenRows.isEmpty && (!strict || fallbackRows.isEmpty)
    }

    /// The sessions on some rows: known shares added up, and how many rows have no share.
    public static func share(of rows: [Row]) -> (percent: Double, unknown: Int) {
        (rows.compactMap(\.release.share).reduce(0, +), rows.filter { $0.release.share == nil }.count)
    }
}
