import Foundation
import JSONCore
import Testing
import SchemaCheck
import BridgeCLI
import BridgeContracts
import TestSupport

/// 길찾기 from the command line: --installed, the installed line, external_open records, and the
/// Info.plist fragment for LSApplicationQueriesSchemes.
@Suite("External destinations on the command line")
@MainActor
struct ExternalCLITests {
    nonisolated static let contractsDirectory = RepositoryPaths.contracts.path

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    static let directions = #"{"type":"message","body":{"v":1,"id":"REQUEST","action":"open_directions","version":1,"payload":{"destination":{"lat":37.4979502,"lng":127.0276368,"name":"강남역"},"provider":"PROVIDER"}}}"#

    @Test("simulate --installed: the app opens; without it, the fallback")
    func simulateInstalled() throws {
        let file = Self.contractsDirectory + "/fixtures/open_directions/v1/valid-kakaomap-installed.json"
        let installed = run(["simulate", file, "--contracts", Self.contractsDirectory])
        #expect(installed.code == 0)
        #expect(installed.out.contains("opened=app provider=kakaomap"))
        #expect(installed.out.contains("opened outside the app: 1\n  - opened kakaomap://route?ep=37.4979502,127.0276368&by=CAR\n"))
        // The option replaces the fixture's own device.
        let none = run(["simulate", file, "--contracts", Self.contractsDirectory, "--installed", "tmap"])
        #expect(none.out.contains("opened=fallback provider=kakaomap"))
        let bad = run(["simulate", file, "--contracts", Self.contractsDirectory, "--installed", "kakao map"])
        #expect(bad.code == 2 && bad.err.contains("--installed takes URL schemes"))
    }

    @Test("host --stdio: the installed line changes the device; every open is a line")
    func hostInstalledLine() throws {
        let input = [
            Self.directions.replacingOccurrences(of: "REQUEST", with: "map-0000001").replacingOccurrences(of: "PROVIDER", with: "nmap"),
            #"{"type":"installed","apps":["nmap"]}"#,
            Self.directions.replacingOccurrences(of: "REQUEST", with: "map-0000002").replacingOccurrences(of: "PROVIDER", with: "nmap")
                .replacingOccurrences(of: "강남역", with: "강남역 앞"),
            #"{"type":"installed","apps":"nmap"}"#,
        ]
        let result = run(["host", "--stdio", "--contracts", Self.contractsDirectory], input: input.joined(separator: "\n"))
        let lines = try result.out.split(separator: "\n").map { try JSONDocument(String($0), limits: .unlimited).value }
        let opens = lines.filter { $0["type"] == "external_open" }
        #expect(opens.map { $0["url"]?.stringValue ?? "" } == [
            "https://apps.apple.com/kr/app/id311867728",
            "nmap://route/car?dlat=37.4979502&dlng=127.0276368&dname=%EA%B0%95%EB%82%A8%EC%97%AD%20%EC%95%9E&appname=kr.co.sendy",
        ])
        let replies = lines.filter { $0["type"] == "reply" }
        #expect(replies.map { $0.value(at: "/result/opened") } == ["fallback", "app"])
        let envelopes = lines.filter { $0["type"] == "envelope" }
        #expect(envelopes.map { $0["outcome"] } == ["opened_fallback", "opened_app"])
        #expect(envelopes.map { $0["provider"] } == ["nmap", "nmap"])
        #expect(lines.filter { $0["type"] == "error" }.map { $0["line"] } == [4])
    }

    @Test("generate info-plist prints the LSApplicationQueriesSchemes fragment; --check names what a plist lacks")
    func infoPlist() throws {
        let printed = run(["generate", "info-plist", "--contracts", Self.contractsDirectory])
        #expect(printed.code == 0)
        #expect(printed.out.hasSuffix("<key>LSApplicationQueriesSchemes</key>\n<array>\n\t<string>nmap</string>\n\t<string>tmap</string>\n\t<string>kakaomap</string>\n\t<string>https</string>\n</array>\n"))
        let folder = try TemporaryFolder("plist")
        defer { folder.remove() }
        let partial = folder.url("Partial.plist")
        try Data("<plist><dict><key>LSApplicationQueriesSchemes</key><array><string>nmap</string><string>kakaomap</string></array></dict></plist>".utf8).write(to: partial)
        let checked = run(["generate", "info-plist", "--contracts", Self.contractsDirectory, "--check", partial.path])
        #expect(checked.code == 1)
        #expect(checked.out == "\(partial.path): LSApplicationQueriesSchemes lacks tmap, https: canOpenURL says no for them even when the app is installed\n")
        let full = folder.url("Info.plist")
        try Data(printed.out.utf8).write(to: full)
        #expect(run(["generate", "info-plist", "--contracts", Self.contractsDirectory, "--check", full.path]).code == 0)
        #expect(run(["generate", "info-plist", "extra"]).code == 2)
        #expect(run(["generate", "info-plist", "--check", folder.url("missing.plist").path]).code == 2)
    }
}
