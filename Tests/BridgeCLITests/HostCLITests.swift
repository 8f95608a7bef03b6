import Foundation
import Testing
import TestSupport
import JSONCore
import SchemaCheck
import BridgeContracts
@testable import BridgeCLI

/// `bridgectl simulate` and `bridgectl host --stdio`, run through `BridgeCLI.main` with a capturing console.
@Suite("simulate and host --stdio")
struct HostCLITests {
    static let contractsDirectory = RepositoryPaths.contracts.path

    static let fixturePaths: [String] = ((try? ContractSet.load(directory: contractsDirectory).fixtures) ?? []).map(\.path)

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    @Test("there are fixtures to simulate")
    func fixturesPresent() {
        #expect(Self.fixturePaths.count >= 40)
    }

    @Test("simulate runs every fixture: exit 0 for valid, 1 for invalid with the fixture's code", arguments: fixturePaths)
    func simulateFixture(path: String) throws {
        let contracts = try ContractSet.load(directory: Self.contractsDirectory)
        let fixture = try #require(contracts.fixtures.first { $0.path == path })
        let file = Self.contractsDirectory + "/" + path
        let result = run(["simulate", file, "--contracts", Self.contractsDirectory, "--format", "json"])
        #expect(result.code == (fixture.expect.valid ? 0 : 1), "\(path): \(result.out) \(result.err)")
        let output = try JSONDocument(result.out, limits: .unlimited).value
        if fixture.expect.valid {
            if let expectedReply = fixture.expect.reply, expectedReply != .null {
                #expect(output.value(at: "/reply/result") == expectedReply["result"], "\(path)")
            }
            if let navigation = fixture.expect.navigation, navigation != .null {
                #expect(output.value(at: "/navigations/0/url") == navigation["url"], "\(path)")
            }
        } else {
            #expect(output.value(at: "/reply/error/code")?.stringValue == (fixture.expect.code ?? "INVALID_PARAMS"), "\(path)")
        }
    }

    @Test("simulate: AlimTalk entry, logged out, cold start; --then-login --then-ready pushes the apply screen once")
    func simulateColdStartFlow() throws {
        let file = Self.contractsDirectory + "/fixtures/apply/v1/valid-alimtalk-entry.json"
        let before = run(["simulate", file, "--contracts", Self.contractsDirectory, "--logged-out", "--cold-start", "--format", "json"])
        let first = try JSONDocument(before.out, limits: .unlimited).value
        #expect(first["navigations"] == [])
        #expect(first["loginPresented"] == 1)
        #expect(first.value(at: "/reply/result/pendingLogin") == true)

        let after = run(["simulate", file, "--contracts", Self.contractsDirectory, "--logged-out", "--cold-start",
                         "--then-login", "--then-ready", "--format", "json"])
        let second = try JSONDocument(after.out, limits: .unlimited).value
        #expect(second["navigations"]?.arrayValue?.count == 1)
        #expect(second.value(at: "/navigations/0/campaign/source") == "kakaotalk")
        #expect(second.value(at: "/navigations/0/campaign/variant") == "card_scanner_cta")
    }

    @Test("simulate: a bare message from stdin, options override, text output")
    func simulateStdin() {
        let body = #"{"v":1,"id":"cli-00000001","action":"view_vehicles","version":1,"payload":{"region":"서울"}}"#
        let ok = run(["simulate", "-", "--contracts", Self.contractsDirectory], input: body)
        #expect(ok.code == 0)
        #expect(ok.out.contains("reply: ok route=vehicleList url=https://sendy.co.kr/vehicles?region=%EC%84%9C%EC%9A%B8"))
        let framed = run(["simulate", "-", "--contracts", Self.contractsDirectory, "--frame"], input: body)
        #expect(framed.code == 1)
        #expect(framed.out.contains("ORIGIN_REJECTED"))
        let broken = run(["simulate", "-", "--contracts", Self.contractsDirectory], input: "{\"v\":")
        #expect(broken.code == 1)
        #expect(broken.out.contains("INVALID_MESSAGE"))
    }

    @Test("simulate: usage errors exit 2 with a message", arguments: [
        ["simulate"], ["simulate", "/no/such/file.json"], ["simulate", "-", "--source", "sms"],
        ["simulate", "-", "--format", "xml"], ["simulate", "a.json", "b.json"], ["simulate", "-", "--bogus"],
    ])
    func simulateUsage(arguments: [String]) {
        let result = run(arguments + ["--contracts", Self.contractsDirectory], input: "{}")
        #expect(result.code == 2)
        #expect(result.err.hasPrefix("bridgectl simulate:"))
    }

    @Test("host --stdio: replies and records as JSON lines; bad lines get error lines and the host goes on")
    func hostStdio() throws {
        let lines = [
            #"{"type":"open","url":"https://sendy.co.kr/event/new-user-promo?campaign_id=c1&utm_medium=alimtalk"}"#,
            #"{"type":"message","body":{"v":1,"id":"stdio-000001","action":"apply","version":1,"payload":{"slug":"new-user-promo"}},"origin":"https://sendy.co.kr","isMainFrame":true}"#,
            "not json",
            #"{"type":"teleport"}"#,
            #"{"type":"message","body":42}"#,
            #"{"type":"login"}"#,
            #"{"type":"message","body":"{\"v\":1,\"id\":\"stdio-000002\",\"action\":\"start\",\"version\":1,\"payload\":{}}","origin":"https://sendy.co.kr.evil.example"}"#,
            #"{"type":"state","state":"sideways"}"#,
        ]
        let result = run(["host", "--stdio", "--logged-out", "--contracts", Self.contractsDirectory],
                         input: lines.joined(separator: "\n") + "\n")
        #expect(result.code == 0)
        let output = try result.out.split(separator: "\n").map { try JSONDocument(String($0), limits: .unlimited).value }
        let types = output.compactMap { $0["type"]?.stringValue }
        #expect(types.filter { $0 == "reply" }.count == 2)
        #expect(types.contains("login_presented"))
        let errors = output.filter { $0["type"] == "error" }
        #expect(errors.map { $0["line"] } == [3, 4, 5, 8])
        let navigations = output.filter { $0["type"] == "navigation" }
        #expect(navigations.count == 1)
        #expect(navigations.first?.value(at: "/campaign/source") == "kakaotalk")
        #expect(navigations.first?["url"] == "https://sendy.co.kr/event/new-user-promo/apply")
        let replies = output.filter { $0["type"] == "reply" }
        #expect(replies.first?.value(at: "/result/pendingLogin") == true)
        #expect(replies.last?.value(at: "/error/code") == "ORIGIN_REJECTED")
    }

    @Test("host --stdio: --manual-clock with advance, --ack after every line, --cold-start with ready")
    func hostStdioClockAndAck() throws {
        let message = #"{"type":"message","body":{"v":1,"id":"ID","action":"start","version":1,"payload":{}}}"#
        let lines = [
            message.replacingOccurrences(of: "ID", with: "clock-000001"),
            message.replacingOccurrences(of: "ID", with: "clock-000002"),
            #"{"type":"advance","ms":2000}"#,
            message.replacingOccurrences(of: "ID", with: "clock-000003"),
            #"{"type":"ready"}"#,
        ]
        let result = run(["host", "--stdio", "--manual-clock", "--ack", "--cold-start", "--contracts", Self.contractsDirectory],
                         input: lines.joined(separator: "\n"))
        let output = try result.out.split(separator: "\n").map { try JSONDocument(String($0), limits: .unlimited).value }
        #expect(output.filter { $0["type"] == "ack" }.map { $0["line"] } == [1, 2, 3, 4, 5])
        let replies = output.filter { $0["type"] == "reply" }
        #expect(replies.map { $0["ok"] } == [true, false, true])
        #expect(replies.count == 3 && replies[1].value(at: "/error/code") == "DUPLICATE")
        #expect(output.filter { $0["type"] == "navigation" }.count == 2)
    }

    @Test("host without --stdio is a usage error; both commands have --help")
    func hostUsageAndHelp() {
        #expect(run(["host"]).code == 2)
        #expect(run(["host", "--stdio", "extra"]).code == 2)
        let hostHelp = run(["host", "--help"])
        #expect(hostHelp.code == 0 && hostHelp.out.contains("--stdio"))
        let simulateHelp = run(["simulate", "--help"])
        #expect(simulateHelp.code == 0 && simulateHelp.out.contains("--then-login"))
    }
}
