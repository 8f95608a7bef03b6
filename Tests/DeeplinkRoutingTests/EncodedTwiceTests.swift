import Foundation
import Testing
import TestSupport

@testable import DeeplinkRouting

/// "Encoded twice" means encoded twice: the table of real campaign copy in
/// Tests/shared/encoded-twice.json, which the JS link rules read too.
@Suite struct EncodedTwiceTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let value: String
        let encodedTwice: Bool
        let why: String
        var testDescription: String { value }
    }

    static let cases: [Case] = {
        struct Table: Decodable { let cases: [Case] }
        let data = (try? Data(contentsOf: RepositoryPaths.url("Tests/shared/encoded-twice.json"))) ?? Data()
        return (try? JSONDecoder().decode(Table.self, from: data).cases) ?? []
    }()

    @Test func theTableIsRead() {
        #expect(Self.cases.count >= 10)
        #expect(Self.cases.contains { $0.encodedTwice } && Self.cases.contains { !$0.encodedTwice })
    }

    @Test(arguments: cases)
    func aValueIsFlaggedOnlyWhenASecondDecodingGivesOtherValidText(_ item: Case) {
        #expect(PercentEncoding.looksEncoded(item.value) == item.encodedTwice, "\(item.why)")
    }
}
