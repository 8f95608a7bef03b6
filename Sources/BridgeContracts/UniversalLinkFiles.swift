#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DeeplinkRouting
import JSONCore

/// The apps a contract set's links open, from the manifest's optional "apps" block:
/// `{"ios": {"teamID": "9JA89QQLNQ", "bundleID": "com.example.app"},
///   "android": {"package": "com.example.app", "sha256CertFingerprints": ["14:6D:..."]}}`.
public struct AppIdentities: Sendable, Equatable {
    public struct IOS: Sendable, Equatable {
        public let teamID: String
        public let bundleID: String
        /// "TEAMID.bundle.id", as the AASA names an app.
        public var appID: String { teamID + "." + bundleID }
    }

    public struct Android: Sendable, Equatable {
        public let package: String
        public let sha256CertFingerprints: [String]
    }

    public let ios: IOS?
    public let android: Android?
}

extension ContractSet {
    /// The manifest's "apps" block; nil when the manifest has none (no well-known files then).
    public func appIdentities() throws(ContractError) -> AppIdentities? {
        guard let text = files["manifest.json"] else { return nil }
        let reader = FieldReader(file: "manifest.json", value: try Self.parse(text, file: "manifest.json"))
        guard let apps = try reader.optionalChild("apps") else { return nil }
        var ios: AppIdentities.IOS?
        if let entry = try apps.optionalChild("ios") {
            let team = try entry.child("teamID").string()
            guard team.count == 10, team.allSatisfy({ ($0.isASCII && $0.isUppercase) || ("0"..."9").contains($0) }) else {
                throw entry.fail("teamID is Apple's 10-character team identifier (upper-case letters and digits)", at: "teamID")
            }
            let bundle = try entry.child("bundleID").string()
            guard !bundle.isEmpty, bundle.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw entry.fail("bundleID is a reverse-DNS name (letters, digits, \".\" and \"-\")", at: "bundleID")
            }
            ios = AppIdentities.IOS(teamID: team, bundleID: bundle)
        }
        var android: AppIdentities.Android?
        if let entry = try apps.optionalChild("android") {
            let package = try entry.child("package").string()
            let fingerprints = try entry.child("sha256CertFingerprints").strings()
            guard !fingerprints.isEmpty else { throw entry.fail("list at least one signing certificate fingerprint", at: "sha256CertFingerprints") }
            for (index, fingerprint) in fingerprints.enumerated() where !Self.isFingerprint(fingerprint) {
                throw entry.fail("\"\(fingerprint)\" is not a SHA-256 fingerprint (32 upper-case hex bytes joined by \":\")", at: "sha256CertFingerprints/\(index)")
            }
            android = AppIdentities.Android(package: package, sha256CertFingerprints: fingerprints)
        }
        return AppIdentities(ios: ios, android: android)
    }

    static func isFingerprint(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 32 && parts.allSatisfy { part in
            part.count == 2 && part.allSatisfy { ("0"..."9").contains($0) || ("A"..."F").contains($0) }
        }
    }
}

/// The files that make links open the app, written from routes.json and the manifest:
/// apple-app-site-association (its applinks components) and assetlinks.json (Android's statement
/// list). Deployed at https://HOST/.well-known/ for every Universal Link host.
///
/// AASA components cannot say "one path segment": `*` matches any text, slashes included. So each
/// route becomes an include in which a parameter is `?*` (at least one character), preceded by
/// excludes for the same route with a parameter that swallowed a slash (`?*/?*`), so deeper paths
/// no route handles stay on the web; routes with more segments come first, since the first
/// matching component decides. A route ending in a literal also gets its trailing-slash form (the
/// router drops one trailing slash). Parameter types (int, slug) cannot be expressed: a link with
/// a path of the right shape but a wrong value opens the app, which hands it back to the web page
/// of the same path (the router's fallback).
public enum UniversalLinkFiles {
    /// The committed copies, in the contracts folder (deployed without the .json of the first).
    public static let aasaPath = "well-known/apple-app-site-association.json"
    public static let assetLinksPath = "well-known/assetlinks.json"

    public struct Component: Sendable, Equatable {
        public let path: String
        public let exclude: Bool
        public let comment: String
    }

    /// The components for `routes`, in the order they must be listed.
    public static func components(for routes: [RouteDefinition]) -> [Component] {
        var components: [Component] = []
        let ordered = routes.enumerated().sorted { lhs, rhs in
            lhs.element.segments.count != rhs.element.segments.count
                ? lhs.element.segments.count > rhs.element.segments.count : lhs.offset < rhs.offset
        }.map(\.element)
        for route in ordered {
            let segments = route.segments
            let endsInLiteral = segments.last.map { !$0.hasPrefix(":") } ?? true
            var includes = ["/" + segments.map { $0.hasPrefix(":") ? "?*" : escape($0) }.joined(separator: "/")]
            if endsInLiteral { includes.append(includes[0] == "/" ? "/" : includes[0] + "/") }
            // One exclude per parameter that could swallow a slash, for each form of the include.
            for (position, segment) in segments.enumerated() where segment.hasPrefix(":") {
                var deeper = segments.map { $0.hasPrefix(":") ? "?*" : escape($0) }
                deeper[position] = "?*/?*"
                let path = "/" + deeper.joined(separator: "/")
                components.append(Component(path: path, exclude: true, comment: "\(route.name): deeper paths stay on the web"))
                if endsInLiteral { components.append(Component(path: path + "/", exclude: true, comment: "\(route.name): deeper paths stay on the web")) }
            }
            for include in Array(Set(includes)).sorted(by: { $0.count < $1.count }) {
                components.append(Component(path: include, exclude: false, comment: "\(route.name) \(route.pattern)"))
            }
        }
        return components
    }

    /// Literal characters that are wildcards in AASA patterns cannot be escaped there; routes.json
    /// literals never hold them (RouteTable refuses %, ? and #, and * is not a URL path character a
    /// route would use), so they pass through.
    static func escape(_ literal: String) -> String { literal }

    public static func aasa(routes: [RouteDefinition], ios: AppIdentities.IOS) -> JSONValue {
        let components: [JSONValue] = components(for: routes).map { component in
            var object = JSONObject()
            object["/"] = .string(component.path)
            if component.exclude { object["exclude"] = .bool(true) }
            object["comment"] = .string(component.comment)
            return .object(object)
        }
        return .object(JSONObject([
            ("applinks", .object(JSONObject([
                ("details", .array([.object(JSONObject([
                    ("appIDs", .array([.string(ios.appID)])),
                    ("components", .array(components)),
                ]))])),
            ]))),
        ]))
    }

    public static func assetLinks(android: AppIdentities.Android) -> JSONValue {
        .array([.object(JSONObject([
            ("relation", .array([.string("delegate_permission/common.handle_all_urls")])),
            ("target", .object(JSONObject([
                ("namespace", .string("android_app")),
                ("package_name", .string(android.package)),
                ("sha256_cert_fingerprints", .array(android.sha256CertFingerprints.map { .string($0) })),
            ]))),
        ]))])
    }
}

/// Whether an AASA's components open a path in the app: the first component whose "/" pattern
/// matches the whole path decides (an exclude keeps it on the web); `*` matches any text, `?` one
/// character. Components without a "/" pattern match every path.
public struct AASAMatcher: Sendable {
    public struct Entry: Sendable, Equatable {
        let pattern: [Character]?
        let exclude: Bool
    }

    let entries: [Entry]

    /// Every component of every applinks detail for `appID`, in order; nil when the document has
    /// no applinks detail for it.
    public init?(document: JSONValue, appID: String) {
        guard let details = document["applinks"]?["details"]?.arrayValue else { return nil }
        var entries: [Entry] = []
        var found = false
        for detail in details {
            let ids = (detail["appIDs"]?.arrayValue?.compactMap(\.stringValue) ?? []) + [detail["appID"]?.stringValue].compactMap { $0 }
            guard ids.contains(appID) else { continue }
            found = true
            for component in detail["components"]?.arrayValue ?? [] {
                entries.append(Entry(pattern: component["/"]?.stringValue.map(Array.init), exclude: component["exclude"]?.boolValue ?? false))
            }
        }
        guard found else { return nil }
        self.entries = entries
    }

    public func opensInApp(_ path: String) -> Bool {
        let characters = Array(path)
        for entry in entries {
            guard let pattern = entry.pattern else { return !entry.exclude }
            if Self.matches(pattern[...], characters[...]) { return !entry.exclude }
        }
        return false
    }

    /// Glob matching with `*` and `?`, iterative with one backtrack point (linear in practice).
    static func matches(_ pattern: ArraySlice<Character>, _ text: ArraySlice<Character>) -> Bool {
        var p = pattern.startIndex, t = text.startIndex
        var star: ArraySlice<Character>.Index?, mark = text.startIndex
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == "?" || pattern[p] == text[t] {
                p += 1; t += 1
            } else if p < pattern.endIndex, pattern[p] == "*" {
                star = p; mark = t; p += 1
            } else if let star {
                p = star + 1; mark += 1; t = mark
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == "*" { p += 1 }
        return p == pattern.endIndex
    }
}

/// The linter's check of the committed well-known files: the AASA opens in the app exactly the
/// paths a route handles (by shape: a parameter is one non-empty segment; types are the app's to
/// check), and assetlinks.json names the manifest's Android app.
struct UniversalLinkFilesCheck {
    let contracts: ContractSet

    func findings() -> [LintFinding] {
        let apps: AppIdentities?
        do {
            apps = try contracts.appIdentities()
        } catch {
            return [LintFinding(file: error.file, pointer: error.pointer, message: error.message)]
        }
        guard let apps else {
            return [UniversalLinkFiles.aasaPath, UniversalLinkFiles.assetLinksPath].filter { contracts.files[$0] != nil }.map {
                LintFinding(file: $0, pointer: "", message: "the manifest has no \"apps\" block to check this file against")
            }
        }
        var findings: [LintFinding] = []
        if let ios = apps.ios { findings += aasaFindings(ios) }
        if let android = apps.android { findings += assetLinksFindings(android) }
        return findings
    }

    /// The command that rewrites `path` of this set, runnable from any folder: it names the set.
    private func regenerateCommand(_ target: String, _ path: String) -> String {
        let folder = Self.shown(contracts.origin)
        return "bridgectl generate \(target) --contracts \(ShellWord.quoted(folder)) --out \(ShellWord.quoted(folder + "/" + path))"
    }

    /// A set's folder as a person would type it here: relative when it lies under the working
    /// folder, else as loaded.
    static func shown(_ origin: String) -> String {
        let here = FileManager.default.currentDirectoryPath
        let prefix = here.hasSuffix("/") ? here : here + "/"
        return origin.hasPrefix(prefix) ? String(origin.dropFirst(prefix.count)) : origin
    }

    private enum Read {
        case document(JSONValue)
        case problem(LintFinding)
    }

    private func document(_ path: String, regenerate: String) -> Read {
        guard let text = contracts.files[path] else {
            return .problem(LintFinding(file: path, pointer: "", message: "missing; write it with `\(regenerate)`"))
        }
        do throws(ContractError) {
            return .document(try ContractSet.parse(text, file: path))
        } catch {
            return .problem(LintFinding(file: path, pointer: "", message: error.message))
        }
    }

    func aasaFindings(_ ios: AppIdentities.IOS) -> [LintFinding] {
        let path = UniversalLinkFiles.aasaPath
        let document: JSONValue
        switch self.document(path, regenerate: regenerateCommand("aasa", path)) {
        case .problem(let finding): return [finding]
        case .document(let value): document = value
        }
        guard let matcher = AASAMatcher(document: document, appID: ios.appID) else {
            return [LintFinding(file: path, pointer: "/applinks/details", message: "has no applinks detail for the manifest's app \(ios.appID)")]
        }
        guard let table = try? RouteTable(routes: contracts.routes) else { return [] }
        var findings: [LintFinding] = []
        var seen: Set<String> = []
        for probe in probes(document: document) where seen.insert(probe).inserted {
            let handledBy = table.match(path: Self.segments(probe))?.0.name
            let opens = matcher.opensInApp(probe)
            if let handledBy, !opens {
                findings.append(LintFinding(file: path, pointer: "/applinks/details",
                    message: "does not open \(probe) in the app, though route \(handledBy) handles it (regenerate: \(regenerateCommand("aasa", path)))"))
            } else if handledBy == nil && opens {
                findings.append(LintFinding(file: path, pointer: "/applinks/details",
                    message: "opens \(probe) in the app, though no route handles it (regenerate: \(regenerateCommand("aasa", path)))"))
            }
        }
        return findings
    }

    /// Paths to try: each route with sample values, with a trailing slash, one segment deeper, a
    /// parameter holding a slash, its parent; a few paths no route has; and a sample of every
    /// pattern the file lists (so a hand-written `/promo/*` is tried too).
    func probes(document: JSONValue) -> [String] {
        var probes = ["/", "/zz-no-such-route", "/zz-no-such-route/x"]
        for route in contracts.routes {
            let segments = route.segments
            func path(_ values: (Int, String) -> String) -> String {
                "/" + segments.enumerated().map { index, segment in segment.hasPrefix(":") ? values(index, segment) : segment }.joined(separator: "/")
            }
            let sample = path { _, segment in Self.sampleValue(route.parameters[String(segment.dropFirst())] ?? .string) }
            probes += [sample, sample == "/" ? "/" : sample + "/", (sample == "/" ? "" : sample) + "/x"]
            for (position, segment) in segments.enumerated() where segment.hasPrefix(":") {
                probes.append(path { index, other in index == position ? "a/b" : Self.sampleValue(route.parameters[String(other.dropFirst())] ?? .string) })
            }
            if segments.count > 1 {
                probes.append("/" + segments.dropLast().map { $0.hasPrefix(":") ? "x" : $0 }.joined(separator: "/"))
            }
        }
        for detail in document["applinks"]?["details"]?.arrayValue ?? [] {
            for component in detail["components"]?.arrayValue ?? [] {
                guard let pattern = component["/"]?.stringValue else { continue }
                probes.append(String(pattern.map { $0 == "?" ? "x" : $0 }).replacingStars(with: ""))
                probes.append(String(pattern.map { $0 == "?" ? "x" : $0 }).replacingStars(with: "x/y"))
            }
        }
        return probes
    }

    static func sampleValue(_ type: ParameterType) -> String {
        switch type {
        case .int: return "42"
        case .uuid: return "123e4567-e89b-12d3-a456-426614174000"
        case .slug: return "promo-1"
        case .string: return "x"
        case .latitude: return "37.5"
        case .longitude: return "127.0"
        }
    }

    /// A path split as the router splits it: the leading slash and one trailing slash dropped.
    static func segments(_ path: String) -> [String] {
        var body = Substring(path)
        if body.hasPrefix("/") { body = body.dropFirst() }
        if body.isEmpty { return [] }
        var parts = body.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    func assetLinksFindings(_ android: AppIdentities.Android) -> [LintFinding] {
        let path = UniversalLinkFiles.assetLinksPath
        let document: JSONValue
        switch self.document(path, regenerate: regenerateCommand("assetlinks", path)) {
        case .problem(let finding): return [finding]
        case .document(let value): document = value
        }
        let statements = document.arrayValue ?? []
        let matching = statements.contains { statement in
            let relations = statement["relation"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let target = statement["target"]
            let fingerprints = Set(target?["sha256_cert_fingerprints"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            return relations.contains("delegate_permission/common.handle_all_urls")
                && target?["namespace"]?.stringValue == "android_app"
                && target?["package_name"]?.stringValue == android.package
                && fingerprints == Set(android.sha256CertFingerprints)
        }
        guard matching else {
            return [LintFinding(file: path, pointer: "", message: "has no handle_all_urls statement for the manifest's app \(android.package) with its \(android.sha256CertFingerprints.count) certificate fingerprint(s) (regenerate: \(regenerateCommand("assetlinks", path)))")]
        }
        return []
    }
}

extension String {
    fileprivate func replacingStars(with text: String) -> String {
        split(separator: "*", omittingEmptySubsequences: false).joined(separator: text)
    }
}
