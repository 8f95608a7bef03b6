import JSONCore

/// A contract test shared with the web team: one file under fixtures/<action>/v<version>/.
/// The same files run in `swift test`, in `node --test` against the generated shim, and in
/// `bridgectl check`.
public struct Fixture: Sendable {
    /// Path inside the contracts folder, e.g. "fixtures/apply/v1/valid-basic.json".
    public let path: String
    public let description: String
    /// The message body exactly as the page posts it: `message` serialized, or `raw` verbatim
    /// (for bodies JSON cannot hold as a value, such as duplicate keys).
    public let body: String
    public let message: JSONValue?
    /// The WebView-attested origin; nil (not stated) means the manifest's first allowed origin.
    public let origin: String?
    public let isMainFrame: Bool
    /// The deep link that opened the page, if any.
    public let entry: String?
    public let source: String?
    public let authenticated: Bool
    /// The apps installed on the simulated device, by URL scheme ("mapsapp"): for external
    /// destinations. None when the fixture does not say.
    public let installed: [String]
    public let expect: Expectation

    public struct ExpectedError: Sendable, Equatable {
        public let instanceLocation: String
        public let keyword: String?
    }

    public struct Expectation: Sendable {
        public let valid: Bool
        /// For invalid messages: the reply's error code (INVALID_PARAMS when not stated).
        public let code: String?
        public let errors: [ExpectedError]
        /// For valid messages: the expected navigation record fields (route, url, pendingLogin...).
        public let navigation: JSONValue?
        /// The expected reply, compared on the fields it names.
        public let reply: JSONValue?
        /// For external destinations: the expected open (`provider`, `target` app|fallback, `url`);
        /// null: nothing was opened.
        public let external: JSONValue?
    }

    /// "apply" and 1 for fixtures/apply/v1/...
    public var action: String? {
        let parts = path.split(separator: "/")
        return parts.count >= 3 ? String(parts[1]) : nil
    }

    public var version: Int? {
        let parts = path.split(separator: "/")
        guard parts.count >= 3, parts[2].hasPrefix("v") else { return nil }
        return Int(parts[2].dropFirst())
    }

    static func load(path: String, value: JSONValue) throws(ContractError) -> Fixture {
        let reader = FieldReader(file: path, value: value)
        let message = try reader.optionalChild("message")?.value
        let raw = try reader.optionalChild("raw")?.string()
        guard (message == nil) != (raw == nil) else {
            throw reader.fail("a fixture has exactly one of \"message\" and \"raw\"")
        }
        let expectReader = try reader.child("expect")
        let valid = try expectReader.child("valid").bool()
        var errors: [ExpectedError] = []
        if let list = try expectReader.optionalChild("errors") {
            guard let items = list.value.arrayValue else { throw list.fail("expected an array") }
            for index in items.indices {
                let item = FieldReader(file: path, value: items[index], pointer: "\(list.pointer)/\(index)")
                errors.append(ExpectedError(
                    instanceLocation: try item.child("instanceLocation").string(),
                    keyword: try item.optionalChild("keyword")?.string()
                ))
            }
        }
        let code = try expectReader.optionalChild("code")?.string()
        if !valid && errors.isEmpty && code == nil {
            throw expectReader.fail("an invalid fixture names its errors or its error code")
        }
        return Fixture(
            path: path,
            description: try reader.child("description").string(),
            body: raw ?? message!.serialized(),
            message: message,
            origin: try reader.optionalChild("origin")?.string(),
            isMainFrame: try reader.optionalChild("isMainFrame")?.bool() ?? true,
            entry: try reader.optionalChild("entry")?.string(),
            source: try reader.optionalChild("source")?.string(),
            authenticated: try reader.optionalChild("authenticated")?.bool() ?? true,
            installed: try reader.optionalChild("installed")?.strings() ?? [],
            expect: Expectation(
                valid: valid,
                code: code,
                errors: errors,
                navigation: try expectReader.optionalChild("navigation")?.value,
                reply: try expectReader.optionalChild("reply")?.value,
                external: try expectReader.optionalChild("external")?.value
            )
        )
    }
}
