import BridgeContracts
import Foundation
import Testing
import TestSupport

@testable import BridgeSwiftCodegen

/// The files of `generate swift` compile on their own: `swiftc -typecheck` of them and nothing
/// else (no hand-copied support file, no module of the toolkit), for the example set and for
/// another company's set (the adopter-app template's Larkspur Foods).
@Suite("Generated Swift types stand alone")
struct SwiftTypesStandAloneTests {
    static let sets = ["contracts", "Tests/adopter-app/Sources/LarkspurApp/contracts"]

    @Test("swiftc -typecheck passes on the generated files alone", arguments: sets)
    func generatedFilesTypeCheckAlone(set: String) throws {
        let files = try SwiftTypesGenerator.files(for: try ContractSet.load(directory: RepositoryPaths.url(set).path))
        #expect(files.contains { $0.path == "BridgeMessage.swift" })
        let result = try Self.typecheck(files)
        #expect(result.status == 0, "swiftc -typecheck of \(set)'s generated files: \(result.output)")
    }

    @Test("without the generated BridgeMessage.swift the same files do not type-check")
    func theSupportFileIsWhatMakesThemStandAlone() throws {
        let files = try SwiftTypesGenerator.files(for: try ContractSet.load(directory: RepositoryPaths.contracts.path))
        let result = try Self.typecheck(files.filter { $0.path != "BridgeMessage.swift" })
        #expect(result.status != 0)
        #expect(result.output.contains("BridgeMessage"), "\(result.output)")
    }

    @Test("the support file's protocol and decoding helper are public, so another module can use them")
    func theSupportIsPublic() throws {
        let support = try #require(try SwiftTypesGenerator.files(for: try ContractSet.load(directory: RepositoryPaths.contracts.path))
            .first { $0.path == "BridgeMessage.swift" })
        #expect(support.contents.contains("public protocol BridgeMessage"))
        #expect(support.contents.contains("public func decodeConstant"))
    }

    /// Writes `files` into a temporary folder (removed afterwards) and type-checks them together.
    static func typecheck(_ files: [SwiftTypesFile]) throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridgekit-typecheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for file in files {
            try file.contents.write(to: folder.appendingPathComponent(file.path), atomically: true, encoding: .utf8)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swiftc", "-typecheck", "-swift-version", "6"] + files.map { folder.appendingPathComponent($0.path).path }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
