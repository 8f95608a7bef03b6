import JSONCore

/// The channels a contract set declares beside the built-in ones, and how a link is recognised
/// as coming through one: routes.json
/// `"channels": {"NAME": {"utm_source": ["..."], "utm_medium": ["..."]}}`.
///
/// A link matches a channel when its `utm_source` is one of the channel's sources or its
/// `utm_medium` one of its media, compared without regard to case. The first declared channel
/// that matches wins; a link no channel claims is `externalURL` (https) or `appInternal` (the
/// custom scheme), as before.
public struct ChannelRules: Sendable, Equatable {
    public struct Channel: Sendable, Equatable {
        public let name: String
        /// Lower-cased, as compared.
        public let utmSources: [String]
        public let utmMedia: [String]

        public init(name: String, utmSources: [String], utmMedia: [String]) {
            self.name = name
            self.utmSources = utmSources.map { $0.lowercased() }
            self.utmMedia = utmMedia.map { $0.lowercased() }
        }

        /// `source` and `medium` lower-cased.
        func matches(source: String?, medium: String?) -> Bool {
            if let source, utmSources.contains(source) { return true }
            if let medium, utmMedia.contains(medium) { return true }
            return false
        }
    }

    /// In declaration order (the order matching tries them).
    public let channels: [Channel]

    public static let none = ChannelRules(validated: [])

    private init(validated channels: [Channel]) {
        self.channels = channels
    }

    /// Refuses a name that is empty, not a plain identifier, built in, or declared twice.
    public init(channels: [Channel]) throws(ChannelRulesError) {
        var seen: Set<String> = []
        for (index, channel) in channels.enumerated() {
            if let problem = Self.nameProblem(channel.name) { throw ChannelRulesError(index: index, name: channel.name, message: problem) }
            guard seen.insert(channel.name).inserted else {
                throw ChannelRulesError(index: index, name: channel.name, message: "channel \"\(channel.name)\" is declared twice")
            }
            guard !channel.utmSources.isEmpty || !channel.utmMedia.isEmpty else {
                throw ChannelRulesError(index: index, name: channel.name,
                    message: "channel \"\(channel.name)\" needs a non-empty \"utm_source\" or \"utm_medium\" list")
            }
        }
        self.channels = channels
    }

    private static func nameProblem(_ name: String) -> String? {
        if EntryChannel.builtIn.contains(where: { $0.rawValue.lowercased() == name.lowercased() }) {
            return "\"\(name)\" is a built-in channel (\(EntryChannel.builtIn.map(\.rawValue).joined(separator: ", "))): declare another name"
        }
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        let letter = { (byte: UInt8) in (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        guard let first = name.utf8.first, allowed, letter(first) else {
            return "channel name \"\(name)\" must start with a letter and hold only ASCII letters, digits, \"_\" and \"-\""
        }
        return nil
    }

    /// The declared channels, in order.
    public var declared: [EntryChannel] { channels.map { EntryChannel(rawValue: $0.name) } }

    /// Every channel a route may be enabled from: the built-in ones, then the declared ones.
    public var known: [EntryChannel] { EntryChannel.builtIn + declared }

    /// Every campaign source a link may carry: push, externalURL, appInternal, then the declared ones.
    public var knownSources: [CampaignMetadata.Source] {
        CampaignMetadata.Source.builtIn + channels.map { CampaignMetadata.Source(rawValue: $0.name) }
    }

    /// The channel named `name` (exactly), if it is built in or declared.
    public func channel(named name: String) -> EntryChannel? {
        known.first { $0.rawValue == name }
    }

    /// The campaign source named `name`, or an error that lists the known ones.
    public func source(named name: String) throws(UnknownChannelError) -> CampaignMetadata.Source {
        guard let source = knownSources.first(where: { $0.rawValue == name }) else {
            throw UnknownChannelError(name: name, known: knownSources.map(\.rawValue))
        }
        return source
    }

    /// The first declared channel whose utm fields `utm` matches.
    public func source(matching utm: [String: String]) -> CampaignMetadata.Source? {
        guard !channels.isEmpty, !utm.isEmpty else { return nil }
        // Lower-cased once, not once per channel.
        let source = utm["utm_source"]?.lowercased(), medium = utm["utm_medium"]?.lowercased()
        guard source != nil || medium != nil else { return nil }
        return channels.first { $0.matches(source: source, medium: medium) }.map { CampaignMetadata.Source(rawValue: $0.name) }
    }

    /// Reads routes.json's `"channels"` object (absent: none), keeping its declaration order; a
    /// `"$comment"` member is a comment, not a channel.
    public static func read(_ reader: JSONFieldReader?) throws(JSONFieldError) -> ChannelRules {
        guard let reader else { return .none }
        var channels: [Channel] = []
        for (name, _) in try reader.object() where name != "$comment" {
            let entry = try reader.child(name)
            for key in try entry.object().map(\.key) where key != "utm_source" && key != "utm_medium" {
                throw entry.fail("unknown field \"\(key)\" (a channel has \"utm_source\" and \"utm_medium\")", at: key)
            }
            func list(_ key: String) throws(JSONFieldError) -> [String] {
                guard let field = try entry.optionalChild(key) else { return [] }
                let values = try field.strings()
                guard !values.isEmpty else { throw entry.fail("\"\(key)\" must list at least one value (or be left out)", at: key) }
                for (index, value) in values.enumerated() where value.isEmpty {
                    throw field.fail("an empty \(key) matches nothing", at: String(index))
                }
                return values
            }
            channels.append(Channel(name: name, utmSources: try list("utm_source"), utmMedia: try list("utm_medium")))
        }
        do {
            return try ChannelRules(channels: channels)
        } catch {
            throw reader.fail(error.message, at: error.name)
        }
    }
}

/// A channel declaration routes.json cannot have.
public struct ChannelRulesError: Error, Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let name: String
    public let message: String

    public var description: String { message }
}

/// A channel name that is neither built in nor declared.
public struct UnknownChannelError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let known: [String]

    public init(name: String, known: [String]) {
        self.name = name
        self.known = known
    }

    public var description: String {
        "unknown channel \"\(name)\" (known: \(known.joined(separator: ", ")); declare others in routes.json \"channels\")"
    }
}
