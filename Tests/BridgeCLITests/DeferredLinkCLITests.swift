import Foundation
import Testing
import TestSupport
import JSONCore
import SchemaCheck
@testable import BridgeCLI

/// Deferred deep links through `bridgectl host --stdio` and `bridgectl simulate --step`: the same
/// step lines, the same messages for a bad one.
@Suite("deferred deep links on the command line")
@MainActor
struct DeferredLinkCLITests {
    nonisolated static let contractsDirectory = RepositoryPaths.contracts.path
    static let event = "https://sendy.co.kr/event/autumn-promo?campaign_id=2025Q3_install&utm_source=instagram"

    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments + ["--contracts", Self.contractsDirectory], console: console)
        return (code, console.stdout, console.stderr)
    }

    func lines(_ output: String) throws -> [JSONValue] {
        try output.split(separator: "\n").map { try JSONDocument(String($0), limits: .unlimited).value }
    }

    @Test("host --stdio: after an interaction the link is offered (a terminal envelope line); accept navigates it once")
    func hostOfferAndAccept() throws {
        let input = [
            #"{"type":"interaction"}"#,
            #"{"type":"deferred","url":"\#(Self.event)"}"#,
            #"{"type":"accept","offer":1}"#,
            #"{"type":"accept","offer":1}"#,
        ].joined(separator: "\n") + "\n"
        let result = run(["host", "--stdio", "--manual-clock"], input: input)
        #expect(result.code == 0)
        let output = try lines(result.out)
        let envelopes = output.filter { $0["type"] == "envelope" }.map { [$0["envelope"], $0["outcome"]] }
        #expect(envelopes == [[1, "offered"], [2, "navigated"]])
        #expect(output.contains { $0["type"] == "offer" && $0["offer"] == 1 && $0["route"] == "eventCampaign" })
        let withdrawn = try #require(output.first { $0["type"] == "offer_withdrawn" })
        #expect(withdrawn["reason"] == "taken" && withdrawn["envelope"] == 2)
        #expect(output.filter { $0["type"] == "navigation" }.count == 1)
        let errors = output.filter { $0["type"] == "error" }
        #expect(errors.map { $0["line"] } == [4])
        #expect(errors.first?["message"] == "cannot accept: offer #1 was already taken (it navigated as envelope #2)")
    }

    @Test("host --stdio: inside the window with no interaction it navigates; after the window it is offered and expires")
    func hostWindow() throws {
        let input = [
            #"{"type":"deferred","url":"\#(Self.event)"}"#,
            #"{"type":"advance","ms":10001}"#,
            #"{"type":"deferred","url":"https://sendy.co.kr/vehicles?utm_source=instagram"}"#,
            #"{"type":"advance","ms":60000}"#,
            #"{"type":"accept","offer":2}"#,
        ].joined(separator: "\n") + "\n"
        let output = try lines(run(["host", "--stdio", "--manual-clock"], input: input).out)
        let envelopes = output.filter { $0["type"] == "envelope" }.map { [$0["envelope"], $0["outcome"]] }
        #expect(envelopes == [[1, "navigated"], [2, "offered"]])
        #expect(output.first { $0["type"] == "offer_withdrawn" }?["reason"] == "expired")
        #expect(output.last == ["type": "error", "line": 5, "message": "cannot accept: offer #2 expired"])
    }

    @Test("host --stdio and simulate --step: a bad step names its field", arguments: [
        (#"{"type":"deferred"}"#, #"missing "url" (the deferred link)"#),
        (#"{"type":"deferred","url":7}"#, #""url" must be a string (the deferred link)"#),
        (#"{"type":"deferred","url":"https://sendy.co.kr/start","source":"sms"}"#,
         #""source" must be one of push, externalURL, appInternal, kakaotalk"#),
        (#"{"type":"accept"}"#, #"missing "offer" (the number of an offer line)"#),
        (#"{"type":"dismiss","offer":"1"}"#, #""offer" must be a positive integer (the number of an offer line)"#),
        (#"{"type":"accept","offer":0}"#, #""offer" must be a positive integer (the number of an offer line)"#),
    ])
    func badStep(step: String, message: String) throws {
        let host = try lines(run(["host", "--stdio"], input: step + "\n").out)
        #expect(host == [["type": "error", "line": 1, "message": .string(message)]])
        let simulate = run(["simulate", "--step", step])
        #expect(simulate.code == 2)
        #expect(simulate.err == "bridgectl simulate: --step 1: \(message)\n")
    }

    @Test("simulate --step: offered after an interaction, taken, and the text says how the offer ended")
    func simulateSteps() {
        let result = run(["simulate", "--step", #"{"type":"interaction"}"#, "--step", #"{"type":"deferred","url":"\#(Self.event)"}"#,
                          "--step", #"{"type":"accept","offer":1}"#])
        #expect(result.code == 0)
        #expect(result.out.contains("deferred link #1 eventCampaign: offered\n"))
        #expect(result.out.contains("deferred link #2 eventCampaign (offer #1 taken): navigated\n"))
        #expect(result.out.contains("offer #1 eventCampaign: taken\n"))
    }

    @Test("simulate --step: logged out, the deferred link waits for login, then navigates")
    func simulateLoggedOut() {
        let result = run(["simulate", "--logged-out", "--then-login", "--step", #"{"type":"deferred","url":"https://sendy.co.kr/order/12"}"#])
        #expect(result.code == 0)
        #expect(result.out.contains("deferred link #1 orderDetail: pending_login, navigated\n"))
    }

    @Test("simulate --step: taking an offer that was never made is an error line and exit 1")
    func simulateUnknownOffer() {
        let result = run(["simulate", "--step", #"{"type":"accept","offer":3}"#])
        #expect(result.code == 1)
        #expect(result.err == "bridgectl simulate: step 1: cannot accept: no offer #3: nothing with that id was offered\n")
    }
}
