import Foundation
import Testing
import TestSupport
import JSONCore
import SchemaCheck
import BridgeContracts
@testable import BridgeCLI

/// `bridgectl simulate` and `bridgectl host --stdio`, run through `BridgeCLI.main` with a capturing console.
@Suite("simulate and host --stdio")
@MainActor
struct HostCLITests {
    nonisolated static let contractsDirectory = RepositoryPaths.contracts.path

    nonisolated static let fixturePaths: [String] = ((try? ContractSet.load(directory: contractsDirectory).fixtures) ?? []).map(\.path)

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
        // The page heard pendingLogin first, so it is told how the navigation ended; before the
        // login it was told nothing.
        #expect(first["pageEvents"] == [])
        #expect(second["pageEvents"]?.arrayValue?.map { $0.value(at: "/payload/outcome") } == ["navigated"])
        #expect(second.value(at: "/pageEvents/0/payload/requestId") == second.value(at: "/reply/id"))
        let text = run(["simulate", file, "--contracts", Self.contractsDirectory, "--logged-out", "--then-login"])
        #expect(text.out.contains("page events: 1\n  - navigation_completed v1 {\"requestId\":"))
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

    @Test("host --stdio and simulate: a declared channel is a source, an undeclared one is refused naming the known")
    func declaredSources() throws {
        let open = #"{"type":"open","url":"https://sendy.co.kr/event/new-user-promo","source":"SOURCE"}"#
        let input = ["kakaotalk", "sms"].map { open.replacingOccurrences(of: "SOURCE", with: $0) }.joined(separator: "\n") + "\n"
        let result = run(["host", "--stdio", "--contracts", Self.contractsDirectory], input: input)
        let output = try result.out.split(separator: "\n").map { try JSONDocument(String($0), limits: .unlimited).value }
        let opened = output.first { $0["type"] == "event" }
        #expect(opened?.value(at: "/properties/source") == "kakaotalk")
        let errors = output.filter { $0["type"] == "error" }
        #expect(errors.map { $0["line"] } == [2])
        #expect(errors.first?["message"] == #""source" must be one of push, externalURL, appInternal, kakaotalk"#)
        let simulate = run(["simulate", "--step", #"{"type":"interaction"}"#, "--source", "sms", "--contracts", Self.contractsDirectory])
        #expect(simulate.code == 2)
        #expect(simulate.err == #"bridgectl simulate: --source must be one of push, externalURL, appInternal, kakaotalk, not "sms""# + "\n")
        #expect(run(["simulate", "--step", #"{"type":"interaction"}"#, "--source", "kakaotalk", "--contracts", Self.contractsDirectory]).code == 0)
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

    func lines(_ text: String) throws -> [JSONValue] {
        try text.split(separator: "\n").map { try JSONDocument(String($0), limits: .unlimited).value }
    }

    @Test("host --stdio: a held detail fetch waits for complete lines; the reply comes when it settles, after the ack")
    func hostStdioCompleteLines() throws {
        let message = #"{"type":"message","body":{"v":1,"id":"ID","action":"ACTION","version":1,"payload":{}}}"#
        let input = [
            message.replacingOccurrences(of: "ID", with: "held-0000001").replacingOccurrences(of: "ACTION", with: "view_vehicles"),
            message.replacingOccurrences(of: "ID", with: "held-0000002").replacingOccurrences(of: "ACTION", with: "start"),
            #"{"type":"complete","step":"selectTab"}"#,
            #"{"type":"complete","envelope":2}"#,
            #"{"type":"complete","result":"later"}"#,
            #"{"type":"complete","step":"resolveDetail"}"#,
            #"{"type":"complete","result":"fail","reason":"HTTP 503"}"#,
            #"{"type":"complete"}"#,
            #"{"type":"cancel","envelope":7}"#,
        ]
        let result = run(["host", "--stdio", "--manual-clock", "--ack", "--detail-latency", "hold", "--contracts", Self.contractsDirectory],
                         input: input.joined(separator: "\n"))
        #expect(result.code == 0)
        let output = try lines(result.out)
        let kinds = output.map { "\($0["type"]?.stringValue ?? "?")\($0["line"]?.integerValue.map { ":\($0)" } ?? "")" }
        // #1 waits for its detail, #2 queues behind it; the reply to line 1 comes with line 6, and says so.
        #expect(kinds == [
            "event", "step", "ack:1",
            "event", "envelope", "ack:2",
            "error:3", "ack:3", "error:4", "ack:4", "error:5", "ack:5",
            "navigation", "envelope", "event", "reply:1", "step", "ack:6",
            "envelope", "reply:2", "ack:7",
            "error:8", "ack:8", "error:9", "ack:9",
        ])
        let errors = output.filter { $0["type"] == "error" }.map { $0["message"]?.stringValue ?? "" }
        #expect(errors == [
            "the waiting step is resolveDetail of envelope 1, not selectTab",
            "the waiting step belongs to envelope 1, not 2",
            "\"result\" must be one of ok, fail, notFound",
            "no navigation step is waiting",
            "envelope 7 is not waiting or navigating (nothing to cancel)",
        ])
        let replies = output.filter { $0["type"] == "reply" }
        #expect(replies.map { $0["id"] } == ["held-0000001", "held-0000002"])
        #expect(replies[0].value(at: "/result/resolving") == nil)
        #expect(replies[1].value(at: "/error/details/0/reason") == "detail_failed")
        #expect(output.first { $0["type"] == "envelope" }?["outcome"] == "queued")
    }

    @Test("host --stdio: a detail slower than the action's timeout is answered resolving at timeoutMs - 500, then navigates")
    func hostStdioResolvingReply() throws {
        let input = [
            #"{"type":"message","body":{"v":1,"id":"slow-0000001","action":"start","version":1,"payload":{}}}"#,
            #"{"type":"advance","ms":2499}"#,
            #"{"type":"advance","ms":1}"#,
            #"{"type":"advance","ms":4000}"#,
        ]
        let result = run(["host", "--stdio", "--manual-clock", "--ack", "--detail-latency", "6000", "--contracts", Self.contractsDirectory],
                         input: input.joined(separator: "\n"))
        let output = try lines(result.out)
        let kinds = output.map { "\($0["type"]?.stringValue ?? "?")\($0["line"]?.integerValue.map { ":\($0)" } ?? "")" }
        // The page heard "resolving" first, so it is told how the navigation ended.
        #expect(kinds == ["event", "step", "ack:1", "ack:2", "reply:1", "ack:3", "navigation", "envelope", "event", "page-event", "ack:4"])
        let reply = try #require(output.first { $0["type"] == "reply" })
        #expect(reply.value(at: "/result/resolving") == true)
        let completed = try #require(output.first { $0["type"] == "page-event" })
        #expect(completed.serialized() == #"{"type":"page-event","v":1,"event":"navigation_completed","version":1,"payload":{"requestId":"slow-0000001","route":"onboardingStart","outcome":"navigated"}}"#)
        #expect(output.first { $0["type"] == "step" }?["ms"] == 6000)
    }

    @Test("host --stdio and simulate: step options are checked", arguments: [
        ["--detail-latency", "soon"], ["--detail-latency", "-1"], ["--tab-latency", "700000"], ["--fail-detail", "nowhere"],
        ["--step-timeout", "0"],
    ])
    func stepOptionUsage(arguments: [String]) {
        let host = run(["host", "--stdio", "--contracts", Self.contractsDirectory] + arguments)
        #expect(host.code == 2)
        #expect(host.err.hasPrefix("bridgectl host: --"))
        let simulate = run(["simulate", "-", "--contracts", Self.contractsDirectory] + arguments, input: "{}")
        #expect(simulate.code == 2)
        #expect(simulate.err.hasPrefix("bridgectl simulate: --"))
    }

    @Test("simulate: a slow detail fetch shows the reply before the page's timeout and a timeline; hold needs host --stdio")
    func simulateSlowDetail() throws {
        let file = Self.contractsDirectory + "/fixtures/view_vehicles/v1/valid-filters.json"
        let slow = run(["simulate", file, "--contracts", Self.contractsDirectory, "--detail-latency", "4000"])
        #expect(slow.code == 0)
        #expect(slow.out.contains("resolving=true"))
        #expect(slow.out.contains("timeline:\n     0 ms  #1 vehicleList: resolveDetail takes 4000 ms\n  2500 ms  reply ok, resolving (the page times out at 3000 ms)\n  4000 ms  #1 vehicleList: navigated\n"))
        let failing = run(["simulate", file, "--contracts", Self.contractsDirectory, "--fail-detail", "vehicleList", "--format", "json"])
        #expect(failing.code == 1)
        let json = try JSONDocument(failing.out, limits: .unlimited).value
        #expect(json.value(at: "/reply/error/details/0/reason") == "detail_failed")
        #expect(json.value(at: "/records/0/atMs") == 0)
        let missing = run(["simulate", file, "--contracts", Self.contractsDirectory, "--missing-detail", "vehicleList"])
        #expect(missing.code == 1 && missing.out.contains("detail_not_found"))
        let held = run(["simulate", file, "--contracts", Self.contractsDirectory, "--detail-latency", "hold"])
        #expect(held.code == 2 && held.err.contains("hold needs complete lines"))
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
