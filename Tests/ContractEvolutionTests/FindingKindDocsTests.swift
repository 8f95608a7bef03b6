import Foundation
import Testing
import TestSupport
@testable import ContractEvolution

/// docs/contracts.md lists every finding kind, its meaning and whom it breaks: the table there
/// is the one the code describes, so a new kind cannot ship undocumented.
@Suite struct FindingKindDocsTests {
    static let docs = RepositoryPaths.url("docs/contracts.md")

    @Test func theDocsTableIsTheClosedListOfKinds() throws {
        let text = try String(contentsOf: Self.docs, encoding: .utf8)
        let table = FindingKind.documentationTable
        #expect(text.contains(table), "docs/contracts.md must contain this table:\n\(table)")
        for kind in FindingKind.allCases {
            #expect(table.contains("`\(kind.rawValue)`"), "\(kind.rawValue) is missing from the table")
        }
    }

    @Test func everyKindHasAMeaningOfItsOwn() {
        let meanings = FindingKind.allCases.map(\.meaning)
        #expect(Set(meanings).count == meanings.count)
        #expect(!meanings.contains { FindingKind(rawValue: $0) != nil }, "a kind without a written meaning")
    }
}
