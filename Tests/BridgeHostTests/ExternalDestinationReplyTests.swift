import Testing
import JSONCore
import BridgeContracts
import DeeplinkRouting
import DeeplinkNavigation
import BridgeHost
import BridgeHostTesting
import TestSupport

/// 길찾기 (open_directions v1) through the whole host: contract, mapping, navigator, opener.
@Suite("open_directions: a CTA to a map app, through the same path as every CTA")
@MainActor
struct ExternalDestinationReplyTests {
    static func directions(_ provider: String, id: String = "map-00000001", name: String = "강남역 2번 출구") -> String {
        message("open_directions", id: id, payload: ["destination": ["lat": 37.4979502, "lng": 127.0276368, "name": .string(name)],
                                                      "provider": .string(provider)])
    }

    /// The mock as iOS answers: a scheme the app did not declare for canOpenURL is no; web links
    /// always open; another app's scheme opens when it is installed, unless told to fail.
    @Test("the mock host's canOpen and open follow the declared schemes, the installed apps and the failing opens")
    func canOpenAndOpen() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        host.installedApps = ["kakaomap", "ftp"]
        #expect(host.canOpen("https://map.kakao.com/x"))
        #expect(host.canOpen("HTTPS://map.kakao.com/x"), "schemes compare case-insensitively")
        #expect(host.canOpen("kakaomap://route"))
        #expect(!host.canOpen("nmap://route"), "declared but not installed")
        #expect(!host.canOpen("ftp://files"), "installed but not declared")
        #expect(!host.canOpen("http://map.kakao.com/x"), "http is not among the declared schemes")
        var results: [Bool] = []
        for url in ["https://a.example/", "http://a.example/", "kakaomap://route", "nmap://route"] { host.open(url) { results.append($0) } }
        #expect(results == [true, true, true, false])
        host.failingOpens = ["kakaomap"]
        host.open("kakaomap://route") { results.append($0) }
        #expect(results.last == false)
        #expect(host.externalOpens.map(\.opened) == [true, true, true, false, false])
        #expect(host.externalOpens.map(\.scheme) == ["https", "http", "kakaomap", "nmap", "kakaomap"])
    }

    @Test("Kakao Map installed: the app opens, the reply says so, the funnel records it with the campaign")
    func installed() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        host.installedApps = ["kakaomap"]
        try host.open(entry: seedEntry)
        let reply = try #require(host.receive(Self.directions("kakaomap")))
        #expect(reply.result?.opened == "app" && reply.result?.provider == "kakaomap")
        #expect(host.externalOpens == [ExternalOpenRecord(url: "kakaomap://route?ep=37.4979502,127.0276368&by=CAR", scheme: "kakaomap", opened: true)])
        #expect(host.navigations.isEmpty)
        let opened = try #require(host.events(named: "external_app_opened").first)
        #expect(opened["provider"] == "kakaomap" && opened["opened"] == "app" && opened["campaign_id"] == "2025Q3_signup_retarget")
        #expect(host.records.contains(.envelope(id: EnvelopeID(1), route: "directions", outcome: .opened(.openedApp(provider: "kakaomap")))))
    }

    @Test("nothing installed: the fallback opens (App Store for Naver Map, mobile web for Kakao Map)")
    func fallback() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        #expect(host.receive(Self.directions("nmap", id: "map-00000002"))?.result?.opened == "fallback")
        #expect(host.receive(Self.directions("kakaomap", id: "map-00000003"))?.result?.opened == "fallback")
        #expect(host.externalOpens.map(\.url) == [
            "https://apps.apple.com/kr/app/id311867728",
            "https://map.kakao.com/link/to/%EA%B0%95%EB%82%A8%EC%97%AD%202%EB%B2%88%20%EC%B6%9C%EA%B5%AC,37.4979502,127.0276368",
        ])
    }

    /// The contracts with `scheme` left out of queriedURLSchemes (a forgotten Info.plist entry).
    static func contracts(without scheme: String) throws -> ContractSet {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        let manifest = try #require(files["manifest.json"])
        let declared = #""queriedURLSchemes": ["nmap", "tmap", "kakaomap", "https"]"#
        try #require(manifest.contains(declared))
        let kept = ["nmap", "tmap", "kakaomap", "https"].filter { $0 != scheme }.map { "\"\($0)\"" }.joined(separator: ", ")
        files["manifest.json"] = manifest.replacingOccurrences(of: declared, with: #""queriedURLSchemes": ["# + kept + "]")
        return try ContractSet(files: files, origin: "contracts without \(scheme)")
    }

    @Test("the seed's trap: TMAP installed but tmap not declared for canOpenURL: the fallback opens instead, and lint names the provider")
    func undeclaredScheme() throws {
        let contracts = try Self.contracts(without: "tmap")
        let host = try MockBridgeHost(contracts: contracts)
        host.installedApps = ["tmap"]
        #expect(host.receive(Self.directions("tmap"))?.result?.opened == "fallback")
        #expect(!host.canOpen("tmap://route?goalname=x&goalx=1&goaly=2"))
        let findings = ContractLinter(contracts: contracts).lint().map(\.description)
        #expect(findings == ["routes.json: /routes/9/external/providers/tmap/app: provider tmap opens tmap: URLs, but manifest.json queriedURLSchemes does not list \"tmap\": canOpenURL says no for it even when the app is installed (Info.plist LSApplicationQueriesSchemes)"])
    }

    @Test("https undeclared and nothing installed: NAVIGATION_FAILED app_not_installed with the provider in details")
    func appNotInstalled() throws {
        let contracts = try Self.contracts(without: "https")
        let host = try MockBridgeHost(contracts: contracts)
        let error = try #require(host.receive(Self.directions("nmap"))?.error)
        #expect(error.code == .navigationFailed)
        #expect(error.message == "nmap is not installed and its fallback cannot be opened")
        #expect(error.details == [["reason": "app_not_installed", "route": "directions", "step": "openExternal", "provider": "nmap"]])
        #expect(host.externalOpens.isEmpty)
        #expect(ContractLinter(contracts: contracts).lint().count == 3, "each provider's fallback is named")
    }

    @Test("the app says the open failed: NAVIGATION_FAILED open_failed")
    func openFailed() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        host.installedApps = ["kakaomap"]
        host.failingOpens = ["kakaomap"]
        let error = try #require(host.receive(Self.directions("kakaomap"))?.error)
        #expect(error.details.first?["reason"] == "open_failed")
        #expect(host.externalOpens.map(\.opened) == [false])
    }

    @Test("cold start: the open waits for ready like any navigation; the same tap twice opens once")
    func readyGateAndDuplicate() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts(), appState: .coldStart)
        host.installedApps = ["kakaomap"]
        #expect(host.receive(Self.directions("kakaomap"))?.result?.waitingForReady == true)
        #expect(host.receive(Self.directions("kakaomap", id: "map-00000009"))?.error?.code == .duplicate)
        #expect(host.externalOpens.isEmpty)
        host.becomeReady()
        #expect(host.externalOpens.count == 1)
    }
}
