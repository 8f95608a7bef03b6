import JSONCore
import SchemaCheck

/// What a page calls: each action with the versions it can send, highest first. Written by the
/// fake host (`fakeHost.writeUsage(path)`) from the page's own tests, or by hand:
/// `{"page": "event/new-user-promo", "calls": [{"action": "apply", "versions": [2, 1]}]}`.
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

    public let page: String
    /// Each distinct call once, in first-seen order.
    public let calls: [Call]

    public init(page: String, calls: [Call]) {
        self.page = page
        var seen: Set<Call> = []
        self.calls = calls.filter { seen.insert($0).inserted }
    }

    /// Reads a usage file; every action and version must be one the manifest has (a usage that
    /// names an unknown one is a mistake, not a deploy decision). Errors name the file and pointer.
    public static func parse(_ text: String, file: String, manifest: BridgeManifest) throws(ReleaseError) -> PageUsage {
        let document: JSONValue
        do {
            document = try JSONDocument(text, limits: .unlimited).value
        } catch {
            throw ReleaseError("\(file): not valid JSON: \(error)")
        }
        func fail(_ pointer: String, _ message: String) -> ReleaseError {
            ReleaseError("\(file): \(pointer.isEmpty ? "(root)" : pointer): \(message)")
        }
        guard case .object(let root) = document else { throw fail("", "expected an object {\"page\", \"calls\": [...]}") }
        for key in root.keys where !["page", "calls", "$comment", "recordedBy"].contains(key) {
            throw fail("/" + JSONPointer.escape(key), "unknown member (expected page, calls)")
        }
        guard let page = root["page"]?.stringValue, !page.isEmpty else { throw fail("/page", "expected the page's name, a non-empty string") }
        guard case .array(let items)? = root["calls"] else { throw fail("/calls", "expected an array of {\"action\", \"versions\"}") }
        let actionNames = manifest.actions.map(\.name).joined(separator: ", ")
        var calls: [Call] = []
        for (index, item) in items.enumerated() {
            let at = "/calls/\(index)"
            guard case .object(let call) = item else { throw fail(at, "expected {\"action\": NAME, \"versions\": [N, ...]}") }
            for key in call.keys where key != "action" && key != "versions" {
                throw fail(at + "/" + JSONPointer.escape(key), "unknown member (expected action, versions)")
            }
            guard let name = call["action"]?.stringValue else { throw fail(at + "/action", "expected an action name") }
            guard let action = manifest.action(named: name) else {
                throw fail(at + "/action", "unknown action \"\(name)\" (actions: \(actionNames))")
            }
            guard case .array(let numbers)? = call["versions"], !numbers.isEmpty else {
                throw fail(at + "/versions", "expected a non-empty array of the versions the page can send")
            }
            var versions: [Int] = []
            for (position, number) in numbers.enumerated() {
                guard let value = number.integerValue, let version = Int(exactly: value), version >= 1 else {
                    throw fail(at + "/versions/\(position)", "expected a positive integer")
                }
                guard action.contract(version: version) != nil else {
                    throw fail(at + "/versions/\(position)", "\(name) has no version \(version) (versions: \(action.versions.map { String($0.version) }.joined(separator: ", ")))")
                }
                guard !versions.contains(version) else { throw fail(at + "/versions/\(position)", "version \(version) is listed twice") }
                versions.append(version)
            }
            calls.append(Call(action: name, versions: versions))
        }
        return PageUsage(page: page, calls: calls)
    }
}
