import Foundation
import Testing
@testable import BridgeCLI

/// The fix-it command `generate --check` prints: the contracts folder as given, else the folder
/// the set was read from, relative to the working folder when it lies inside it.
@Suite struct RegenerateCommandTests {
    private let here = FileManager.default.currentDirectoryPath

    @Test func theFolderASetWasReadFromIsNamedRelativeToTheWorkingFolder() {
        #expect(RegenerateCommand.text("js", contractsOption: nil, origin: here + "/app/contracts", out: "js")
            == "bridgectl generate js --contracts app/contracts --out js")
        #expect(RegenerateCommand.text("js", contractsOption: nil, origin: here, out: "js")
            == "bridgectl generate js --contracts . --out js")
        #expect(RegenerateCommand.text("js", contractsOption: nil, origin: "/nowhere-else/contracts", out: "js")
            == "bridgectl generate js --contracts /nowhere-else/contracts --out js")
    }

    @Test func aSetNotReadFromAFolderAddsNoContractsOption() {
        #expect(RegenerateCommand.text("js", contractsOption: nil, origin: "embedded", out: "js") == "bridgectl generate js --out js")
        #expect(RegenerateCommand.text("js", contractsOption: nil, origin: "", out: "js") == "bridgectl generate js --out js")
    }

    @Test func theContractsOptionAsGivenWins() {
        #expect(RegenerateCommand.text("swift", contractsOption: "my contracts", origin: here + "/contracts", out: "Gen")
            == "bridgectl generate swift --contracts 'my contracts' --out Gen")
    }
}
