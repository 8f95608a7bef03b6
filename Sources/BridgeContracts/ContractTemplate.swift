import JSONCore

/// The smallest complete contract set for a new app, as `bridgectl init` writes it: a manifest,
/// one route, the envelope and campaign schemas (their `$id` under the adopter's domain), one
/// example action with a valid and an invalid fixture, the well-known files when app ids are
/// given, and empty releases and accepted changes. Every value comes from the inputs; nothing
/// of any company is built in. `lint` and `check` pass on what it writes.
public struct ContractTemplate: Sendable, Equatable {
    public let bridge: String
    /// The site's origin, `https://host[:port]`, without a trailing slash.
    public let webBaseURL: String
    public let host: String
    public let scheme: String
    public let ios: AppIdentities.IOS?
    public let android: AppIdentities.Android?

    /// The example action and the one route it opens.
    public static let actionName = "open_event"
    public static let routeName = "eventPage"

    /// Checks every input and refuses, naming the option, what is wrong with it.
    public init(
        bridge: String, webBaseURL: String, scheme: String, teamID: String? = nil, bundleID: String? = nil,
        androidPackage: String? = nil, certFingerprint: String? = nil
    ) throws(TemplateError) {
        try Self.checkBridge(bridge)
        let (origin, host) = try Self.origin(webBaseURL)
        try Self.checkScheme(scheme)
        self.bridge = bridge
        self.webBaseURL = origin
        self.host = host
        self.scheme = scheme.lowercased()
        ios = try Self.ios(teamID: teamID, bundleID: bundleID)
        android = try Self.android(package: androidPackage, fingerprint: certFingerprint)
    }

    /// The files by path relative to the contracts folder, each ending with a newline.
    public func files() throws(ContractError) -> [String: String] {
        var files: [String: String] = [
            "manifest.json": manifest(),
            "routes.json": routes(),
            "schemas/envelope.v1.json": envelopeSchema(),
            "schemas/campaign.v1.json": campaignSchema(),
            "schemas/\(Self.actionName).v1.json": actionSchema(),
            "fixtures/\(Self.actionName)/v1/valid-basic.json": validFixture(),
            "fixtures/\(Self.actionName)/v1/invalid-bad-slug.json": invalidFixture(),
            ReleaseCatalog.fileName: text(["$comment": .string(ReleaseCatalog.comment), "releases": .array([])]),
            "accepted-changes.json": text([
                "$comment": "Findings of `bridgectl diff` that were reviewed and let through, each until it expires (docs/contracts.md, Accepting a finding).",
                "accepted": .array([]),
            ]),
        ]
        // The well-known files come from the code that lint checks them with.
        let set = try ContractSet(files: files, origin: "bridgectl init")
        if let ios { files[UniversalLinkFiles.aasaPath] = UniversalLinkFiles.aasa(routes: set.routes, ios: ios).prettyPrinted() + "\n" }
        if let android { files[UniversalLinkFiles.assetLinksPath] = UniversalLinkFiles.assetLinks(android: android).prettyPrinted() + "\n" }
        return files
    }

    // MARK: - The files

    private var schemaBase: String { "https://\(host)/contracts/schemas/" }

    private func text(_ value: JSONValue) -> String { value.prettyPrinted() + "\n" }

    /// The members of an object literal, to add to in order.
    private func members(_ value: JSONValue) -> JSONObject {
        if case .object(let object) = value { return object }
        return JSONObject()
    }

    private func manifest() -> String {
        var manifest = members([
            "$comment": "The bridge contract: who may talk to the app, and what each action maps to. Schemas live in schemas/, fixtures in fixtures/<action>/v<version>/ (docs/adopting.md).",
            "bridge": .string(bridge),
            "envelope": 1,
            "schemaBase": .string(schemaBase),
            "envelopeSchema": "envelope.v1.json",
            "allowedOrigins": [.string(webBaseURL)],
            "allowFrames": false,
            "universalLinkHosts": [.string(host)],
            "customScheme": .string(scheme),
            "webBaseURL": .string(webBaseURL),
            "pushURLKey": "deeplink",
            "limits": ["maxMessageBytes": 65536, "maxDepth": 64, "duplicateWindowMs": 2000],
        ])
        if ios != nil || android != nil {
            var apps = members(["$comment": "The apps Universal Links and App Links open: bridgectl generate aasa / assetlinks write well-known/ from these and routes.json."])
            if let ios { apps["ios"] = ["teamID": .string(ios.teamID), "bundleID": .string(ios.bundleID)] }
            if let android {
                apps["android"] = ["package": .string(android.package), "sha256CertFingerprints": .array(android.sha256CertFingerprints.map { .string($0) })]
            }
            manifest["apps"] = .object(apps)
        }
        manifest["actions"] = [
            Self.actionName: [
                "title": "Open an event page",
                "versions": [
                    "1": [
                        "schema": .string("\(Self.actionName).v1.json"),
                        "route": .string(Self.routeName),
                        "parameters": ["slug": "/payload/slug"],
                        "timeoutMs": 3000,
                        "fallback": "universalLink",
                    ],
                ],
            ],
        ]
        return text(.object(manifest))
    }

    private func routes() -> String {
        text([
            "$comment": "The app's screens a link can open: pattern, login, tab, analytics screen name, and the channels that may open it.",
            "routes": [[
                "name": .string(Self.routeName),
                "pattern": "/event/:slug",
                "requiresAuth": false,
                "parameters": ["slug": "slug"],
                "tab": "home",
                "screen": "event_page",
                "presentation": "push",
                "enabledFrom": ["push", "externalURL", "appInternal", "bridge"],
            ]],
        ])
    }

    private func envelopeSchema() -> String {
        text([
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": .string(schemaBase + "envelope.v1.json"),
            "title": "Bridge request envelope, v1",
            "description": "Every message from a web page to the app. A message without id is a notification and gets no reply.",
            "type": "object",
            "required": ["v", "action", "version", "payload"],
            "properties": [
                "v": ["const": 1, "description": "Envelope version."],
                "id": [
                    "type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]{7,63}$",
                    "description": "Request id chosen by the page (a UUID from crypto.randomUUID); replies echo it.",
                ],
                "action": ["type": "string", "pattern": "^[a-z][a-z0-9_]{0,31}$", "description": "The action's name."],
                "version": ["type": "integer", "minimum": 1, "maximum": 999, "description": "Contract version of the action."],
                "payload": ["type": "object", "description": "Action-specific; see the action's schema."],
                "campaign": ["$ref": "campaign.v1.json"],
                "sentAt": ["type": "string", "format": "date-time", "maxLength": 40, "description": "When the page sent it (RFC 3339)."],
            ],
            "additionalProperties": false,
        ])
    }

    private func campaignSchema() -> String {
        let utm: JSONValue = ["$ref": "#/$defs/utm"]
        return text([
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": .string(schemaBase + "campaign.v1.json"),
            "title": "Campaign metadata, v1",
            "description": "Read by the page from its own URL. The deep link that opened the page is authoritative; these only fill gaps.",
            "type": "object",
            "properties": [
                "campaign_id": ["type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"],
                "group_id": ["type": "string", "minLength": 1, "maxLength": 32],
                "variant": ["type": "string", "minLength": 1, "maxLength": 64],
                "utm_source": utm, "utm_medium": utm, "utm_campaign": utm, "utm_term": utm, "utm_content": utm,
            ],
            "additionalProperties": false,
            "$defs": ["utm": ["type": "string", "minLength": 1, "maxLength": 128]],
        ])
    }

    private func actionSchema() -> String {
        text([
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": .string(schemaBase + "\(Self.actionName).v1.json"),
            "title": .string("\(Self.actionName), v1"),
            "description": "The example action: open the event page the web page names. Replace it with your own.",
            "$ref": "envelope.v1.json",
            "required": ["id"],
            "properties": [
                "action": ["const": .string(Self.actionName)],
                "version": ["const": 1],
                "payload": ["$ref": "#/$defs/payload"],
            ],
            "$defs": [
                "payload": [
                    "type": "object",
                    "required": ["slug"],
                    "properties": [
                        "slug": ["type": "string", "pattern": "^[a-z0-9-]{1,64}$", "description": "The event's slug, as in /event/:slug."],
                    ],
                    "additionalProperties": false,
                ],
            ],
        ])
    }

    private func message(id: String, slug: String) -> JSONValue {
        ["v": 1, "id": .string(id), "action": .string(Self.actionName), "version": 1, "payload": ["slug": .string(slug)]]
    }

    private func validFixture() -> String {
        let url = JSONValue.string(webBaseURL + "/event/spring-sale")
        return text([
            "description": "The page opens the event spring-sale.",
            "message": message(id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", slug: "spring-sale"),
            "expect": [
                "valid": true,
                "navigation": ["route": .string(Self.routeName), "url": url],
                "reply": ["ok": true, "result": ["route": .string(Self.routeName), "url": url, "pendingLogin": false]],
            ],
        ])
    }

    private func invalidFixture() -> String {
        text([
            "description": "A slug with capitals and a space breaks the slug pattern.",
            "message": message(id: "7c9e6679-7425-40de-944b-e07fc1f90ae8", slug: "Spring Sale"),
            "expect": [
                "valid": false,
                "code": "INVALID_PARAMS",
                "errors": [["instanceLocation": "/payload/slug", "keyword": "pattern"]],
            ],
        ])
    }
}

/// An input of `bridgectl init` that cannot make a contract set: which option, and why.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public let option: String
    public let message: String

    public var description: String { "--\(option): \(message)" }
}

extension ContractTemplate {
    /// JavaScript's reserved words (ES2015+ strict mode), which cannot name `window.<bridge>`
    /// in generated code.
    static let reservedWords: Set<String> = [
        "await", "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do",
        "else", "enum", "export", "extends", "false", "finally", "for", "function", "if", "implements", "import",
        "in", "instanceof", "interface", "let", "new", "null", "package", "private", "protected", "public",
        "return", "static", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void", "while",
        "with", "yield",
    ]

    /// An ASCII JavaScript identifier: a letter, `_` or `$`, then letters, digits, `_` or `$`.
    static func checkBridge(_ name: String) throws(TemplateError) {
        let first = name.unicodeScalars.first
        let isStart = { (c: Unicode.Scalar) in c.isASCII && (c.properties.isAlphabetic || c == "_" || c == "$") }
        let isPart = { (c: Unicode.Scalar) in isStart(c) || ("0"..."9").contains(c) }
        guard let first, isStart(first), name.unicodeScalars.allSatisfy(isPart) else {
            throw TemplateError(option: "bridge", message: "\"\(name)\" is not a JavaScript identifier (an ASCII letter, _ or $, then letters, digits, _ or $), e.g. myAppBridge")
        }
        guard !reservedWords.contains(name) else {
            throw TemplateError(option: "bridge", message: "\"\(name)\" is a JavaScript reserved word")
        }
    }

    /// `https://host[:port]` with an optional trailing slash: the origin pages are served from.
    /// Returns the origin (no slash, host lower-cased) and the host.
    static func origin(_ url: String) throws(TemplateError) -> (origin: String, host: String) {
        let fail = { (why: String) in TemplateError(option: "web-base-url", message: "\"\(url)\" \(why)") }
        guard url.lowercased().hasPrefix("https://") else { throw fail("is not an https URL (give the site's origin, e.g. https://www.example.com)") }
        var rest = String(url.dropFirst("https://".count))
        if rest.hasSuffix("/") { rest.removeLast() }
        guard !rest.contains(where: { "/?#@\\".contains($0) }) else {
            throw fail("is not an origin: give scheme and host only, without a path, query, fragment or user (e.g. https://www.example.com)")
        }
        var hostPart = Substring(rest)
        if let colon = rest.firstIndex(of: ":") {
            let port = rest[rest.index(after: colon)...]
            guard let number = Int(port), port.allSatisfy(\.isASCII), (1...65535).contains(number), !port.hasPrefix("0") else {
                throw fail("has a port that is not a number from 1 to 65535")
            }
            hostPart = rest[..<colon]
        }
        let host = hostPart.lowercased()
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let isLabel = { (label: Substring) in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        guard !host.isEmpty, host.count <= 253, labels.allSatisfy(isLabel) else {
            throw fail("has no valid host name (labels of letters, digits and \"-\", joined by \".\")")
        }
        let port = rest.firstIndex(of: ":").map { String(rest[$0...]) } ?? ""
        return ("https://" + host + port, host)
    }

    /// RFC 3986 section 3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ). http and https are the
    /// web's own, not the app's.
    static func checkScheme(_ scheme: String) throws(TemplateError) {
        let isAlpha = { (c: Character) in c.isASCII && c.isLetter }
        guard let first = scheme.first, isAlpha(first),
              scheme.allSatisfy({ isAlpha($0) || ($0.isASCII && $0.isNumber) || "+-.".contains($0) }) else {
            throw TemplateError(option: "scheme", message: "\"\(scheme)\" is not a URL scheme (RFC 3986: a letter, then letters, digits, \"+\", \"-\" or \".\"; no \"://\"), e.g. myapp")
        }
        guard !["http", "https"].contains(scheme.lowercased()) else {
            throw TemplateError(option: "scheme", message: "\"\(scheme)\" is the web's scheme; give the app's own custom scheme, e.g. myapp")
        }
    }

    static func ios(teamID: String?, bundleID: String?) throws(TemplateError) -> AppIdentities.IOS? {
        switch (teamID, bundleID) {
        case (nil, nil): return nil
        case (nil, _?): throw TemplateError(option: "team-id", message: "missing: --bundle-id needs --team-id (the AASA names TEAMID.BUNDLEID)")
        case (_?, nil): throw TemplateError(option: "bundle-id", message: "missing: --team-id needs --bundle-id (the AASA names TEAMID.BUNDLEID)")
        case let (team?, bundle?):
            guard team.count == 10, team.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }) else {
                throw TemplateError(option: "team-id", message: "\"\(team)\" is not Apple's 10-character team identifier (upper-case letters and digits)")
            }
            let labels = bundle.split(separator: ".", omittingEmptySubsequences: false)
            guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }) else {
                throw TemplateError(option: "bundle-id", message: "\"\(bundle)\" is not a reverse-DNS bundle identifier (e.g. com.example.app: letters, digits and \"-\", joined by \".\")")
            }
            return AppIdentities.IOS(teamID: team, bundleID: bundle)
        }
    }

    static func android(package: String?, fingerprint: String?) throws(TemplateError) -> AppIdentities.Android? {
        switch (package, fingerprint) {
        case (nil, nil): return nil
        case (nil, _?): throw TemplateError(option: "android-package", message: "missing: --cert-fingerprint needs --android-package")
        case (_?, nil): throw TemplateError(option: "cert-fingerprint", message: "missing: --android-package needs --cert-fingerprint (the app's signing certificate, SHA-256)")
        case let (package?, fingerprint?):
            let parts = package.split(separator: ".", omittingEmptySubsequences: false)
            let isPart = { (part: Substring) in
                part.first.map { $0.isASCII && $0.isLetter } == true && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            }
            guard parts.count >= 2, parts.allSatisfy(isPart) else {
                throw TemplateError(option: "android-package", message: "\"\(package)\" is not an Android package name (at least two parts, each a letter then letters, digits or _, joined by \".\")")
            }
            guard ContractSet.isFingerprint(fingerprint) else {
                throw TemplateError(option: "cert-fingerprint", message: "\"\(fingerprint)\" is not a SHA-256 fingerprint (32 upper-case hex bytes joined by \":\")")
            }
            return AppIdentities.Android(package: package, sha256CertFingerprints: [fingerprint])
        }
    }
}
