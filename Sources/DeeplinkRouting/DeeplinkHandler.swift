import JSONCore

/// Turns a URL (Universal Link, custom scheme, push payload) or a CTA destination into a
/// `ParsedDeeplink`. Only parses: it declares nothing (that is routes.json) and navigates nowhere
/// (that is the navigator).
public struct DeeplinkHandler: Sendable {
    public let routes: RouteTable
    /// Lower-cased hosts that Universal Links may use (`www.` only if listed).
    public let universalLinkHosts: Set<String>
    /// Lower-cased custom scheme, e.g. "myapp".
    public let customScheme: String
    public let webBaseURL: String
    /// The key of a push payload that holds the link; a JSON Pointer when it starts with "/".
    public let pushURLKey: String
    /// What each campaign field may be: a value that breaks it is dropped, with a warning.
    public let campaignRules: CampaignRules
    /// The declared channels a link without a stated source is recognised by (routes.json).
    public let channels: ChannelRules
    /// The builder that prints URLs this handler parses back to the same values (made once: every
    /// CTA is checked with it).
    public let urlBuilder: DeeplinkURLBuilder

    public init(routes: RouteTable, links: LinkConfiguration, campaignRules: CampaignRules = .unrestricted,
                channels: ChannelRules = .none) {
        self.init(
            routes: routes, universalLinkHosts: links.universalLinkHosts, customScheme: links.customScheme,
            webBaseURL: links.webBaseURL, pushURLKey: links.pushURLKey, campaignRules: campaignRules, channels: channels
        )
    }

    /// The link settings given one by one (benchmarks, tests with a made-up table).
    public init(
        routes: RouteTable, universalLinkHosts: [String], customScheme: String, webBaseURL: String,
        pushURLKey: String = "deeplink", campaignRules: CampaignRules = .unrestricted, channels: ChannelRules = .none
    ) {
        self.routes = routes
        self.campaignRules = campaignRules
        self.channels = channels
        self.universalLinkHosts = Set(universalLinkHosts.map { $0.lowercased() })
        self.customScheme = customScheme.lowercased()
        self.webBaseURL = URLAssembly.trimmedBase(webBaseURL)
        self.pushURLKey = pushURLKey
        urlBuilder = DeeplinkURLBuilder(webBaseURL: self.webBaseURL, customScheme: self.customScheme, routes: routes,
                                        campaignRules: campaignRules)
    }

    /// The link settings this handler was made with.
    public var links: LinkConfiguration {
        LinkConfiguration(universalLinkHosts: universalLinkHosts.sorted(), customScheme: customScheme,
                          webBaseURL: webBaseURL, pushURLKey: pushURLKey)
    }

    // MARK: URLs

    /// Parses a Universal Link (`https://` on a configured host, default port) or a custom-scheme
    /// link (`myapp://event/...`, whose host is the first path segment). `source` is the entry
    /// channel when the caller knows it; otherwise it is inferred (see `CampaignMetadata`).
    /// Surrounding whitespace (a link pasted with a trailing space or line break) is removed with
    /// a warning; whitespace inside the link is still an error.
    public func parse(_ url: String, source: CampaignMetadata.Source? = nil) throws(DeeplinkError) -> ParsedDeeplink {
        let trimmed = LinkText.trimmed(url)
        let raw = try RawURL.split(trimmed.text)
        var rawSegments: [RawBytes]
        let isCustomScheme = raw.scheme == customScheme
        if isCustomScheme {
            rawSegments = RawURL.rawSegments(of: raw.path)
            if let host = raw.authority, !host.isEmpty { rawSegments.insert(host, at: 0) }
        } else {
            let authority = try raw.authority.map(Authority.parse)
            let knownHost = authority.map { universalLinkHosts.contains($0.host) } ?? false
            rawSegments = RawURL.rawSegments(of: raw.path)
            // Only for a known host: never build a URL on somebody else's host.
            var fallback: String? { knownHost ? fallbackURL(rawSegments, query: raw.query) : nil }
            guard raw.scheme == "https" else { throw .wrongScheme(raw.scheme, fallback: fallback) }
            guard let authority, !authority.host.isEmpty else { throw .malformedURL("https link without a host") }
            guard knownHost else { throw .unknownHost(authority.host, fallback: nil) }
            if let port = authority.port, !port.isEmpty, port != "443" {
                throw .unknownHost("\(authority.host):\(port)", fallback: fallback)
            }
        }
        return try resolve(
            rawSegments: rawSegments, rawQuery: raw.query,
            source: source, isCustomScheme: isCustomScheme,
            warnings: trimmed.removed ? [DeeplinkWarning(field: "url", message: LinkValueTidying.whitespaceRemoved)] : []
        )
    }

    /// Parses the link of a push payload: the string under `pushURLKey` (top level, or a JSON
    /// Pointer). Source is push. Top-level campaign fields of the payload (campaign_id, group_id,
    /// variant, utm_*) fill what the link leaves empty; the link wins a conflict, with a warning.
    public func parse(pushPayload: JSONValue) throws(DeeplinkError) -> ParsedDeeplink {
        guard case .object(let object) = pushPayload else { throw .invalidPushPayload("expected a JSON object") }
        let parsed = try parse(pushLink(in: pushPayload), source: .push)

        var campaign = parsed.campaignMetadata
        var warnings = parsed.warnings
        func fill(_ key: String, _ current: String?, _ set: (inout CampaignMetadata, String) -> Void) {
            guard let given = object[key]?.stringValue, !given.isEmpty else { return }
            let field = "push.\(key)"
            let value = LinkValueTidying.read(given, field: field, hadPlus: false, warnings: &warnings)
            if let violation = campaignRules.violation(name: key, value: value) {
                warnings.append(DeeplinkWarning(field: field, message: violation.drop(of: value), losesPart: true))
                return
            }
            if let current {
                if current != value {
                    warnings.append(DeeplinkWarning(field: field, message: "payload says \"\(value)\", the link says \"\(current)\"; the link wins",
                                                    losesPart: true))
                }
            } else {
                set(&campaign, value)
            }
        }
        fill("campaign_id", campaign.campaignId) { $0.campaignId = $1 }
        fill("group_id", campaign.groupId) { $0.groupId = $1 }
        fill("variant", campaign.variant) { $0.variant = $1 }
        for key in object.keys where Self.isPayloadUTMKey(key) {
            fill(key, campaign.utmValue(named: key)) { $0.setUTMValue($1, named: key) }
        }
        return ParsedDeeplink(
            configuration: parsed.configuration, pathParameters: parsed.pathParameters,
            queryParameters: parsed.queryParameters, campaignMetadata: campaign, warnings: warnings,
            queryOrder: parsed.queryOrder, webBaseURL: webBaseURL
        )
    }

    /// The link of a push payload: the string under `pushURLKey` (top level, or a JSON Pointer).
    private func pushLink(in payload: JSONValue) throws(DeeplinkError) -> String {
        guard case .object(let object) = payload else { throw .invalidPushPayload("expected a JSON object") }
        let found = pushURLKey.hasPrefix("/") ? payload.value(at: pushURLKey) : object[pushURLKey]
        guard let found else { throw .invalidPushPayload("no \"\(pushURLKey)\" field with the link") }
        guard let link = found.stringValue else { throw .invalidPushPayload("\"\(pushURLKey)\" must be a string URL") }
        return link
    }

    /// A top-level utm field of a push payload (`utm_` and more).
    private static func isPayloadUTMKey(_ key: String) -> Bool { key.hasPrefix("utm_") && key.count > 4 }

    // MARK: Empty campaign fields

    /// The campaign fields a link gives an empty value (`campaign_id=`, or `campaign_id` without
    /// "="), each once, in link order, as ("query.NAME", NAME). Reading takes an empty value as
    /// none, without a warning, as the app's host and the web shim do
    /// (Tests/shared/hostile-link-values.json); `bridgectl route` warns about them before a link
    /// is sent (`PreSendChecks.emptyCampaignWarnings`). None for a link that does not parse.
    public func emptyCampaignFields(in url: String) -> [(field: String, name: String)] {
        guard let raw = try? RawURL.split(LinkText.trimmed(url).text), let items = try? decodedQueryItems(raw.query) else { return [] }
        var names: [String] = []
        for (name, value, _) in items where value.isEmpty && CampaignMetadata.isCampaignKey(name) && !names.contains(name) {
            names.append(name)
        }
        return names.map { ("query.\($0)", $0) }
    }

    /// The same for a push payload: its link's, then its own top-level campaign fields given as ""
    /// ("push.NAME"), which `parse(pushPayload:)` also takes as none.
    public func emptyCampaignFields(inPushPayload payload: JSONValue) -> [(field: String, name: String)] {
        var fields = (try? pushLink(in: payload)).map { emptyCampaignFields(in: $0) } ?? []
        guard case .object(let object) = payload else { return fields }
        for (key, value) in object where value == .string("") {
            if ["campaign_id", "group_id", "variant"].contains(key) || Self.isPayloadUTMKey(key) { fields.append(("push.\(key)", key)) }
        }
        return fields
    }

    /// A push payload as the JSON text it arrived in (a data message), parsed strictly (duplicate
    /// keys, invalid UTF-8 and trailing data refused) within bridge-message limits.
    public func parse(pushPayloadJSON text: String) throws(DeeplinkError) -> ParsedDeeplink {
        let payload: JSONValue
        do {
            payload = try JSONValue(parsing: text, limits: .bridgeMessage)
        } catch {
            throw .invalidPushPayload("not valid JSON: \(error)")
        }
        return try parse(pushPayload: payload)
    }

    // MARK: CTA destinations

    /// Builds a ParsedDeeplink from already-decoded values, as a CTA mapping produces them
    /// (payload fields picked by the manifest's JSON Pointers). Checks exactly what the URL builder
    /// checks: the route exists, every path parameter is present and typed, the query fields are
    /// declared and typed. Empty query values are dropped. `query` order is the order of `url`.
    public func route(
        named name: String, parameters: [String: String], query: [(name: String, value: String)] = [],
        campaign: CampaignMetadata = CampaignMetadata(source: .appInternal)
    ) throws(LinkBuildError) -> ParsedDeeplink {
        let route = try urlBuilder.checkedRoute(name, parameters: parameters)
        var grouped = [String: [String]](minimumCapacity: query.count)
        var order: [String] = []
        order.reserveCapacity(query.count)
        for item in query where !item.value.isEmpty {
            if grouped[item.name] == nil { order.append(item.name) }
            grouped[item.name, default: []].append(item.value)
        }
        // Each value against its declared field, in place; a problem is reported by
        // `checkQuery`, which names the same field every time.
        if !Self.queryFits(query, route) { try urlBuilder.checkQuery(grouped, for: route) }
        let parsed = ParsedDeeplink(
            configuration: route, pathParameters: parameters, queryParameters: grouped,
            campaignMetadata: campaign, warnings: [], queryOrder: order, webBaseURL: webBaseURL
        )
        if let external = route.external, let problem = external.problem(with: parsed.fieldValues) {
            throw .invalidDestination(route: route.name, reason: problem)
        }
        return parsed
    }

    /// Whether every non-empty value names a declared query field and is of its type: what
    /// `checkQuery` checks, without grouping the values by name first.
    private static func queryFits(_ query: [(name: String, value: String)], _ route: RouteDefinition) -> Bool {
        let declared = route.query
        for item in query where !item.value.isEmpty {
            guard let field = declared.first(where: { $0.name == item.name }),
                  ParameterRules.isValid(item.value, as: field.type) else { return false }
        }
        return true
    }

    /// The text a JSON payload value has in a URL: strings as they are, integers in decimal,
    /// whole reals as integers, other reals in plain decimal (never an exponent: `0.00001`),
    /// booleans as true/false. nil for null, arrays, objects and non-finite reals.
    public static func parameterText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): return text
        case .integer(let number): return String(number)
        case .number(let real): return value.integerValue.map(String.init) ?? DecimalText.plain(real)
        case .bool(let flag): return flag ? "true" : "false"
        case .null, .array, .object: return nil
        }
    }

    // MARK: Resolution

    private func resolve(
        rawSegments: [RawBytes], rawQuery: RawBytes?, source: CampaignMetadata.Source?, isCustomScheme: Bool,
        warnings initialWarnings: [DeeplinkWarning]
    ) throws(DeeplinkError) -> ParsedDeeplink {
        // Built only when a failure needs it.
        var fallback: String { fallbackURL(rawSegments, query: rawQuery) }
        var segments: [String] = []
        var decomposed: Set<Int> = []
        for (index, raw) in rawSegments.enumerated() {
            guard case .success(let decoded) = PercentEncoding.decode(raw) else {
                throw .badEncoding(field: "path segment \(index + 1)", value: RawURL.text(raw))
            }
            let composed = LinkText.composed(decoded)
            if !composed.utf8.elementsEqual(decoded.utf8) { decomposed.insert(index) }
            segments.append(composed)
        }
        guard let (routeIndex, pathParameters) = routes.matchIndex(path: segments) else {
            throw .noMatchingRoute(path: normalizedPath(rawSegments), fallback: fallback)
        }
        let route = routes.routes[routeIndex]
        var warnings = initialWarnings
        let parameterNames = routes.parameterNames(ofRouteAt: routeIndex)
        for name in parameterNames {
            let value = pathParameters[name] ?? ""
            let type = route.parameters[name] ?? .string
            guard ParameterRules.isValid(value, as: type) else {
                throw .badParameter(name: "path.\(name)", value: value, expected: type, fallback: fallback)
            }
            if let position = route.segments.firstIndex(of: ":" + name), decomposed.contains(position) {
                warnings.append(DeeplinkWarning(field: "path.\(name)", message: LinkValueTidying.composedForm))
            }
            if PercentEncoding.looksEncoded(value) { warnings.append(.doubleEncoded("path.\(name)", value)) }
        }

        var query: [String: [String]] = [:]
        var order: [String] = []
        var campaign = CampaignMetadata(source: .externalURL)
        // A campaign field's first non-empty value is the one read, valid or not (as the web shim
        // reads it), so a later repeat never replaces a dropped value.
        var campaignKeysSeen: Set<String> = []
        for (name, decoded, hadPlus) in try decodedQueryItems(rawQuery) {
            let field = "query.\(name)"
            if name.isEmpty {
                warnings.append(DeeplinkWarning(field: "query", message: "an item without a name (\"=\(decoded)\") was ignored",
                                                losesPart: true))
            } else if CampaignMetadata.isCampaignKey(name) {
                if decoded.isEmpty { continue }
                guard campaignKeysSeen.insert(name).inserted else {
                    warnings.append(DeeplinkWarning(field: field, message: "repeated; the first value is kept", losesPart: true))
                    continue
                }
                let value = LinkValueTidying.read(decoded, field: field, hadPlus: hadPlus, warnings: &warnings)
                if let violation = campaignRules.violation(name: name, value: value) {
                    warnings.append(DeeplinkWarning(field: field, message: violation.drop(of: value), losesPart: true))
                } else {
                    _ = campaign.set(name, value)
                }
            } else {
                let value = LinkValueTidying.read(decoded, field: field, hadPlus: hadPlus, warnings: &warnings)
                if parameterNames.contains(name) {
                    warnings.append(DeeplinkWarning(field: field, message: "ignored: \"\(name)\" is a path parameter and the path wins",
                                                    losesPart: true))
                } else if let declared = route.query.first(where: { $0.name == name }) {
                    // A declared field left empty (`plan=`) is the same as an absent one.
                    if value.isEmpty { continue }
                    guard ParameterRules.isValid(value, as: declared.type) else {
                        throw .badParameter(name: field, value: value, expected: declared.type, fallback: fallback)
                    }
                    if query[name] == nil { order.append(name) }
                    query[name, default: []].append(value)
                } else {
                    if query[name] == nil { order.append(name) }
                    query[name, default: []].append(value)
                }
            }
        }
        campaign.source = source ?? CampaignMetadata.inferredSource(utm: campaign.utm, customScheme: isCustomScheme, channels: channels)
        let parsed = ParsedDeeplink(
            configuration: route, pathParameters: pathParameters, queryParameters: query,
            campaignMetadata: campaign, warnings: warnings,
            queryOrder: URLAssembly.defaultQueryOrder(for: route, keys: order), webBaseURL: webBaseURL
        )
        // A destination outside the app is checked whole here, so none that is incomplete (or names
        // an app routes.json does not know) reaches the opener.
        if let external = route.external, let problem = external.problem(with: parsed.fieldValues) {
            throw .invalidDestination(route: route.name, reason: problem, fallback: fallback)
        }
        return parsed
    }

    /// `name=value` items split on `&`, each split on its first `=`, both sides decoded with `+`
    /// kept as a plus. Empty items (`a=1&&b=2`) are skipped.
    /// The third element says whether the raw value had a "+" (a literal plus, warned about).
    private func decodedQueryItems(_ rawQuery: RawBytes?) throws(DeeplinkError) -> [(String, String, Bool)] {
        guard let rawQuery, !rawQuery.isEmpty else { return [] }
        var items: [(String, String, Bool)] = []
        for item in rawQuery.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let rawName: RawBytes
            let rawValue: RawBytes
            if let equals = item.firstIndex(of: UInt8(ascii: "=")) {
                rawName = item[..<equals]
                rawValue = item[(equals + 1)...]
            } else {
                rawName = item
                rawValue = []
            }
            guard case .success(let name) = PercentEncoding.decode(rawName) else {
                throw .badEncoding(field: "query", value: RawURL.text(rawName))
            }
            guard case .success(let value) = PercentEncoding.decode(rawValue) else {
                throw .badEncoding(field: "query.\(name)", value: RawURL.text(rawValue))
            }
            items.append((name, value, rawValue.contains(UInt8(ascii: "+"))))
        }
        return items
    }

    /// The web page of the same path and query on webBaseURL. Only called for links meant for us.
    private func fallbackURL(_ rawSegments: [RawBytes], query: RawBytes?) -> String {
        var url = webBaseURL + normalizedPath(rawSegments)
        if let query, !query.isEmpty { url += "?" + Self.escapeNonURLBytes(query) }
        return url
    }

    private func normalizedPath(_ rawSegments: [RawBytes]) -> String {
        "/" + rawSegments.map { Self.escapeNonURLBytes($0) }.joined(separator: "/")
    }

    /// Raw non-ASCII (IRI) bytes as %XX so a fallback or a message is a plain ASCII URL; the rest
    /// of the raw text is kept as it came (it was already checked to have no spaces or controls).
    static func escapeNonURLBytes(_ raw: RawBytes) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        for byte in raw {
            if byte < 0x80 {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension DeeplinkWarning {
    static func doubleEncoded(_ field: String, _ value: String) -> DeeplinkWarning {
        DeeplinkWarning(field: field, message: LinkText.shown(value) + " still looks percent-encoded after decoding; the link was probably encoded twice")
    }
}

extension CampaignMetadata {
    /// Sets a campaign query field unless it already has a value; false when it had one.
    mutating func set(_ name: String, _ value: String) -> Bool {
        switch name {
        case "campaign_id":
            guard campaignId == nil else { return false }
            campaignId = value
        case "group_id":
            guard groupId == nil else { return false }
            groupId = value
        case "variant":
            guard variant == nil else { return false }
            variant = value
        default:
            guard utmValue(named: name) == nil else { return false }
            setUTMValue(value, named: name)
        }
        return true
    }
}
