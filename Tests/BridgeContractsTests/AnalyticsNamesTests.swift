import BridgeContracts
import Testing
import TestSupport

/// The analytics event names and the funnel's home screens and sign-in event are the set's data.
@Suite("manifest analytics and funnel names")
struct AnalyticsNamesTests {
    private let analytics = #""analytics": {"#

    private func load(_ old: String, _ new: String) throws -> BridgeManifest {
        try ContractSet(files: try RepositoryContractFiles.editing([("manifest.json", old, new)]), origin: "a copy").manifest
    }

    private func refusal(_ old: String, _ new: String) throws -> String {
        let files = try RepositoryContractFiles.editing([("manifest.json", old, new)])
        do throws(ContractError) {
            _ = try ContractSet(files: files, origin: "a copy")
            Issue.record("loaded")
            return ""
        } catch {
            return error.description
        }
    }

    @Test func theExampleDeclaresItsOwnNames() throws {
        let manifest = try ContractSet(files: RepositoryContractFiles.files, origin: "contracts").manifest
        #expect(manifest.analytics == AnalyticsNames(
            pageOpened: "event_webview_opened", ctaClicked: "event_webview_cta_clicked", screenView: "screen_view",
            pushClicked: "push_clicked", externalAppOpened: "external_app_opened"))
        #expect(manifest.funnel == FunnelNames(homeScreens: ["home_screen", "home"], signIn: "sign_in_success"))
    }

    @Test func aSetThatDeclaresNoneGetsTheNeutralNames() throws {
        let text = try #require(RepositoryContractFiles.files["manifest.json"])
        let start = try #require(text.range(of: #""analytics": {"#))
        let end = try #require(text.range(of: #""limits": {"#))
        let manifest = try load(String(text[start.lowerBound..<end.lowerBound]), "")
        #expect(manifest.analytics == .neutral)
        #expect(manifest.analytics.pageOpened == "webview_opened")
        #expect(manifest.analytics.ctaClicked == "webview_cta_clicked")
        #expect(manifest.analytics.externalAppOpened == "external_app_opened")
        #expect(manifest.funnel == FunnelNames(homeScreens: ["home"], signIn: "sign_in"))
    }

    @Test func aPartialDeclarationKeepsTheOtherDefaults() throws {
        let text = try #require(RepositoryContractFiles.files["manifest.json"])
        let start = try #require(text.range(of: #""analytics": {"#))
        let end = try #require(text.range(of: #""funnel": {"#))
        let manifest = try load(String(text[start.lowerBound..<end.lowerBound]), #""analytics": {"ctaClicked": "cta_tap"},"# + "\n  ")
        #expect(manifest.analytics.ctaClicked == "cta_tap")
        #expect(manifest.analytics.pageOpened == "webview_opened")
    }

    @Test func badNamesAreRefusedWithTheirPointer() throws {
        #expect(try refusal(analytics, analytics + #""pageOpend": "x","#)
            == #"manifest.json: /analytics/pageOpend: unknown event "pageOpend" (one of: pageOpened, ctaClicked, screenView, pushClicked, externalAppOpened)"#)
        #expect(try refusal(#""pageOpened": "event_webview_opened""#, #""pageOpened": """#)
            == "manifest.json: /analytics/pageOpened: an event name must be a non-empty string without surrounding spaces")
        #expect(try refusal(#""pageOpened": "event_webview_opened""#, #""pageOpened": " opened""#)
            == "manifest.json: /analytics/pageOpened: an event name must be a non-empty string without surrounding spaces")
        #expect(try refusal(#""pageOpened": "event_webview_opened""#, #""pageOpened": 1"#)
            == "manifest.json: /analytics/pageOpened: expected a string")
        #expect(try refusal(#""pageOpened": "event_webview_opened""#, #""pageOpened": "screen_view""#)
            == #"manifest.json: /analytics/screenView: "screen_view" names two events: each event needs its own name"#)
        #expect(try refusal(#""funnel": { "homeScreens": ["home_screen", "home"]"#, #""funnel": { "homeScreens": []"#)
            == "manifest.json: /funnel/homeScreens: homeScreens must list at least one screen")
        #expect(try refusal(#""funnel": { "homeScreens": ["home_screen", "home"]"#, #""funnel": { "homeScreens": ["home_screen", ""]"#)
            == "manifest.json: /funnel/homeScreens/1: a home screen needs a name")
        #expect(try refusal(#""signIn": "sign_in_success""#, #""signIn": """#)
            == "manifest.json: /funnel/signIn: an event name must be a non-empty string without surrounding spaces")
        #expect(try refusal(#""signIn": "sign_in_success""#, #""signIn": "sign_in_success", "home": 1"#)
            == #"manifest.json: /funnel/home: unknown field "home" (a funnel has "homeScreens" and "signIn")"#)
        #expect(try refusal(analytics, #""analytics": ["#).hasPrefix("manifest.json: not valid JSON"))
    }
}
