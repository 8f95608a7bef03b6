import BridgeContracts
import Foundation
import Testing
import TestSupport

/// Which set a command uses without --contracts: the flag, else the nearest contracts/ folder
/// upward, else BRIDGEKIT_CONTRACTS, else an error pointing at `bridgectl init`.
@Suite struct ContractDiscoveryTests {
    /// `root/contracts/manifest.json` and a nested `root/a/b`.
    func project(_ folder: URL) throws -> (root: URL, nested: URL) {
        let contracts = folder.appendingPathComponent("contracts")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: contracts.appendingPathComponent("manifest.json"))
        let nested = folder.appendingPathComponent("a/b")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        return (folder, nested)
    }

    @Test func theFlagWinsOverAFolderAndTheEnvironment() throws {
        try withTemporaryFolder("discovery") { (folder: URL) throws in
            let (root, _) = try project(folder)
            let found = try ContractDiscovery.find(flag: "elsewhere", workingDirectory: root.path, environment: ["BRIDGEKIT_CONTRACTS": "/env"])
            #expect(found == ContractDiscovery(directory: "elsewhere", source: .flag))
        }
    }

    @Test func theNearestFolderIsFoundFromTheWorkingFolderAndEachFolderBelowIt() throws {
        try withTemporaryFolder("discovery") { (folder: URL) throws in
            let (root, nested) = try project(folder)
            let env = ["BRIDGEKIT_CONTRACTS": "/env"]
            #expect(try ContractDiscovery.find(flag: nil, workingDirectory: root.path, environment: env)
                == ContractDiscovery(directory: "contracts", source: .nearestFolder))
            #expect(try ContractDiscovery.find(flag: nil, workingDirectory: root.appendingPathComponent("a").path, environment: env).directory == "../contracts")
            #expect(try ContractDiscovery.find(flag: nil, workingDirectory: nested.path, environment: env).directory == "../../contracts")
            // Inside the contracts folder itself, its own folder is the nearest.
            #expect(try ContractDiscovery.find(flag: nil, workingDirectory: root.appendingPathComponent("contracts").path, environment: env).directory == "../contracts")
        }
    }

    @Test func aContractsFolderWithoutAManifestIsNotASet() throws {
        try withTemporaryFolder("discovery") { (folder: URL) throws in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("contracts/manifest.json"), withIntermediateDirectories: true)
            let found = try ContractDiscovery.find(flag: nil, workingDirectory: folder.path, environment: ["BRIDGEKIT_CONTRACTS": "/env/set"])
            #expect(found == ContractDiscovery(directory: "/env/set", source: .environment))
        }
    }

    @Test func withNoFolderTheEnvironmentIsUsedAndWithNeitherItIsAnErrorPointingAtInit() throws {
        try withTemporaryFolder("discovery") { (folder: URL) throws in
            #expect(try ContractDiscovery.find(flag: nil, workingDirectory: folder.path, environment: ["BRIDGEKIT_CONTRACTS": "/env/set"]).source == .environment)
            for environment in [[:], ["BRIDGEKIT_CONTRACTS": ""]] {
                #expect(throws: ContractError(file: folder.path, message: ContractDiscovery.notFoundMessage)) {
                    try ContractDiscovery.find(flag: nil, workingDirectory: folder.path, environment: environment)
                }
            }
            #expect(ContractDiscovery.notFoundMessage.contains("bridgectl init"))
        }
    }

    @Test func anEmptyFlagIsRefused() {
        #expect(throws: ContractError.self) { try ContractDiscovery.find(flag: "", workingDirectory: "/", environment: [:]) }
    }

    @Test func theProjectFolderIsTheOneHoldingTheContractsFolder() {
        let cases: [(String, String)] = [("contracts", "."), ("../contracts", ".."), ("/srv/app/contracts", "/srv/app"),
                                         ("/contracts", "/"), ("Tests/contracts/custom-action/", "Tests/contracts")]
        for (directory, expected) in cases {
            #expect(ContractDiscovery(directory: directory, source: .flag).projectFolder == expected, "\(directory)")
        }
    }

    @Test func hintsQuoteAFolderTheShellWouldSplit() {
        #expect(ContractDiscovery(directory: "my contracts", source: .flag).flagText == "--contracts 'my contracts'")
        #expect(ContractDiscovery(directory: "contracts", source: .nearestFolder).flagText == "--contracts contracts")
    }
}
