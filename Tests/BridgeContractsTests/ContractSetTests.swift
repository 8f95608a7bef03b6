import BridgeContracts
import DeeplinkRouting
import Testing

@Suite("ContractSet names routes through the routing layer")
struct ContractSetTests {
    @Test func routesComeFromRoutesJSONThroughTheRoutingLoader() throws {
        let contracts = try ContractSet(files: RepositoryContractFiles.files, origin: "the repository")
        let text = try #require(RepositoryContractFiles.files["routes.json"])
        #expect(contracts.routes == (try RoutesFile.routes(fromJSON: text)))
        #expect(contracts.route(named: "applyForm")?.requiresAuth == true)
    }

    @Test func aBrokenRoutesJSONIsAContractErrorWithFileAndPointer() throws {
        let files = try RepositoryContractFiles.editing([("routes.json", #""pattern": "/vehicles/:vehicleId""#, #""pattern": "vehicles/:vehicleId""#)])
        #expect(throws: ContractError(file: "routes.json", pointer: "/routes/3/pattern", message: "pattern must start with \"/\"")) {
            try ContractSet(files: files, origin: "a broken copy")
        }
        let notJSON = try RepositoryContractFiles.editing([("routes.json", #""routes": ["#, #""routes": [,"#)])
        do {
            _ = try ContractSet(files: notJSON, origin: "a broken copy")
            Issue.record("loaded a routes.json that is not JSON")
        } catch {
            #expect(error.file == "routes.json")
            #expect(error.description.hasPrefix("routes.json: not valid JSON: line 7 column "))
        }
    }

    @Test func theManifestGivesTheRoutingLayerItsLinkSettings() throws {
        let contracts = try ContractSet(files: RepositoryContractFiles.files, origin: "the repository")
        #expect(contracts.manifest.links == LinkConfiguration(
            universalLinkHosts: ["sendy.co.kr", "www.sendy.co.kr"], customScheme: "sendy", webBaseURL: "https://sendy.co.kr",
            pushURLKey: "deeplink"))
        let handler = try DeeplinkHandler(contracts: contracts)
        #expect(handler.links == contracts.manifest.links)
        #expect(handler.routes.names == contracts.routes.map(\.name))
    }
}
