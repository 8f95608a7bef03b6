import BridgeContracts
import BridgeHost
import BridgeHostTesting
import DeeplinkNavigation
import DeeplinkRouting
import Testing
import TestSupport

@Suite("BridgeHostSetupError keeps the error it wraps")
@MainActor
struct BridgeHostSetupErrorTests {
    private func contracts(replacing old: String, with new: String, in file: String) throws -> ContractSet {
        var files = try RepositoryPaths.jsonFiles(under: "contracts")
        let text = try #require(files[file])
        try #require(text.contains(old))
        files[file] = text.replacingOccurrences(of: old, with: new)
        return try ContractSet(files: files, origin: "a broken copy")
    }

    private func setupError(_ contracts: ContractSet) -> BridgeHostSetupError? {
        let navigator = DeeplinkNavigator(host: nil, auth: nil, duplicateWindowMs: 2_000)
        do {
            _ = try BridgeHost(contracts: contracts, navigator: navigator)
            return nil
        } catch {
            return error
        }
    }

    @Test func anAmbiguousRouteTableIsTheRouteTableError() throws {
        // /review/:orderId now has the shape of /order/:id.
        let broken = try contracts(replacing: #""pattern": "/review/:orderId""#, with: #""pattern": "/order/:orderId""#, in: "routes.json")
        let error = try #require(setupError(broken))
        #expect(error == .routes(.ambiguous(route: "reviewWrite", pattern: "/order/:orderId", otherRoute: "orderDetail", otherPattern: "/order/:id")))
        #expect(error.description == #"routes.json: routes "orderDetail" (/order/:id) and "reviewWrite" (/order/:orderId) match the same URLs; make one of the segments a literal or remove one"#)
        #expect(throws: BridgeHostSetupError.self) { try MockBridgeHost(contracts: broken) }
    }

    @Test func aSchemaThatDoesNotCompileIsTheContractError() throws {
        let broken = try contracts(replacing: #""pattern": "^[a-z0-9-]{1,64}$""#, with: #""pattern": "([a-z""#, in: "schemas/apply.v1.json")
        let error = try #require(setupError(broken))
        guard case .contracts(let contractError) = error else {
            Issue.record("expected a contract error, got \(error)")
            return
        }
        #expect(contractError.file == "schemas/apply.v1.json")
        #expect(contractError.message.hasPrefix("does not compile: "))
        #expect(error.description == "the contract schemas do not compile: \(contractError)")
        #expect(!error.description.contains("ContractError("))
        #expect(throws: error) { try MockBridgeHost(contracts: broken) }
    }
}
