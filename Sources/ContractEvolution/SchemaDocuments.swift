import SchemaCheck
import JSONCore
import BridgeContracts

/// The schema documents of one contract set by URI, with embedded `$id` resources and
/// `$anchor`s, so a `$ref` resolves locally exactly where the checker resolves it.
struct SchemaDocuments: Sendable {
    struct Resource: Sendable {
        let value: JSONValue
        /// The base URI inside the resource (its `$id`, without fragment).
        let base: String
        let draft7: Bool
        /// draft-04, where `const` is no keyword (validators ignore it).
        let draft4: Bool
    }

    private var resources: [String: Resource] = [:]

    init(contracts: ContractSet) {
        for (file, document) in contracts.schemas {
            add(document, uri: contracts.schemaURI(file: file))
        }
    }

    private mutating func add(_ document: JSONValue, uri: String) {
        // draft-04, -06 and -07 alike: a $ref replaces its siblings, and dependencies is one keyword.
        let dialect = document["$schema"]?.stringValue ?? ""
        let draft7 = ["draft-07", "draft-06", "draft-04"].contains { dialect.contains($0) }
        let draft4 = dialect.contains("draft-04")
        let base = URIReference.withoutFragment(uri)
        scan(document, base: base, draft7: draft7, draft4: draft4, isRoot: true)
        resources[base] = Resource(value: document, base: base, draft7: draft7, draft4: draft4)
    }

    /// Registers embedded resources (`$id` below the root) and anchors.
    private mutating func scan(_ value: JSONValue, base: String, draft7: Bool, draft4: Bool, isRoot: Bool) {
        switch value {
        case .object(let object):
            var base = base
            if let id = object["$id"]?.stringValue, !(draft7 && id.hasPrefix("#")) {
                base = URIReference.withoutFragment(URIReference.resolve(id, against: base))
                if !isRoot { resources[base] = Resource(value: value, base: base, draft7: draft7, draft4: draft4) }
            }
            if let anchor = object["$anchor"]?.stringValue ?? object["$dynamicAnchor"]?.stringValue {
                resources[base + "#" + anchor] = Resource(value: value, base: base, draft7: draft7, draft4: draft4)
            }
            if draft7, let id = object["$id"]?.stringValue, id.hasPrefix("#") {
                resources[base + id] = Resource(value: value, base: base, draft7: draft7, draft4: draft4)
            }
            for (key, member) in object where !Self.valueKeywords.contains(key) {
                scan(member, base: base, draft7: draft7, draft4: draft4, isRoot: false)
            }
        case .array(let items):
            for item in items { scan(item, base: base, draft7: draft7, draft4: draft4, isRoot: false) }
        default:
            break
        }
    }

    /// Keywords whose values are instances, not schemas.
    private static let valueKeywords: Set<String> = ["enum", "const", "default", "examples"]

    /// The schema a reference names, seen from `base`, with a key that identifies it (for
    /// recursion) and the base URI that applies inside it.
    func resolve(_ reference: String, base: String) -> (key: String, resource: Resource)? {
        let absolute = URIReference.resolve(reference, against: base)
        let parts = absolute.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let document = String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : ""
        if fragment.isEmpty {
            guard let resource = resources[document] else { return nil }
            return (document + "#", resource)
        }
        if !fragment.hasPrefix("/") {
            guard let resource = resources[document + "#" + fragment] else { return nil }
            return (document + "#" + fragment, resource)
        }
        guard let resource = resources[document],
              let target = resource.value.value(at: URIReference.percentDecoded(fragment)) else { return nil }
        return (document + "#" + fragment, Resource(value: target, base: resource.base, draft7: resource.draft7, draft4: resource.draft4))
    }
}

/// RFC 3986 reference resolution, enough for schema `$id`s and `$ref`s.
enum URIReference {
    static func withoutFragment(_ uri: String) -> String {
        guard let hash = uri.firstIndex(of: "#") else { return uri }
        return String(uri[..<hash])
    }

    static func resolve(_ reference: String, against base: String) -> String {
        if hasScheme(reference) { return reference }
        let baseDocument = withoutFragment(base)
        if reference.hasPrefix("#") { return baseDocument + reference }
        if reference.isEmpty { return baseDocument }
        guard let schemeEnd = baseDocument.firstRange(of: "://") else {
            // A base without an authority (urn:...): only fragments resolve against it.
            return reference
        }
        let afterScheme = baseDocument[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        let origin = String(baseDocument[..<authorityEnd])
        if reference.hasPrefix("//") { return String(baseDocument[..<schemeEnd.lowerBound]) + ":" + reference }
        var path: String
        if reference.hasPrefix("/") {
            path = reference
        } else {
            let basePath = String(afterScheme[authorityEnd...])
            let directory = basePath.lastIndex(of: "/").map { String(basePath[...$0]) } ?? "/"
            path = directory + reference
        }
        return origin + removeDotSegments(path)
    }

    private static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isLetter || $0.isNumber || "+-.".contains($0) }
    }

    private static func removeDotSegments(_ path: String) -> String {
        var fragmentAndQuery = ""
        var pathOnly = Substring(path)
        if let mark = path.firstIndex(where: { $0 == "#" || $0 == "?" }) {
            fragmentAndQuery = String(path[mark...])
            pathOnly = path[..<mark]
        }
        var output: [Substring] = []
        let segments = pathOnly.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            if segment == "." { continue }
            if segment == ".." {
                if output.count > 1 { output.removeLast() }
                continue
            }
            if index > 0 || !segment.isEmpty || output.isEmpty { output.append(segment) }
        }
        var result = output.joined(separator: "/")
        if let last = segments.last, last == "." || last == ".." { result += "/" }
        return result + fragmentAndQuery
    }

    static func percentDecoded(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
