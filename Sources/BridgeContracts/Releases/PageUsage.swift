import JSONCore
import SchemaCheck

/// What a page calls: each action with the versions it can send, highest first; and the app's
/// events it subscribes to, with the versions it reads. Written by the fake host
/// (`fakeHost.writeUsage(path)`) from the page's own tests, or by hand:
/// `{"page": "event/new-user-promo", "calls": [{"action": "apply", "versions": [2, 1]}],
///   "events": [{"event": "login_state_changed", "versions": [1]}]}`.
public struct PageUsage: Sendable, Equatable {
    public struct Call: Sendable, Hashable {
        public let action: String
        /// Highest first: the shim sends the first one the app takes.
        public let versions: [Int]

        public init(action: String, versions: [Int]) {
            self.action = action
            self.versions = versions.sorted(by: >)
        }

        /// "apply v2, v1"
        public var label: String { action + " " + versions.map { "v\($0)" }.joined(separator: ", ") }
    }

    /// An event the page subscribes to (`bridge.on`), with the versions it reads.
    public struct Subscription: Sendable, Hashable {
        public let event: String
        /// Ascending.
        public let versions: [Int]

        public init(event: String, versions: [Int]) {
            self.event = event
            self.versions = versions.sorted()
        }

        /// "login_state_changed v1"
        public var label: String { event + " " + versions.map { "v\($0)" }.joined(separator: ", ") }
    }

    public let page: String
    /// Each distinct call once, in first-seen order.
    public let calls: [Call]
    /// Each distinct subscription once, in first-seen order (`"events"`; none when absent).
    public let subscriptions: [Subscription]

    public init(page: String, calls: [Call], subscriptions: [Subscription] = []) {
        self.page = page
        var seen: Set<Call> = []
        self.calls = calls.filter { seen.insert($0).inserted }
        var seenSubscriptions: Set<Subscription> = []
        self.subscriptions = subscriptions.filter { seenSubscriptions.insert($0).inserted }
    }

    /// Reads a usage file; every action, event and version must be one the manifest has (a usage
    /// that names an unknown one is a mistake, not a deploy decision). Errors name the file and pointer.
    public static func parse(_ text: String, file: String, manifest: BridgeManifest) throws(ReleaseError) -> PageUsage {
        let document: JSONValue
        do {
            document = try JSONDocument(text, limits: .unlimited).value
        } catch {
            throw ReleaseError("\(file): not valid JSON: \(error)")
        }
        let reader = UsageReader(file: file, manifest: manifest)
        guard case .object(let root) = document else { throw reader.fail("", "expected an object {\"page\", \"calls\": [...]}") }
        for key in root.keys where !["page", "calls", "events", "$comment", "recordedBy"].contains(key) {
            throw reader.fail("/" + JSONPointer.escape(key), "unknown member (expected page, calls, events)")
        }
        guard let page = root["page"]?.stringValue, !page.isEmpty else { throw reader.fail("/page", "expected the page's name, a non-empty string") }
        guard case .array(let items)? = root["calls"] else { throw reader.fail("/calls", "expected an array of {\"action\", \"versions\"}") }
        var calls: [Call] = []
        for (index, item) in items.enumerated() { calls.append(try reader.call(item, at: "/calls/\(index)")) }
        var subscriptions: [Subscription] = []
        if let events = root["events"] {
            guard case .array(let entries) = events else { throw reader.fail("/events", "expected an array of {\"event\", \"versions\"}") }
            for (index, entry) in entries.enumerated() { subscriptions.append(try reader.subscription(entry, at: "/events/\(index)")) }
        }
        return PageUsage(page: page, calls: calls, subscriptions: subscriptions)
    }
}

/// The parts of a usage file, each checked against the manifest.
private struct UsageReader {
    let file: String
    let manifest: BridgeManifest

    func fail(_ pointer: String, _ message: String) -> ReleaseError {
        ReleaseError("\(file): \(pointer.isEmpty ? "(root)" : pointer): \(message)")
    }

    func call(_ item: JSONValue, at: String) throws(ReleaseError) -> PageUsage.Call {
        guard case .object(let call) = item else { throw fail(at, "expected {\"action\": NAME, \"versions\": [N, ...]}") }
        for key in call.keys where key != "action" && key != "versions" {
            throw fail(at + "/" + JSONPointer.escape(key), "unknown member (expected action, versions)")
        }
        guard let name = call["action"]?.stringValue else { throw fail(at + "/action", "expected an action name") }
        guard let action = manifest.action(named: name) else {
            throw fail(at + "/action", "unknown action \"\(name)\" (actions: \(manifest.actions.map(\.name).joined(separator: ", ")))")
        }
        let versions = try self.versions(call["versions"], at: at + "/versions", of: name, declared: action.versions.map(\.version),
                                          what: "the versions the page can send")
        return PageUsage.Call(action: name, versions: versions)
    }

    func subscription(_ item: JSONValue, at: String) throws(ReleaseError) -> PageUsage.Subscription {
        guard case .object(let entry) = item else { throw fail(at, "expected {\"event\": NAME, \"versions\": [N, ...]}") }
        for key in entry.keys where key != "event" && key != "versions" {
            throw fail(at + "/" + JSONPointer.escape(key), "unknown member (expected event, versions)")
        }
        guard let name = entry["event"]?.stringValue else { throw fail(at + "/event", "expected an event name") }
        guard let event = manifest.event(named: name) else {
            throw fail(at + "/event", "unknown event \"\(name)\" (events: \(manifest.allEvents.map(\.name).joined(separator: ", ")))")
        }
        let versions = try self.versions(entry["versions"], at: at + "/versions", of: name, declared: event.versions.map(\.version),
                                          what: "the versions the page reads")
        return PageUsage.Subscription(event: name, versions: versions)
    }

    /// A non-empty list of distinct versions, each one `declared`.
    private func versions(_ value: JSONValue?, at: String, of name: String, declared: [Int], what: String) throws(ReleaseError) -> [Int] {
        guard case .array(let numbers)? = value, !numbers.isEmpty else { throw fail(at, "expected a non-empty array of \(what)") }
        var versions: [Int] = []
        for (position, number) in numbers.enumerated() {
            guard let value = number.integerValue, let version = Int(exactly: value), version >= 1 else {
                throw fail(at + "/\(position)", "expected a positive integer")
            }
            guard declared.contains(version) else {
                throw fail(at + "/\(position)", "\(name) has no version \(version) (versions: \(declared.map(String.init).joined(separator: ", ")))")
            }
            guard !versions.contains(version) else { throw fail(at + "/\(position)", "version \(version) is listed twice") }
            versions.append(version)
        }
        return versions
    }
}
