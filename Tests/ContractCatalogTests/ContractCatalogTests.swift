import BridgeCLI
import BridgeCodegen
import BridgeContracts
@testable import ContractCatalog
import Foundation
import Testing
import TestSupport

/// The contract catalog's pages as text: what they hold, that they are deterministic, and that
/// releases.json shows up when a contract set has one. (catalog/test/ checks them in Chromium.)
@MainActor @Suite struct ContractCatalogTests {
    static func files(_ contracts: ContractSet) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try ContractCatalog.files(for: contracts, toolVersion: "9.9.9", answers: MockHostFixtureAnswers()).map { ($0.path, $0.contents) })
    }

    @Test func onePagePerActionVersionAndTheSameBytesEachTime() throws {
        let contracts = try ContractSet.load(directory: RepositoryPaths.contracts.path)
        let first = try ContractCatalog.files(for: contracts, toolVersion: "9.9.9", answers: MockHostFixtureAnswers())
        let second = try ContractCatalog.files(for: try ContractSet.load(directory: RepositoryPaths.contracts.path), toolVersion: "9.9.9", answers: MockHostFixtureAnswers())
        #expect(first == second)
        var expected = ["index.html", "link-builder.html", "link-builder.js", "catalog.css"]
        for action in contracts.manifest.actions {
            for version in action.versions { expected.append("actions/\(action.name)-v\(version.version).html") }
        }
        expected += ["events/navigation_completed.html", "events/login_state_changed.html"]
        #expect(first.map(\.path) == expected)
    }

    @Test func theIndexListsTheEventsAndEachEventPageHasItsPayloadFieldsExamplesAndFixtures() throws {
        let files = try Self.files(try ContractSet.load(directory: RepositoryPaths.contracts.path))
        let index = try #require(files["index.html"])
        #expect(index.contains("<h2 id=\"events\">Events (app to page)</h2>"))
        #expect(index.contains("<tr><td><code>login_state_changed</code></td><td>로그인 상태 변경</td><td><a href=\"events/login_state_changed.html#v1\">v1</a></td><td>these contracts</td></tr>"))
        #expect(index.contains("<a href=\"events/navigation_completed.html#v1\">v1</a></td><td>built in: every app sends it</td>"))
        let page = try #require(files["events/login_state_changed.html"])
        #expect(page.contains("<h2 id=\"v1\">Version 1</h2>"))
        #expect(page.contains("<tr><td><code>payload.loggedIn</code></td><td>boolean</td><td><span class=\"tag bad\">required</span></td><td></td><td>Whether a person is logged in now.</td></tr>"))
        #expect(page.contains("<li>one of: &quot;login&quot;, &quot;logout&quot;, &quot;session_expired&quot;</li>"))
        #expect(!page.contains("<code>event</code>") && !page.contains("<code>v</code></td>"), "the payload's fields, not the envelope's")
        #expect(page.contains("<pre class=\"message\">{&quot;v&quot;:1,&quot;event&quot;:&quot;login_state_changed&quot;,&quot;version&quot;:1,&quot;payload&quot;:{&quot;loggedIn&quot;:true,&quot;reason&quot;:&quot;login&quot;}}</pre>"))
        #expect(page.contains("<div class=\"example\" id=\"v1-invalid-unknown-reason\">"))
        #expect(page.contains("<li><code>/payload/reason</code> breaks <code>enum</code></li>"))
        // The built-in event's page reads its schema from BuiltInEvents.
        let builtIn = try #require(files["events/navigation_completed.html"])
        #expect(builtIn.contains("<code>urn:bridgekit:builtin/navigation_completed.v1.json</code>"))
        #expect(builtIn.contains("<tr><td><code>payload.requestId</code></td><td>string</td><td><span class=\"tag bad\">required</span></td><td><ul><li>1 to 128 characters</li></ul></td>"))
        // Each page shows its own event's fixtures only: none of login_state_changed's v1 on the built-in's v1.
        #expect(page.components(separatedBy: "<div class=\"example\" id=\"v1-").count - 1 == 4)
        #expect(!builtIn.contains("<h3>Contract tests</h3>") && !builtIn.contains("v1-valid-login"))
    }

    @Test func theIndexListsEveryActionVersionWithItsKoreanTitleAndTheCampaignRules() throws {
        let contracts = try ContractSet.load(directory: ExampleContracts.path)
        let index = try #require(try Self.files(contracts)["index.html"])
        for action in contracts.manifest.actions {
            #expect(index.contains("<td>\(action.title)</td>"), "\(action.name)")
            for version in action.versions { #expect(index.contains("href=\"actions/\(action.name)-v\(version.version).html\"")) }
        }
        #expect(index.contains("id=\"campaign-rules\""))
        #expect(index.contains("1 to 64 characters: one of A-Z a-z 0-9, then up to 63 of A-Z a-z 0-9 _ . -"))
        #expect(index.contains("<h2 id=\"releases\">App builds in the field</h2>"), "the bundled contracts record releases")
        #expect(!index.contains("<script"), "the index needs no script")
        // "login first" beside each action version whose route needs it, and each such route.
        let gatedVersions = contracts.manifest.actions.flatMap(\.versions).filter { version in
            version.route.flatMap(contracts.route(named:))?.requiresAuth == true
        }
        let gatedRoutes = contracts.routes.filter(\.requiresAuth)
        #expect(!gatedVersions.isEmpty && !gatedRoutes.isEmpty)
        #expect(index.components(separatedBy: "<span class=\"tag login\">login first</span>").count - 1 == gatedVersions.count + gatedRoutes.count)
    }

    /// A pattern the catalog cannot put in plain words is shown as written, with nothing after it.
    @Test func aPatternWithoutPlainWordsIsShownAsWritten() throws {
        var files = try ExampleContracts.files()
        files["schemas/apply.v1.json"] = files["schemas/apply.v1.json"]!
            .replacingOccurrences(of: #""pattern": "^[a-z0-9-]{1,64}$""#, with: #""pattern": "^(new|spring)-[a-z-]+$""#)
        let page = try #require(try Self.files(try ContractSet(files: files, origin: "copy"))["actions/apply-v1.html"])
        #expect(page.contains("<li>matches ^(new|spring)-[a-z-]+$</li>"), "\(page)")
    }

    @Test func anActionPageHasTheFieldsInWordsTheExamplesWithTheAppsAnswerAndTheRoute() throws {
        let page = try #require(try Self.files(try ContractSet.load(directory: ExampleContracts.path))["actions/apply-v1.html"])
        #expect(page.contains("<tr><td><code>payload.slug</code></td><td>string</td><td><span class=\"tag bad\">required</span></td><td><ul><li>matches ^[a-z0-9-]{1,64}$ (1 to 64 of a-z 0-9 -)</li></ul></td>"))
        #expect(page.contains("<li>one of: &quot;basic&quot;, &quot;premium&quot;, &quot;business&quot;</li>"))
        #expect(page.contains("<a href=\"../index.html#campaign-rules\">see the campaign rules</a>"))
        // The answer is the real host's: an invalid slug is INVALID_PARAMS with the checker's sentence.
        #expect(page.contains("<span class=\"tag bad\">INVALID_PARAMS</span> apply v1: 1 invalid field"))
        #expect(page.contains("Route <a href=\"../link-builder.html#route=applyForm\">applyForm</a> <code>/event/:slug/apply</code> <span class=\"tag login\">login first</span>"))
        #expect(page.contains("Example link (from the first valid example): <code>https://sendy.co.kr/event/new-user-promo/apply</code>"))
        #expect(page.contains("<p>From the message: <code>slug</code> ← <code>/payload/slug</code>, <code>plan</code> ← <code>/payload/plan</code>, "))
    }

    /// A route that takes nothing from the message gets no mapping line, not an empty one.
    @Test func aRouteWithNothingFromTheMessageHasNoMappingLine() throws {
        var files = try ExampleContracts.files()
        let query = #""query": { "referrer": "/payload/referrer", "promoCode": "/payload/promoCode" },"#
        #expect(files["manifest.json"]!.contains(query))
        files["manifest.json"] = files["manifest.json"]!.replacingOccurrences(of: query, with: "")
        let page = try #require(try Self.files(try ContractSet(files: files, origin: "test copy"))["actions/start-v1.html"])
        #expect(page.contains("Route <a href=\"../link-builder.html#route=onboardingStart\">onboardingStart</a>"))
        #expect(!page.contains("From the message"))
    }

    /// The link builder sits at the catalog's root: its stylesheet and links need no prefix.
    @Test func theLinkBuilderPageLinksFromTheCatalogRoot() throws {
        let page = try #require(try Self.files(try ContractSet.load(directory: ExampleContracts.path))["link-builder.html"])
        #expect(page.contains("<link rel=\"stylesheet\" href=\"catalog.css\">"))
        #expect(page.contains("<a href=\"index.html\">Contract catalog</a>"))
    }

    /// Each example says under which conditions the app answered it, and only those: the one
    /// fixture of apply v1 sent while logged out says so, the others do not.
    @Test func anExampleNamesItsConditionsAndOnlyItsOwn() throws {
        let contracts = try ContractSet.load(directory: ExampleContracts.path)
        let page = try #require(try Self.files(contracts)["actions/apply-v1.html"])
        let loggedOut = contracts.fixtures.filter { $0.path.hasPrefix("fixtures/apply/v1/") && !$0.authenticated }
        #expect(loggedOut.map(\.path) == ["fixtures/apply/v1/valid-logged-out.json"])
        #expect(page.components(separatedBy: "nobody is logged in").count - 1 == loggedOut.count)
        let example = try #require(page.range(of: "<div class=\"example\" id=\"valid-logged-out\">"))
        let note = try #require(page.range(of: "nobody is logged in"))
        #expect(example.upperBound < note.lowerBound && page[example.upperBound..<note.lowerBound].contains("<div class=\"example\"") == false)
    }

    /// The field table follows nested objects four levels below a top member (payload.promo.a.b.c),
    /// and no further.
    @Test func nestedFieldsAreListedFourLevelsDownAndNoFurther() throws {
        var files = try ExampleContracts.files()
        let nested = #"{"type": "object", "properties": {"e": {"type": "object", "properties": {"f": {"type": "string"}}}}}"#
        let levels = ["d", "c", "b", "a"].reduce(nested) { inner, name in #"{"type": "object", "properties": {"\#(name)": \#(inner)}}"# }
        files["schemas/start.v1.json"] = files["schemas/start.v1.json"]!
            .replacingOccurrences(of: #""promoCode": { "type": "string", "pattern": "^[A-Z0-9]{4,16}$" }"#, with: #""promo": "# + levels)
        let contracts = try ContractSet(files: files, origin: "test copy")
        let paths = FieldTable(contracts: contracts, campaignFile: nil).rows(file: "start.v1.json").map(\.path)
        #expect(paths.contains("payload.promo.a.b"))
        #expect(paths.contains("payload.promo.a.b.c"))
        #expect(!paths.contains("payload.promo.a.b.c.d"))
        #expect(paths.filter { $0.hasPrefix("payload.promo") } == ["payload.promo", "payload.promo.a", "payload.promo.a.b", "payload.promo.a.b.c"])
    }

    @Test func theLinkBuilderScriptIsTheShimsOwnCodeAsOneClassicScript() throws {
        let script = try #require(try Self.files(try ContractSet.load(directory: ExampleContracts.path))["link-builder.js"])
        #expect(script.hasPrefix("// link-builder.js: GENERATED by `bridgectl docs`"))
        #expect(!script.contains("\nimport ") && !script.contains("\nexport "), "no module syntax: file:// pages cannot load modules")
        #expect(script.contains("function buildLink(table, routeName, parameters, query, campaign, options)"))
        #expect(script.contains("function readCampaignFromURL(rules, href)"))
        #expect(script.contains("const LINK_TABLE = {"))
    }

    @Test func moduleSyntaxItCannotJoinIsRefusedNotGuessed() {
        #expect(throws: CatalogError("js/x.js:2: only `export function|const|class|let` declarations can be joined into the catalog's script")) {
            try LinkBuilderScript.classic("const a = 1;\nexport { a };\n", name: "js/x.js")
        }
        #expect(throws: CatalogError("js/x.js:1: only `import {...} from \"./link-rules.js\"` can be joined into the catalog's script")) {
            try LinkBuilderScript.classic("import { b } from \"./other.js\";\n", name: "js/x.js")
        }
        #expect((try? LinkBuilderScript.classic("import {\n  a, b\n} from \"./link-rules.js\";\nexport function f() {}\n", name: "js/x.js")) == "export function f() {}\n".replacingOccurrences(of: "export ", with: ""))
    }

    /// With contracts/releases.json, the index shows which builds take each action version, and
    /// support-ended builds struck through.
    @Test func releasesAppearWhenTheContractsRecordThem() throws {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        files["releases.json"] = """
        {"releases": [
          {"platform": "ios", "version": "5.9.0", "status": "support-ended", "share": 0.3, "actions": {"view_vehicles": [1], "start": [1]}},
          {"platform": "ios", "version": "5.13.0", "status": "supported", "share": 42, "actions": {"apply": [1, 2], "view_vehicles": [1], "start": [1]}},
          {"platform": "android", "version": "5.12.3", "status": "supported", "share": 6, "actions": {"apply": [1], "view_vehicles": [1], "start": [1]}}
        ]}
        """
        let index = try #require(try Self.files(try ContractSet(files: files, origin: "a copy"))["index.html"])
        #expect(index.contains("<th>App builds that take it</th>"))
        #expect(index.contains("<td>iOS 5.13.0<br>Android 5.12.3</td>"), "apply v1")
        #expect(index.contains("<td>iOS 5.13.0</td>"), "apply v2")
        #expect(index.contains("<td>iOS <span class=\"tag ended\" title=\"support-ended\">5.9.0</span>, 5.13.0<br>Android 5.12.3</td>"), "view_vehicles v1")
        #expect(index.contains("<td>42%</td>"))

        files.removeValue(forKey: "releases.json")
        let none = try #require(try Self.files(try ContractSet(files: files, origin: "a copy"))["index.html"])
        #expect(none.contains("once the contracts record releases"), "no releases.json: the index says where builds will appear")

        files["releases.json"] = #"{"builds": []}"#
        let broken = try #require(try Self.files(try ContractSet(files: files, origin: "a copy"))["index.html"])
        #expect(broken.contains("App builds are not shown: releases.json has no &quot;releases&quot; array."))
    }
}
