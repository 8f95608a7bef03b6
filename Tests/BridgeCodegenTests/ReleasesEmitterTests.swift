import BridgeContracts
import Foundation
import Testing

@testable import BridgeCodegen

/// testing/releases.js: the app builds of releases.json in the test kit, so the fake host acts as
/// any of them and TypeScript knows their names.
@Suite struct ReleasesEmitterTests {
    func file(_ path: String, _ files: [GeneratedFile]) throws -> String {
        try #require(files.first { $0.path == path }).contents
    }

    @Test func everyBuildIsInTheTableAndItsNameInTheType() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set())
        let script = try file("testing/releases.js", files)
        let catalog = try RepositoryContracts.set().releaseCatalog()
        #expect(script.contains("export const RELEASES = deepFreeze(["))
        for release in catalog.releases {
            #expect(script.contains("\"version\": \"\(release.build.version)\""), "\(release.build)")
        }
        #expect(script.contains("\"share\": 42,"), "a whole share is written as an integer")
        let types = try file("testing/releases.d.ts", files)
        #expect(types.contains("export type ReleaseName = \"ios@5.9.0\" | \"ios@5.12.0\" | \"ios@5.13.0\" | \"android@5.9.4\""))
        #expect(try file("testing/fake-host.js", files).contains("bindFakeHost(CONTRACT, validators, RELEASES, HOST_DEFAULTS)"))
        #expect(!(try file("bridge.js", files)).contains("releases"), "a page's bundle never carries the releases")
    }

    @Test func aContractSetWithoutReleasesHasNoBuildNames() throws {
        let files = try JavaScriptGenerator.files(for: try RepositoryContracts.set { $0["releases.json"] = nil })
        #expect(try file("testing/releases.js", files).contains("export const RELEASES = deepFreeze([]);"))
        #expect(try file("testing/releases.d.ts", files).contains("export type ReleaseName = never;"))
    }

    @Test func aBrokenReleasesFileStopsTheGeneratorNamingTheField() throws {
        let contracts = try RepositoryContracts.set { $0["releases.json"] = $0["releases.json"]!.replacingOccurrences(of: "\"5.9.0\"", with: "\"5.9\"") }
        #expect(throws: CodegenError(file: "releases.json", pointer: "/releases/0/version",
                                     message: "malformed version \"5.9\": expected MAJOR.MINOR.PATCH, e.g. 5.13.0")) {
            try JavaScriptGenerator.files(for: contracts)
        }
    }
}
