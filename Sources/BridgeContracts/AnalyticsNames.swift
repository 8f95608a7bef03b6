/// The analytics event names a contract set's hosts emit and its funnel reads: manifest.json
/// `"analytics": {"pageOpened", "ctaClicked", "screenView", "pushClicked", "externalAppOpened"}`,
/// each optional, defaulting to a neutral name.
public struct AnalyticsNames: Sendable, Equatable {
    /// A WebView page was opened (with its entry link's campaign).
    public var pageOpened: String
    /// A CTA message was accepted.
    public var ctaClicked: String
    /// A navigation the host caused showed its screen.
    public var screenView: String
    /// A push notification was tapped.
    public var pushClicked: String
    /// A CTA's destination opened outside the app (a map app, or its fallback).
    public var externalAppOpened: String

    public init(pageOpened: String, ctaClicked: String, screenView: String, pushClicked: String, externalAppOpened: String) {
        self.pageOpened = pageOpened
        self.ctaClicked = ctaClicked
        self.screenView = screenView
        self.pushClicked = pushClicked
        self.externalAppOpened = externalAppOpened
    }

    /// The names of a set that declares none.
    public static let neutral = AnalyticsNames(
        pageOpened: "webview_opened", ctaClicked: "webview_cta_clicked", screenView: "screen_view",
        pushClicked: "push_clicked", externalAppOpened: "external_app_opened")

    static var keys: [(key: String, path: WritableKeyPath<AnalyticsNames, String>)] {
        [("pageOpened", \.pageOpened), ("ctaClicked", \.ctaClicked), ("screenView", \.screenView),
         ("pushClicked", \.pushClicked), ("externalAppOpened", \.externalAppOpened)]
    }

    static func load(_ reader: FieldReader?) throws(ContractError) -> AnalyticsNames {
        var names = AnalyticsNames.neutral
        guard let reader else { return names }
        for (key, _) in try reader.object() where key != "$comment" {
            guard let path = keys.first(where: { $0.key == key })?.path else {
                throw reader.fail("unknown event \"\(key)\" (one of: \(keys.map(\.key).joined(separator: ", ")))", at: key)
            }
            names[keyPath: path] = try nonEmptyName(reader, key)
        }
        let all = keys.map { names[keyPath: $0.path] }
        for (index, name) in all.enumerated() where all[..<index].contains(name) {
            throw reader.fail("\"\(name)\" names two events: each event needs its own name", at: keys[index].key)
        }
        return names
    }
}

/// What the funnel reads besides the event names: manifest.json
/// `"funnel": {"homeScreens": [...], "signIn": "..."}`.
public struct FunnelNames: Sendable, Equatable {
    /// Screens that are the app's home (a link that lands there did not reach its target); an
    /// event of one of these names shows that screen.
    public var homeScreens: [String]
    /// The event of a completed sign-in.
    public var signIn: String

    public init(homeScreens: [String], signIn: String) {
        self.homeScreens = homeScreens
        self.signIn = signIn
    }

    public static let neutral = FunnelNames(homeScreens: ["home"], signIn: "sign_in")

    static func load(_ reader: FieldReader?) throws(ContractError) -> FunnelNames {
        var names = FunnelNames.neutral
        guard let reader else { return names }
        for (key, _) in try reader.object() where !["$comment", "homeScreens", "signIn"].contains(key) {
            throw reader.fail("unknown field \"\(key)\" (a funnel has \"homeScreens\" and \"signIn\")", at: key)
        }
        if let screens = try reader.optionalChild("homeScreens") {
            let list = try screens.strings()
            guard !list.isEmpty else { throw reader.fail("homeScreens must list at least one screen", at: "homeScreens") }
            for (index, screen) in list.enumerated() where screen.isEmpty {
                throw screens.fail("a home screen needs a name", at: String(index))
            }
            names.homeScreens = list
        }
        if try reader.optionalChild("signIn") != nil { names.signIn = try nonEmptyName(reader, "signIn") }
        return names
    }
}

/// The non-empty string at `key`, without surrounding whitespace to hide a second name.
private func nonEmptyName(_ reader: FieldReader, _ key: String) throws(ContractError) -> String {
    let name = try reader.child(key).string()
    guard let first = name.first, let last = name.last, !first.isWhitespace, !last.isWhitespace else {
        throw reader.fail("an event name must be a non-empty string without surrounding spaces", at: key)
    }
    return name
}
