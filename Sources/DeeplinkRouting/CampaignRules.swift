/// What a campaign value may be, field by field: the contract's campaign schema (campaign.v1.json)
/// as data the routing layer can apply without a JSON Schema checker. BridgeContracts derives it
/// from the schema (and refuses a schema it cannot express); the generated web shim carries the
/// same data. Every tool applies it the same way:
///
/// - `link build` refuses a value that breaks it (the link would be wrong the moment it is sent);
/// - a link that is read (route, the app's host, the web shim) drops such a value with a warning.
///   Dropped, not kept: the page cannot send it back (the envelope's campaign schema would reject
///   the whole message), so a kept value would make the app and the page record different
///   campaigns for one visit; and never cut short, because a shortened campaign_id credits a
///   campaign that does not exist.
public struct CampaignRules: Sendable, Equatable {
    /// The fields in the shared URL order (campaign_id, group_id, variant, utm_*).
    public let fields: [CampaignFieldRule]
    /// When true, a campaign key the rules do not list (utm_foo) is not a campaign field: the
    /// schema closes the object (additionalProperties: false).
    public let closed: Bool

    public init(fields: [CampaignFieldRule], closed: Bool) {
        self.fields = fields
        self.closed = closed
    }

    /// No rules: every value is accepted (an app that routes links without a bridge contract).
    public static let unrestricted = CampaignRules(fields: [], closed: false)

    public func rule(for name: String) -> CampaignFieldRule? {
        fields.first { $0.name == name }
    }

    /// Why `value` cannot be the campaign field `name`, or nil when it can.
    public func violation(name: String, value: String) -> CampaignRuleViolation? {
        guard let rule = rule(for: name) else {
            guard closed else { return nil }
            return CampaignRuleViolation(
                rule: nil,
                problem: "\(name) is not a campaign field of the contract (fields: \(fields.map(\.name).joined(separator: ", ")))")
        }
        return rule.violation(value)
    }
}

/// One field's rule: a length in characters (code points, as JSON Schema counts them) and an
/// optional pattern.
public struct CampaignFieldRule: Sendable, Equatable {
    public let name: String
    /// The tightest bounds of the schema's minLength/maxLength and the pattern's own length.
    public let minLength: Int
    public let maxLength: Int?
    public let pattern: ScalarPattern?

    public init(name: String, minLength: Int, maxLength: Int?, pattern: ScalarPattern?) {
        self.name = name
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
    }

    /// The rule in plain words: "1 to 64 characters: one of A-Z a-z 0-9, then up to 63 of ...".
    public var summary: String {
        let length: String
        switch (minLength, maxLength) {
        case (0, nil): length = "any text"
        case (let low, nil): length = "at least \(low) character\(low == 1 ? "" : "s")"
        case (0, let high?): length = "at most \(high) character\(high == 1 ? "" : "s")"
        case (let low, let high?) where low == high: length = "exactly \(low) character\(low == 1 ? "" : "s")"
        case (let low, let high?): length = "\(low) to \(high) characters"
        }
        guard let pattern else { return length }
        return length + ": " + pattern.summary
    }

    public func violation(_ value: String) -> CampaignRuleViolation? {
        let scalars = Array(value.unicodeScalars)
        let problem: String
        if let maxLength, scalars.count > maxLength {
            problem = "it is \(scalars.count) characters long, at most \(maxLength) allowed"
        } else if scalars.count < minLength {
            problem = "it is \(scalars.count) character\(scalars.count == 1 ? "" : "s") long, at least \(minLength) needed"
        } else if let mismatch = pattern?.mismatch(scalars) {
            switch mismatch {
            case .notAllowed(let position, let scalar, let allowed):
                problem = "character \(position) is \(LinkText.described(scalar)), which is not allowed there (allowed: \(allowed.joined(separator: "; or ")))"
            case .endsTooEarly:
                problem = "it ends too early"
            }
        } else {
            return nil
        }
        return CampaignRuleViolation(rule: summary, problem: problem)
    }
}

/// Why a value breaks a campaign field's rule: the rule in plain words (nil when the field is not
/// a campaign field at all) and what is wrong.
public struct CampaignRuleViolation: Sendable, Equatable {
    public let rule: String?
    public let problem: String

    public init(rule: String?, problem: String) {
        self.rule = rule
        self.problem = problem
    }

    /// `"2025 Q3" breaks the campaign rule (1 to 64 characters: ...): character 5 is ...`, for a
    /// value that is refused.
    public func refusal(of value: String) -> String {
        guard let rule else { return LinkText.shown(value) + ": " + problem }
        return LinkText.shown(value) + " breaks the campaign rule (" + rule + "): " + problem
    }

    /// The same, for a value read from a link and dropped.
    public func drop(of value: String) -> String {
        guard let rule else { return LinkText.shown(value) + " dropped: " + problem }
        return LinkText.shown(value) + " dropped, it breaks the campaign rule (" + rule + "): " + problem
    }
}
