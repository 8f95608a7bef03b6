import Foundation
import Testing
import TestSupport

@testable import BridgeCLI

/// `bridgectl init` writes its set whole or not at all.
@Suite struct InitCommandTests {
    @Test func aFailureHalfWayLeavesNeitherTheSetNorTheStagingFolder() throws {
        try withTemporaryFolder("init-write") { (folder: URL) throws in
            let target = folder.appendingPathComponent("contracts").path
            let staging = folder.appendingPathComponent(".contracts.init-test").path
            // "a" cannot be a file and a folder: whichever is written first, the other fails.
            let files = ["manifest.json": "{}\n", "a": "file\n", "a/b.json": "{}\n"]
            #expect(throws: (any Error).self) { try InitCommandRunner.write(files, to: target, staging: staging) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
    }

    @Test func aSuccessfulWriteRenamesTheStagingFolderIntoPlace() throws {
        try withTemporaryFolder("init-write") { (folder: URL) throws in
            let target = folder.appendingPathComponent("contracts").path
            let staging = folder.appendingPathComponent(".contracts.init-test").path
            try InitCommandRunner.write(["manifest.json": "{}\n", "schemas/x.json": "{}\n"], to: target, staging: staging)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["contracts"])
            #expect(try String(contentsOfFile: target + "/schemas/x.json", encoding: .utf8) == "{}\n")
        }
    }
}
