import BridgeContracts
import Foundation
import Testing
import TestSupport

/// Files written whole or not at all (releases.json, released snapshots): the new text replaces
/// the old, nothing is left beside it, and a write that cannot happen says where and leaves the
/// folder as it was.
struct AtomicFileTests {
    private func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aNewFileIsWrittenWithNothingLeftBeside() throws {
        try withTemporaryFolder("atomic-file") { folder in
            let path = folder.appendingPathComponent("releases.json").path
            try FileSystem.replaceAtomically(atPath: path, contents: "{\"releases\": []}\n")
            #expect(FileSystem.text(atPath: path) == "{\"releases\": []}\n")
            #expect(try names(folder) == ["releases.json"])
        }
    }

    @Test func anExistingFileIsReplacedWhole() throws {
        try withTemporaryFolder("atomic-file") { folder in
            let path = folder.appendingPathComponent("releases.json").path
            try FileSystem.replaceAtomically(atPath: path, contents: String(repeating: "old ", count: 1000))
            try FileSystem.replaceAtomically(atPath: path, contents: "new")
            #expect(FileSystem.text(atPath: path) == "new")
            #expect(try names(folder) == ["releases.json"])
        }
    }

    @Test func aFolderThatIsMissingIsNamedAndNothingIsCreated() throws {
        try withTemporaryFolder("atomic-file") { folder in
            let path = folder.appendingPathComponent("missing/releases.json").path
            let error = #expect(throws: FileWriteError.self) { try FileSystem.replaceAtomically(atPath: path, contents: "x") }
            #expect(error?.path == path)
            #expect(error?.description.hasPrefix(path + ": cannot be written: ") == true)
            let left = try names(folder)
            #expect(left.isEmpty)
        }
    }

    @Test func aTargetThatIsAFolderIsRefusedAndTheTemporaryFileRemoved() throws {
        try withTemporaryFolder("atomic-file") { folder in
            let target = folder.appendingPathComponent("releases.json")
            try FileManager.default.createDirectory(at: target.appendingPathComponent("inside"), withIntermediateDirectories: true)
            #expect(throws: FileWriteError.self) { try FileSystem.replaceAtomically(atPath: target.path, contents: "x") }
            #expect(try names(folder) == ["releases.json"])
            #expect(try names(target) == ["inside"])
        }
    }
}
