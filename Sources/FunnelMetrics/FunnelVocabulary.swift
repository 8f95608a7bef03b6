/// The names a funnel reads from a log: the analytics events of the contract set's hosts and its
/// home screens and sign-in event (manifest.json `"analytics"` and `"funnel"`; bridgectl funnel
/// passes the loaded set's). The funnel knows no company's names.
public struct FunnelVocabulary: Sendable, Equatable {
    public var pushClicked: String
    public var pageOpened: String
    public var ctaClicked: String
    public var screenView: String
    /// Screens that are the app's home; an event of one of these names shows that screen.
    public var homeScreens: [String]
    public var signIn: String

    public init(pushClicked: String, pageOpened: String, ctaClicked: String, screenView: String,
                homeScreens: [String], signIn: String) {
        self.pushClicked = pushClicked
        self.pageOpened = pageOpened
        self.ctaClicked = ctaClicked
        self.screenView = screenView
        self.homeScreens = homeScreens
        self.signIn = signIn
    }

    /// The defaults of a manifest that declares no names.
    public static let neutral = FunnelVocabulary(
        pushClicked: "push_clicked", pageOpened: "webview_opened", ctaClicked: "webview_cta_clicked",
        screenView: "screen_view", homeScreens: ["home"], signIn: "sign_in")

    /// The steps of the campaign funnel, which should all carry the campaign (the seed's list).
    public var steps: [String] { [pushClicked, pageOpened, ctaClicked, screenView] }
}
