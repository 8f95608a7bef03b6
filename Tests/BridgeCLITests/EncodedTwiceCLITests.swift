import BridgeCLI
import Foundation
import JSONCore
import Testing
import TestSupport

/// The table of real campaign copy (Tests/shared/encoded-twice.json) through `bridgectl route`:
/// each value, encoded once as a variant, is warned about as "encoded twice" exactly when the
/// table says so, and `link build --strict` refuses exactly those.
@Suite @MainActor struct EncodedTwiceCLITests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let value: String
        let encodedTwice: Bool
        let why: String
        var testDescription: String { value }
    }

    nonisolated static let cases: [Case] = {
        struct Table: Decodable { let cases: [Case] }
        let data = (try? Data(contentsOf: RepositoryPaths.url("Tests/shared/encoded-twice.json"))) ?? Data()
        return (try? JSONDecoder().decode(Table.self, from: data).cases) ?? []
    }()

    func run(_ arguments: [String]) -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data())
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    @Test func theTableIsRead() {
        #expect(Self.cases.count >= 20)
    }

    @Test(arguments: cases)
    func routeWarnsOnlyAboutCopyThatWasEncodedTwice(_ item: Case) throws {
        let once = try #require(item.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let routed = run(["route", "https://sendy.co.kr/event/new-user-promo?variant=" + once])
        #expect(routed.code == 0)
        #expect(routed.out.contains("variant = \(JSONValue.string(item.value).serialized())"))
        #expect(routed.out.contains("the link was probably encoded twice") == item.encodedTwice, "\(item.why)")

        let strict = run(["link", "build", "eventCampaign", "--param", "slug=new-user-promo", "--variant", item.value, "--strict"])
        #expect(strict.code == (item.encodedTwice ? 1 : 0), "\(item.why): \(strict.err)")
    }
}
