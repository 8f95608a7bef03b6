import BridgeContracts
import Foundation
import JSONCore
import Testing

/// `bridgectl init`'s set: what it writes loads and lints clean, and every input it refuses is
/// refused with the option named.
@Suite struct ContractTemplateTests {
    func template(bridge: String = "shopBridge", url: String = "https://www.example.com", scheme: String = "myapp",
                  teamID: String? = nil, bundleID: String? = nil, package: String? = nil,
                  fingerprint: String? = nil) throws(TemplateError) -> ContractTemplate {
        try ContractTemplate(bridge: bridge, webBaseURL: url, scheme: scheme, teamID: teamID, bundleID: bundleID,
                             androidPackage: package, certFingerprint: fingerprint)
    }

    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")

    func refusal(_ make: () throws(TemplateError) -> ContractTemplate) -> TemplateError? {
        do {
            _ = try make()
            return nil
        } catch {
            return error
        }
    }

    @Test func theWrittenSetLoadsAndLintsCleanWithTheAdoptersNamesOnly() throws {
        let template = try template(teamID: "ABCDE12345", bundleID: "com.example.shop", package: "com.example.shop", fingerprint: Self.fingerprint)
        let files = try template.files()
        let contracts = try ContractSet(files: files, origin: "init")
        #expect(ContractLinter(contracts: contracts).lint().map(\.description) == [])
        #expect(contracts.manifest.bridge == "shopBridge")
        #expect(contracts.manifest.customScheme == "myapp")
        #expect(contracts.manifest.allowedOrigins == ["https://www.example.com"])
        for schema in contracts.schemas {
            #expect(schema.document["$id"]?.stringValue?.hasPrefix("https://www.example.com/contracts/schemas/") == true, "\(schema.file)")
        }
        #expect(contracts.fixtures.map(\.path).sorted() == ["fixtures/open_event/v1/invalid-bad-slug.json", "fixtures/open_event/v1/valid-basic.json"])
        #expect(files[UniversalLinkFiles.aasaPath] != nil && files[UniversalLinkFiles.assetLinksPath] != nil)
        #expect(try contracts.releaseCatalog().releases.isEmpty)
        #expect(!files.values.joined().lowercased().contains("sendy"))
        // The first route is a public page: a link to it opens without a login.
        #expect(contracts.routes.map(\.requiresAuth) == [false])
    }

    /// The valid fixture expects what the host does with it: the route is public, so the page
    /// opens at once (pendingLogin false) at the URL the route builds from the slug.
    @Test func theValidFixtureExpectsAnImmediateNavigationToThePublicRoute() throws {
        let contracts = try ContractSet(files: try template().files(), origin: "init")
        let fixture = try #require(contracts.fixtures.first { $0.expect.valid })
        let url: JSONValue = "https://www.example.com/event/spring-sale"
        #expect(fixture.expect.navigation == ["route": .string(ContractTemplate.routeName), "url": url])
        #expect(fixture.expect.reply == ["ok": true, "result": ["route": .string(ContractTemplate.routeName), "url": url, "pendingLogin": false]])
        #expect(contracts.routes.first { $0.name == ContractTemplate.routeName }?.requiresAuth == false)
        let invalid = try #require(contracts.fixtures.first { !$0.expect.valid })
        #expect(invalid.expect.code == "INVALID_PARAMS")
        #expect(invalid.expect.errors.map(\.instanceLocation) == ["/payload/slug"] && invalid.expect.errors.map(\.keyword) == ["pattern"])
        #expect(invalid.message?["payload"]?["slug"] == "Spring Sale")
    }

    @Test func withoutAppIdsThereAreNoWellKnownFilesAndLintIsStillClean() throws {
        let files = try template().files()
        #expect(files[UniversalLinkFiles.aasaPath] == nil && files[UniversalLinkFiles.assetLinksPath] == nil)
        #expect(ContractLinter(contracts: try ContractSet(files: files, origin: "init")).lint().isEmpty)
    }

    @Test(arguments: ["a", "_", "$", "myBridge", "my_bridge$2", "B"])
    func aJavaScriptIdentifierIsABridgeName(name: String) throws {
        #expect(try template(bridge: name).bridge == name)
    }

    @Test(arguments: ["", "2fast", "my-bridge", "my bridge", "브릿지", "class", "let", "a.b"])
    func anythingElseIsRefusedAsABridgeName(name: String) {
        #expect(refusal { () throws(TemplateError) in try template(bridge: name) }?.option == "bridge")
    }

    @Test func theURLIsAnHttpsOriginNormalized() throws {
        #expect(try template(url: "https://Shop.Example.com/").webBaseURL == "https://shop.example.com")
        #expect(try template(url: "https://example.com:8443").webBaseURL == "https://example.com:8443")
        #expect(try template(url: "https://localhost:1").host == "localhost")
        #expect(try template(url: "https://a.b:65535").webBaseURL == "https://a.b:65535")
        #expect(try template(url: "https://a.b:65534").webBaseURL == "https://a.b:65534")
        #expect(try template(url: "https://a.b:2").webBaseURL == "https://a.b:2")
    }

    @Test(arguments: ["http://example.com", "example.com", "https://", "https:///x", "https://example.com/shop",
                      "https://example.com?x=1", "https://example.com#top", "https://user@example.com",
                      "https://example.com:0", "https://example.com:65536", "https://example.com:", "https://-a.com",
                      "https://a..com", "https://exa mple.com", "ftp://example.com"])
    func aURLThatIsNotAnHttpsOriginIsRefused(url: String) {
        #expect(refusal { () throws(TemplateError) in try template(url: url) }?.option == "web-base-url", "\(url)")
    }

    /// A host name is at most 253 characters in labels of 1 to 63 (RFC 1035), each tried at
    /// n - 1, n and n + 1.
    @Test(arguments: [(62, true), (63, true), (64, false)])
    func aHostLabelIsUpTo63Characters(length: Int, taken: Bool) throws {
        let url = "https://" + String(repeating: "a", count: length) + ".com"
        let refused = refusal { () throws(TemplateError) in try template(url: url) }
        #expect((refused == nil) == taken, "\(length)")
        if !taken { #expect(refused?.message.contains("has no valid host name") == true) }
    }

    @Test(arguments: [(252, true), (253, true), (254, false)])
    func aHostNameIsUpTo253Characters(length: Int, taken: Bool) throws {
        // Three labels of 63, dots between, and a last label making up the length.
        let host = Array(repeating: String(repeating: "a", count: 63), count: 3).joined(separator: ".") + "." + String(repeating: "b", count: length - 192)
        #expect(host.count == length, "\(host.count)")
        let refused = refusal { () throws(TemplateError) in try template(url: "https://" + host) }
        #expect((refused == nil) == taken, "\(length)")
    }

    @Test(arguments: ["a", "myapp", "MyApp", "my-app", "my.app", "my+app", "a1"])
    func anRFC3986SchemeIsTaken(scheme: String) throws {
        #expect(try template(scheme: scheme).scheme == scheme.lowercased())
    }

    @Test(arguments: ["", "1app", "my_app", "myapp://", "my app", "-app", "앱", "http", "HTTPS"])
    func anythingElseIsRefusedAsAScheme(scheme: String) {
        #expect(refusal { () throws(TemplateError) in try template(scheme: scheme) }?.option == "scheme", "\(scheme)")
    }

    @Test func theTeamIdIsTenUpperCaseLettersOrDigits() throws {
        #expect(try template(teamID: "ABCDE12345", bundleID: "com.example.app").ios?.appID == "ABCDE12345.com.example.app")
        for team in ["ABCDE1234", "ABCDE123456", "abcde12345", "ABCDE-1234"] {
            #expect(refusal { () throws(TemplateError) in try template(teamID: team, bundleID: "com.example.app") }?.option == "team-id", "\(team)")
        }
        #expect(refusal { () throws(TemplateError) in try template(teamID: "ABCDE12345", bundleID: "app") }?.option == "bundle-id")
        #expect(refusal { () throws(TemplateError) in try template(teamID: "ABCDE12345") }?.option == "bundle-id")
        #expect(refusal { () throws(TemplateError) in try template(bundleID: "com.example.app") }?.option == "team-id")
    }

    @Test func theFingerprintIsThirtyTwoUpperCaseHexBytes() throws {
        #expect(try template(package: "com.example.app", fingerprint: Self.fingerprint).android?.sha256CertFingerprints == [Self.fingerprint])
        let short = Array(repeating: "AB", count: 31).joined(separator: ":")
        let long = Array(repeating: "AB", count: 33).joined(separator: ":")
        for fingerprint in [short, long, Self.fingerprint.lowercased(), Self.fingerprint.replacingOccurrences(of: ":", with: "")] {
            #expect(refusal { () throws(TemplateError) in try template(package: "com.example.app", fingerprint: fingerprint) }?.option == "cert-fingerprint")
        }
        for package in ["app", "com.1example", "com..app", "com.example-app"] {
            #expect(refusal { () throws(TemplateError) in try template(package: package, fingerprint: Self.fingerprint) }?.option == "android-package", "\(package)")
        }
        #expect(refusal { () throws(TemplateError) in try template(package: "com.example.app") }?.option == "cert-fingerprint")
        #expect(refusal { () throws(TemplateError) in try template(fingerprint: Self.fingerprint) }?.option == "android-package")
    }
}
