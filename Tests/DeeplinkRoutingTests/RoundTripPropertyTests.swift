import DeeplinkRouting
import Testing
import TestSupport

/// Values built from the pieces that break hand-made links.
struct LinkValueGenerator {
    var random: SeededGenerator

    static let pieces: [String] = [
        "a", "Z", "7", "-", ".", "_", "~", " ", "  ", "+", "&", "=", "%", "/", "?", "#", ";", ",", ":", "@", "!", "'", "(", "*",
        "%41", "%25", "%2F", "%EC%84%BC", "%%", "%E", "\\", "\"", "<", ">", "\t", "\n",
        "카드", "스캐너", "센디", "신청", "1톤", "가을 이벤트", "😀", "🚚", "👨‍👩‍👧", "é", "ß", "漢字", "\u{2028}",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    mutating func value(of type: ParameterType) -> String {
        switch type {
        case .string:
            return (0..<int(1...6)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
        case .int:
            return String(UInt64.random(in: 0...UInt64(Int64.max), using: &random) >> UInt64(int(0...62)))
        case .uuid:
            let hex = Array(chance(50) ? "0123456789abcdef" : "0123456789ABCDEF")
            let groups = [8, 4, 4, 4, 12].map { count in String((0..<count).map { _ in hex.randomElement(using: &random)! }) }
            return groups.joined(separator: "-")
        case .slug:
            let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789-")
            return String((0..<int(1...64)).map { _ in alphabet.randomElement(using: &random)! })
        case .latitude, .longitude:
            let limit: Double = type == .latitude ? 90 : 180
            var value = Double.random(in: -limit...limit, using: &random)
            if chance(30) { value /= 1e9 }  // near zero, where an exponent would creep in
            return DecimalText.plain(value)!
        }
    }

    mutating func optionalText() -> String? { chance(50) ? value(of: .string) : nil }

    mutating func campaign() -> CampaignMetadata {
        var utm: [String: String] = [:]
        for key in CampaignMetadata.standardUTMKeys where chance(40) { utm[key] = value(of: .string) }
        if chance(20) { utm["utm_" + value(of: .slug)] = value(of: .string) }
        return CampaignMetadata(
            campaignId: optionalText(), groupId: optionalText(), variant: optionalText(), utm: utm,
            source: (CampaignMetadata.Source.builtIn + [.kakaotalk]).randomElement(using: &random)!)
    }
}

@Suite struct RoundTripPropertyTests {
    /// parse(build(x)) == x for every bundled route: route, path parameters, query (repeats and
    /// order kept) and campaign all come back; the only warnings are for values that look encoded
    /// or hold a control character.
    @Test(arguments: RoutingFixtures.routes.map(\.name))
    func parseOfBuildIsIdentity(routeName: String) throws {
        let handler = RoutingFixtures.handler
        let builder = handler.urlBuilder
        let route = try #require(handler.routes.route(named: routeName))
        var generator = LinkValueGenerator(random: SeededGenerator(seed: routeName.utf8.reduce(UInt64(0x5E_4D1)) { $0 &* 31 &+ UInt64($1) }))
        for caseNumber in 0..<600 {
            var parameters: [String: String] = [:]
            for name in route.parameterNames { parameters[name] = generator.value(of: route.parameters[name] ?? .string) }
            var query: [String: [String]] = [:]
            let required = route.external?.requiredFields ?? []
            for field in route.query where required.contains(field.name) || generator.chance(60) {
                query[field.name] = (0..<generator.int(1...3)).map { _ in generator.value(of: field.type) }
            }
            // An external destination names one of its providers.
            if let external = route.external {
                query[external.providerField] = [external.providerNames.randomElement(using: &generator.random)!]
            }
            let campaign = generator.campaign()
            let scheme: DeeplinkURLBuilder.Scheme = generator.chance(50) ? .https : .custom

            let url = try builder.build(route: routeName, parameters: parameters, query: query, campaign: campaign, scheme: scheme)
            let parsed: ParsedDeeplink
            do {
                parsed = try handler.parse(url, source: campaign.source)
            } catch {
                Issue.record("case \(caseNumber): \(url) did not parse: \(error)")
                continue
            }
            #expect(parsed.configuration.name == routeName, "case \(caseNumber): \(url)")
            #expect(parsed.pathParameters == parameters, "case \(caseNumber): \(url)")
            #expect(parsed.queryParameters == query, "case \(caseNumber): \(url)")
            #expect(parsed.campaignMetadata == campaign, "case \(caseNumber): \(url)")
            #expect(parsed.url == (try builder.build(route: routeName, parameters: parameters, query: query)), "case \(caseNumber)")

            func noteworthy(_ value: String) -> Bool { PercentEncoding.looksEncoded(value) || LinkText.firstControl(value) != nil }
            var expectedWarnings: Set<String> = []
            for (name, value) in parameters where PercentEncoding.looksEncoded(value) { expectedWarnings.insert("path.\(name)") }
            for (name, values) in query where values.contains(where: noteworthy) { expectedWarnings.insert("query.\(name)") }
            for (name, value) in campaign.queryItems where noteworthy(value) { expectedWarnings.insert("query.\(name)") }
            #expect(Set(parsed.warnings.map(\.field)) == expectedWarnings, "case \(caseNumber): \(url)")
            // Nothing but unreserved characters, %XX and the URL's own delimiters is ever emitted.
            #expect(url.utf8.allSatisfy { $0 < 0x80 && $0 > 0x20 }, "case \(caseNumber): \(url)")
        }
    }

    @Test func generatorIsDeterministic() {
        var first = LinkValueGenerator(random: SeededGenerator(seed: 42))
        var second = LinkValueGenerator(random: SeededGenerator(seed: 42))
        #expect((0..<50).map { _ in first.value(of: .string) } == (0..<50).map { _ in second.value(of: .string) })
    }
}
