import Foundation
import Testing
import TestSupport
@testable import BridgeCLI

/// `bridgectl verify -- CMD`: the Swift host passes every case; hosts that each break one promise
/// (Tests/stdio/broken_host.py, the real host behind a filter) fail with the case named; hosts
/// that cannot be run end with exit 2.
@Suite @MainActor struct VerifyCLITests {
    static var bridgectl: String { AdoptionTranscriptTests.bridgectl.path }
    static let contracts = RepositoryPaths.contracts.path
    static var host: [String] { [bridgectl, "host", "--stdio", "--contracts", contracts] }
    static func broken(_ promise: String) -> [String] {
        ["python3", RepositoryPaths.url("Tests/stdio/broken_host.py").path, promise, "--"] + host
    }

    func verify(_ options: [String], host: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data())
        let code = BridgeCLI.main(["verify", "--contracts", Self.contracts] + options + ["--"] + host, console: console)
        return (code, console.stdout, console.stderr)
    }

    func failures(_ output: String) -> [String] {
        output.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }.map(String.init)
    }

    @Test func theSwiftHostPassesEveryCase() {
        let result = verify([], host: Self.host)
        #expect(result.code == 0, "\(failures(result.out))")
        let last = result.out.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasSuffix(" passed, 0 failed"))
        #expect((Int(last.split(separator: " ")[0]) ?? 0) > 100)
        for scenario in ["PASS login gate: logged out, then login", "PASS cold start, then ready", "PASS duplicate inside the window",
                         "PASS an older build's capabilities", "PASS origin refused: a subframe", "PASS hostile message refused: a lone surrogate",
                         "PASS navigation_completed: navigated after login", "PASS event-fixtures/"] {
            #expect(result.out.contains(scenario), "\(scenario) missing")
        }
    }

    @Test func aHostThatDropsTheCampaignFailsTheCampaignCases() {
        let result = verify(["--case", "campaign on every", "--case", "fixtures/apply/v1/valid-alimtalk-entry"], host: Self.broken("drops-campaign"))
        #expect(result.code == 1)
        #expect(failures(result.out).count == 2)
        #expect(result.out.contains("FAIL campaign on every analytics event: navigation/campaign: missing"))
        #expect(result.out.contains("FAIL fixtures/apply/v1/valid-alimtalk-entry.json: navigation/campaign: missing"))
        #expect(result.out.hasSuffix("0 passed, 2 failed\n"))
    }

    @Test func aHostThatAcceptsInvalidPayloadsFailsTheInvalidFixtures() {
        let result = verify(["--case", "fixtures/apply/v1/invalid-bad-slug", "--case", "fixtures/apply/v1/valid-basic"], host: Self.broken("accepts-invalid"))
        #expect(result.code == 1)
        #expect(failures(result.out) == ["FAIL fixtures/apply/v1/invalid-bad-slug.json: expected an invalid message, got ok"])
        #expect(result.out.contains("PASS fixtures/apply/v1/valid-basic.json"))
    }

    @Test func aHostThatIgnoresTheLoginGateFailsTheLoginCases() {
        let result = verify(["--case", "login gate", "--case", "logout while", "--case", "navigation_completed"], host: Self.broken("ignores-login-gate"))
        #expect(result.code == 1)
        let failed = failures(result.out)
        #expect(failed.count == 4, "\(failed)")
        #expect(failed.contains { $0.hasPrefix("FAIL login gate: logged out, then login: expected the reply to say pendingLogin: true") })
        #expect(failed.contains { $0.hasPrefix("FAIL logout while a navigation is pending: expected no navigation") })
    }

    @Test func aHostThatRepliesTwiceFailsEveryRequest() {
        let result = verify(["--case", "fixtures/start/v1/valid-promo-code", "--case", "duplicate inside"], host: Self.broken("replies-twice"))
        #expect(result.code == 1)
        #expect(failures(result.out).count == 3)
        #expect(result.out.contains("FAIL fixtures/start/v1/valid-promo-code.json: 2 replies to one message: a request is answered once"))
    }

    @Test func aHostThatDoesNotAnswerHelloIsAUsageFailure() {
        let result = verify([], host: Self.broken("answers-no-hello"))
        #expect(result.code == 2)
        #expect(result.out.isEmpty)
        #expect(result.err.contains("the host did not answer the hello line"))
    }

    @Test func aCommandThatCannotStartIsNamed() {
        let result = verify([], host: ["/nonexistent/android-host"])
        #expect(result.code == 2)
        #expect(result.err.contains("cannot start /nonexistent/android-host"))
    }

    @Test func aHostThatNeverFinishesIsKilledAtTheTimeout() {
        let started = Date()
        let result = verify(["--timeout", "300"], host: ["sleep", "30"])
        #expect(result.code == 2)
        #expect(result.err.contains("did not finish within 300 ms"))
        #expect(Date().timeIntervalSince(started) < 20)
    }

    @Test func aHostThatExitsWithAnErrorIsNamedWithWhatItSaid() {
        let result = verify([], host: ["sh", "-c", "echo 'no contracts here' >&2; exit 3"])
        #expect(result.code == 2)
        #expect(result.err.contains("exited with status 3: no contracts here"))
    }

    @Test func theLevelLimitsTheCases() {
        let result = verify(["--level", "core", "--case", "navigation_completed", "--case", "fixtures/start/v1/valid-promo-code"], host: Self.host)
        #expect(result.code == 0)
        #expect(result.out == "PASS fixtures/start/v1/valid-promo-code.json\n1 passed, 0 failed\n")
    }

    @Test func usageErrorsAreRefusedWithExit2() {
        let console = CapturingConsole(input: Data())
        #expect(BridgeCLI.main(["verify", "--contracts", Self.contracts], console: console) == 2)
        #expect(console.stderr.contains("verify needs the host command after --"))
        for timeout in ["0", "-1", "soon"] {
            #expect(verify(["--timeout", timeout], host: Self.host).err.contains("--timeout must be a positive number"))
        }
        let unknown = verify(["--case", "no such case"], host: Self.host)
        #expect(unknown.code == 2)
        #expect(unknown.err.contains("no case matches no such case"))
    }

    @Test func aSetLackingTheFixtureAScenarioNeedsSaysItWasNotRun() {
        let custom = RepositoryPaths.url("Tests/contracts/custom-action").path
        let console = CapturingConsole(input: Data())
        let code = BridgeCLI.main(["verify", "--contracts", custom, "--case", "campaign on every", "--case", "fixtures/", "--",
                                   Self.bridgectl, "host", "--stdio", "--contracts", custom], console: console)
        #expect(code == 0)
        #expect(console.stdout.contains("NOT RUN campaign on every analytics event: no fixture of a request opened from an entry link with a campaign"))
        #expect(console.stdout.hasSuffix(" failed, 1 not run\n"))
    }

    @Test func theJSONReportListsEveryCase() throws {
        let result = verify(["--format", "json", "--case", "fixtures/start/v1/valid-promo-code"], host: Self.broken("replies-twice"))
        #expect(result.code == 1)
        let report = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        #expect(report?["failed"] as? Int == 1)
        let cases = report?["cases"] as? [[String: Any]]
        #expect(cases?.first?["case"] as? String == "fixtures/start/v1/valid-promo-code.json")
        #expect(cases?.first?["level"] as? String == "core")
    }
}
