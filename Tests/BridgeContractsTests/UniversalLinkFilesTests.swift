import BridgeContracts
import DeeplinkRouting
import JSONCore
import Testing
import TestSupport

/// The AASA and assetlinks.json written from routes.json and the manifest, and the linter's check
/// of the committed copies in contracts/well-known/.
@Suite struct UniversalLinkFilesTests {
    @Test func aasaPatternsMatchAsAppleDescribes() {
        func opens(_ components: [(String, Bool)], _ path: String) -> Bool {
            let document: JSONValue = ["applinks": ["details": [["appIDs": ["T.app"], "components": .array(components.map { pattern, exclude in
                exclude ? ["/": .string(pattern), "exclude": true] : ["/": .string(pattern)] })]]]]
            return AASAMatcher(document: document, appID: "T.app")!.opensInApp(path)
        }
        #expect(opens([("/event/*", false)], "/event/a/b"), "* matches slashes too")
        #expect(opens([("/event/*", false)], "/event/"))
        #expect(!opens([("/event/?*", false)], "/event/"), "? needs one character")
        #expect(opens([("/event/?", false)], "/event/a"))
        #expect(!opens([("/event/?", false)], "/event/ab"), "the whole path must match")
        #expect(!opens([("/event/?*/?*", true), ("/event/?*", false)], "/event/a/b"), "the first matching component decides")
        #expect(opens([("/event/?*/?*", true), ("/event/?*", false)], "/event/a/"))
        #expect(!opens([("/a", false)], "/A"), "case-sensitive")
        #expect(AASAMatcher(document: ["applinks": ["details": []]], appID: "T.app") == nil)
    }

    /// The generated AASA opens in the app exactly the paths a route handles (by shape), on paths
    /// built from the routes' own segments, extra segments, slashes and empty parts.
    @Test func theGeneratedAASAOpensExactlyWhatTheRoutesHandle() throws {
        let contracts = try ContractSet.load(directory: ExampleContracts.path)
        let table = try RouteTable(routes: contracts.routes)
        let ios = try #require(try contracts.appIdentities()?.ios)
        let matcher = try #require(AASAMatcher(document: UniversalLinkFiles.aasa(routes: contracts.routes, ios: ios), appID: ios.appID))
        let words = Set(contracts.routes.flatMap(\.segments).filter { !$0.hasPrefix(":") }) .sorted() + ["x", "42", "promo-1", "apply", "a.b", "ZZ"]
        var generator = SeededGenerator(seed: 0xAA5A)
        var checked = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...4, using: &generator)
            var path = "/" + (0..<count).map { _ in words.randomElement(using: &generator)! }.joined(separator: "/")
            if count > 0, Int.random(in: 0...3, using: &generator) == 0 { path += "/" }
            var segments = Array(path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(String.init))
            if segments.last == "" { segments.removeLast() }
            if path == "/" { segments = [] }
            let handled = table.match(path: segments) != nil
            #expect(matcher.opensInApp(path) == handled, "\(path): route \(handled), AASA \(matcher.opensInApp(path))")
            checked += 1
        }
        #expect(checked == 20_000)
    }

    @Test func theCommittedFilesAreWhatTheContractsGenerate() throws {
        let contracts = try ContractSet.load(directory: RepositoryPaths.contracts.path)
        let apps = try #require(try contracts.appIdentities())
        let aasa = try #require(contracts.files[UniversalLinkFiles.aasaPath])
        #expect(aasa == UniversalLinkFiles.aasa(routes: contracts.routes, ios: try #require(apps.ios)).prettyPrinted() + "\n")
        let assetLinks = try #require(contracts.files[UniversalLinkFiles.assetLinksPath])
        #expect(assetLinks == UniversalLinkFiles.assetLinks(android: try #require(apps.android)).prettyPrinted() + "\n")
    }

    private func lint(_ edits: [(file: String, old: String, new: String?)]) throws -> [String] {
        let contracts = try ContractSet(files: try RepositoryContractFiles.editing(edits), origin: "a broken copy")
        return ContractLinter(contracts: contracts).lint().map(\.description)
    }

    /// Well-known files with no "apps" in the manifest cannot be checked: each is named.
    @Test func wellKnownFilesWithoutAnAppsBlockAreEachNamed() throws {
        var files = RepositoryContractFiles.files
        guard case .object(var manifest) = try JSONValue(parsing: try #require(files["manifest.json"])) else { return }
        manifest["apps"] = nil
        files["manifest.json"] = JSONValue.object(manifest).prettyPrinted()
        let found = ContractLinter(contracts: try ContractSet(files: files, origin: "a copy")).lint().map(\.description)
        #expect(found.filter { $0.contains("well-known/") } == [
            "well-known/apple-app-site-association.json: (root): the manifest has no \"apps\" block to check this file against",
            "well-known/assetlinks.json: (root): the manifest has no \"apps\" block to check this file against",
        ], "\(found)")
        files["well-known/assetlinks.json"] = nil
        let one = ContractLinter(contracts: try ContractSet(files: files, origin: "a copy")).lint().map(\.description)
        #expect(one.filter { $0.contains("well-known/") }.count == 1, "\(one)")
    }

    @Test func lintFailsWhenTheAASADoesNotCoverARoute() throws {
        let found = try lint([(UniversalLinkFiles.aasaPath, #""/": "/vehicles/?*","#, #""/": "/vehicles/?*/nope","#)])
        #expect(found.contains("well-known/apple-app-site-association.json: /applinks/details: does not open /vehicles/promo-1 in the app, though route vehicleDetail handles it (regenerate: bridgectl generate aasa --contracts 'a broken copy' --out 'a broken copy/well-known/apple-app-site-association.json')"), "\(found)")
    }

    @Test func lintFailsWhenTheAASAOpensAPathNoRouteHandles() throws {
        let found = try lint([(UniversalLinkFiles.aasaPath, #""/": "/start","#, #""/": "/start*","#)])
        #expect(found.contains("well-known/apple-app-site-association.json: /applinks/details: opens /startx/y in the app, though no route handles it (regenerate: bridgectl generate aasa --contracts 'a broken copy' --out 'a broken copy/well-known/apple-app-site-association.json')"), "\(found)")
        // Without the deeper-path excludes, /event/a/b (no route) would open the app.
        let loose = try lint([(UniversalLinkFiles.aasaPath, #""/": "/event/?*/?*","#, #""/": "/event/?*/?*/nothing-matches-this","#)])
        #expect(loose.contains { $0.contains("opens /event/") && $0.contains("though no route handles it") }, "\(loose)")
    }

    @Test func lintFailsWhenARouteIsAddedAndTheFilesAreNotRegenerated() throws {
        let found = try lint([("routes.json", #""routes": ["#, #""routes": [{ "name": "promo", "pattern": "/promo/:code", "requiresAuth": false, "tab": "home" },"#)])
        #expect(found.contains { $0.contains("does not open /promo/x in the app, though route promo handles it") }, "\(found)")
    }

    @Test func lintChecksAssetLinksAgainstTheManifest() throws {
        let found = try lint([(UniversalLinkFiles.assetLinksPath, "14:6D:E9", "00:6D:E9")])
        #expect(found == ["well-known/assetlinks.json: (root): has no handle_all_urls statement for the manifest's app kr.co.sendy.app with its 1 certificate fingerprint(s) (regenerate: bridgectl generate assetlinks --contracts 'a broken copy' --out 'a broken copy/well-known/assetlinks.json')"])
        #expect(try lint([(UniversalLinkFiles.assetLinksPath, "", nil)]) == ["well-known/assetlinks.json: (root): missing; write it with `bridgectl generate assetlinks --contracts 'a broken copy' --out 'a broken copy/well-known/assetlinks.json'`"])
    }

    @Test func theManifestsAppsAreChecked() throws {
        let found = try lint([("manifest.json", #""teamID": "9JA89QQLNQ""#, #""teamID": "team-1""#)])
        #expect(found == ["manifest.json: /apps/ios/teamID: teamID is Apple's 10-character team identifier (upper-case letters and digits)"])
    }
}
