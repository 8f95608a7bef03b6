/// A URL with `{field}` placeholders, such as `mapsapp://route?lat={lat}&lng={lng}`: how one
/// map app (or its web page) is opened for a destination. The literal text is kept as written and
/// must already be a URL (printable ASCII, no `%`, no space); each placeholder is replaced by its
/// value percent-encoded exactly once with the shared rule (`PercentEncoding`), wherever it stands:
/// a query value, a path segment, between commas. A Korean name, a space (`%20`), `+` (`%2B`) or
/// `&` (`%26`) therefore never changes what the URL means.
public struct ExternalURLTemplate: Sendable, Equatable, CustomStringConvertible {
    enum Part: Sendable, Equatable {
        case literal(String)
        case field(String)
    }

    /// The template as written in routes.json.
    public let text: String
    /// The URL scheme, lower-cased ("mapsapp", "https"): what `canOpenURL` is asked about, and
    /// what Info.plist's LSApplicationQueriesSchemes must list.
    public let scheme: String
    let parts: [Part]

    public init(_ text: String) throws(ExternalTemplateError) {
        var parts: [Part] = []
        var literal = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "{" {
                guard let close = text[index...].firstIndex(of: "}") else { throw .unclosedPlaceholder(text) }
                let name = String(text[text.index(after: index)..<close])
                guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") }) else {
                    throw .badPlaceholder(text, name)
                }
                if !literal.isEmpty { parts.append(.literal(literal)) }
                literal = ""
                parts.append(.field(name))
                index = text.index(after: close)
                continue
            }
            guard let ascii = character.asciiValue, ascii > 0x20, ascii < 0x7F, !"%}\"<>\\^`|".contains(character) else {
                throw .badCharacter(text, character)
            }
            literal.append(character)
            index = text.index(after: index)
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        // The scheme is literal: a value can never choose which app opens.
        guard case .literal(let head)? = parts.first, let colon = head.firstIndex(of: ":") else { throw .noScheme(text) }
        let scheme = head[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
              scheme.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || "+.-".unicodeScalars.contains($0) }) else {
            throw .noScheme(text)
        }
        self.text = text
        self.scheme = scheme
        self.parts = parts
    }

    /// The placeholder names, in order of first appearance.
    public var fields: [String] {
        var names: [String] = []
        for case .field(let name) in parts where !names.contains(name) { names.append(name) }
        return names
    }

    /// The URL for these values (each encoded once). nil names a placeholder that has no value.
    public func build(_ values: [String: String]) -> Result<String, MissingTemplateValue> {
        var url = ""
        for part in parts {
            switch part {
            case .literal(let text): url += text
            case .field(let name):
                guard let value = values[name], !value.isEmpty else { return .failure(MissingTemplateValue(field: name)) }
                url += PercentEncoding.encode(value)
            }
        }
        return .success(url)
    }

    public var description: String { text }
}

/// A URL template names a field the destination does not give (or gives empty).
public struct MissingTemplateValue: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public var description: String { "no value for {\(field)}" }
}

public enum ExternalTemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    case unclosedPlaceholder(String)
    case badPlaceholder(String, String)
    case badCharacter(String, Character)
    case noScheme(String)

    public var description: String {
        switch self {
        case .unclosedPlaceholder(let text): return "\"\(text)\": a \"{\" without its \"}\""
        case .badPlaceholder(let text, let name): return "\"\(text)\": \"{\(name)}\" is not a field name (letters, digits, _)"
        case .badCharacter(let text, let character):
            return "\"\(text)\": \"\(character)\" cannot stand in a URL as written (write the URL as it is sent, without %-escapes or spaces)"
        case .noScheme(let text): return "\"\(text)\" does not start with a literal scheme such as mapsapp:// or https://"
        }
    }
}

/// One app that can take the destination: the URL that opens it, and where to go when it is not
/// installed (its mobile web page or its App Store page).
public struct ExternalProvider: Sendable, Equatable {
    public let name: String
    public let app: ExternalURLTemplate
    public let fallback: ExternalURLTemplate?

    public init(name: String, app: ExternalURLTemplate, fallback: ExternalURLTemplate?) {
        self.name = name
        self.app = app
        self.fallback = fallback
    }
}

/// A destination outside the app (e.g. directions to a place in whichever
/// map app the person has). The route's query carries the destination and the provider; routes.json
/// says how each provider's app and fallback URLs are built from them.
public struct ExternalRoute: Sendable, Equatable {
    /// The query field (or path parameter) that names the provider.
    public let providerField: String
    /// In declaration order.
    public let providers: [ExternalProvider]

    public init(providerField: String, providers: [ExternalProvider]) {
        self.providerField = providerField
        self.providers = providers
    }

    public func provider(named name: String) -> ExternalProvider? {
        providers.first { $0.name == name }
    }

    public var providerNames: [String] { providers.map(\.name) }

    /// Every field a destination needs: the provider's, then every placeholder of any template.
    public var requiredFields: [String] {
        var names = [providerField]
        for provider in providers {
            for name in provider.app.fields + (provider.fallback?.fields ?? []) where !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Why these values are not a destination this route can open (nil: they are).
    public func problem(with values: [String: String]) -> String? {
        for name in requiredFields where (values[name] ?? "").isEmpty {
            return "\(name) is missing"
        }
        let name = values[providerField] ?? ""
        if provider(named: name) == nil {
            return "\(providerField) \"\(name)\" is not one of \(providerNames.joined(separator: ", "))"
        }
        return nil
    }
}

/// The URLs of one external destination, for one provider.
public struct ExternalLinks: Sendable, Equatable {
    public let provider: String
    /// The URL that opens the provider's app.
    public let app: String
    public let appScheme: String
    /// Where to go when the app cannot be opened; nil when the provider has none.
    public let fallback: String?
}

extension ParsedDeeplink {
    /// The path parameters and the first value of each query field, by name.
    public var fieldValues: [String: String] {
        var values = pathParameters
        for (name, list) in queryParameters where values[name] == nil {
            if let first = list.first { values[name] = first }
        }
        return values
    }

    /// For an external route: the provider's app and fallback URLs, each value encoded once.
    public func externalLinks() -> Result<ExternalLinks, ExternalLinkError> {
        guard let external = configuration.external else { return .failure(.notExternal(configuration.name)) }
        let values = fieldValues
        let name = values[external.providerField] ?? ""
        guard let provider = external.provider(named: name) else {
            return .failure(.unknownProvider(name, valid: external.providerNames))
        }
        let app: String
        switch provider.app.build(values) {
        case .failure(let missing): return .failure(.missingField(missing.field, provider: provider.name))
        case .success(let url): app = url
        }
        var fallback: String?
        if let template = provider.fallback {
            switch template.build(values) {
            case .failure(let missing): return .failure(.missingField(missing.field, provider: provider.name))
            case .success(let url): fallback = url
            }
        }
        return .success(ExternalLinks(provider: provider.name, app: app, appScheme: provider.app.scheme, fallback: fallback))
    }
}

/// Why an external destination's URLs could not be built.
public enum ExternalLinkError: Error, Sendable, Equatable, CustomStringConvertible {
    case notExternal(String)
    case unknownProvider(String, valid: [String])
    case missingField(String, provider: String)

    public var description: String {
        switch self {
        case .notExternal(let route): return "route \(route) is not an external destination"
        case .unknownProvider(let name, let valid): return "no provider \"\(name)\" (providers: \(valid.joined(separator: ", ")))"
        case .missingField(let field, let provider): return "\(provider): the destination has no \(field)"
        }
    }
}
