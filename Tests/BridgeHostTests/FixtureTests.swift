import Testing
import BridgeContracts
import BridgeHostTesting
import TestSupport

@Suite("Contract fixtures through the mock host")
@MainActor
struct FixtureTests {
    nonisolated static let fixtures: [Fixture] = (try? repositoryContracts().fixtures) ?? []

    @Test("the fixtures are there")
    func fixturesLoaded() throws {
        let contracts = try repositoryContracts()
        #expect(contracts.fixtures.count >= 40)
        #expect(contracts.fixtures.contains { $0.expect.valid })
        #expect(contracts.fixtures.contains { !$0.expect.valid })
    }

    @Test("each fixture: verdict, code, error locations, navigation and reply as expected", arguments: fixtures.map(\.path))
    func fixture(path: String) throws {
        let contracts = try repositoryContracts()
        let fixture = try #require(contracts.fixtures.first { $0.path == path })
        let outcome = try Scenario(fixture: fixture).run(contracts: contracts)
        let problems = FixtureCheck.problems(fixture, outcome: outcome)
        #expect(problems.isEmpty, "\(path): \(problems.joined(separator: "; "))")
        // Invalid messages change nothing.
        if !fixture.expect.valid {
            #expect(outcome.host.navigations.isEmpty)
            #expect(outcome.host.navigator.log.entries.isEmpty)
        }
    }

    @Test("the checker itself notices a wrong expectation")
    func checkerCatchesMismatch() throws {
        let contracts = try repositoryContracts()
        let valid = try #require(contracts.fixtures.first { $0.path.hasSuffix("apply/v1/valid-basic.json") })
        var scenario = try Scenario(fixture: valid)
        scenario.origin = "https://evil.example"
        let problems = FixtureCheck.problems(valid, outcome: try scenario.run(contracts: contracts))
        #expect(!problems.isEmpty)
        #expect(FixtureCheck.subsetMismatch(expected: ["a": ["b": 1]], actual: ["a": ["b": 2, "c": 3]], at: "x") == "x/a/b: expected 1, got 2")
        #expect(FixtureCheck.subsetMismatch(expected: ["a": ["b": 1]], actual: ["a": ["b": 1, "c": 3]], at: "x") == nil)
    }

    @Test("a reply other than the fixture expects is named at the member that differs")
    func aWrongReplyIsNamed() throws {
        var files = try ExampleContracts.files()
        let path = "fixtures/apply/v1/valid-basic.json"
        files[path] = files[path]!.replacingOccurrences(of: #""pendingLogin": false"#, with: #""pendingLogin": true"#)
        let contracts = try ContractSet(files: files, origin: "test copy")
        let fixture = try #require(contracts.fixtures.first { $0.path == path })
        let problems = FixtureCheck.problems(fixture, outcome: try Scenario(fixture: fixture).run(contracts: contracts))
        #expect(problems == ["reply/result/pendingLogin: expected true, got false"])
    }

    @Test("a fixture expecting a reply to a message the host does not answer says the reply is missing")
    func aMissingReplyIsNamed() throws {
        var files = try ExampleContracts.files()
        let path = "fixtures/view_vehicles/v1/valid-notification.json"
        files[path] = files[path]!.replacingOccurrences(of: #""reply": null"#, with: #""reply": {"ok": true}"#)
        let contracts = try ContractSet(files: files, origin: "test copy")
        let notification = try #require(contracts.fixtures.first { $0.path == path })
        let problems = FixtureCheck.problems(notification, outcome: try Scenario(fixture: notification).run(contracts: contracts))
        #expect(problems == ["expected a reply, got none"])
    }
}
