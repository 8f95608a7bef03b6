import BridgeCLI
import Foundation
import Testing
import TestSupport

/// What a campaign length counts, said and done the same everywhere: code points, as JSON Schema
/// counts them. 👍🏽 is two, so at variant's 64-character limit it fits after 62 letters, not 63,
/// in `link build`, in `route`, in `validate` (the message schema), and the docs and the catalog
/// say so.
@Suite @MainActor struct CodePointCountCLITests {
    func run(_ arguments: [String], input: String = "") -> (code: Int32, out: String, err: String) {
        let console = CapturingConsole(input: Data(input.utf8))
        let code = BridgeCLI.main(arguments, console: console)
        return (code, console.stdout, console.stderr)
    }

    static func variant(letters: Int) -> String { String(repeating: "가", count: letters) + "👍🏽" }

    @Test(arguments: [(62, true), (63, false)])
    func everyToolCountsAnEmojiWithASkinToneAsTwo(letters: Int, fits: Bool) throws {
        let value = Self.variant(letters: letters)
        let built = run(["link", "build", "eventCampaign", "--param", "slug=new-user-promo", "--variant", value])
        #expect(built.code == (fits ? 0 : 1), "\(built.err)")
        if !fits { #expect(built.err.contains("it is 65 characters long, at most 64 allowed")) }

        let encoded = try #require(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let routed = run(["route", "https://sendy.co.kr/event/new-user-promo?variant=" + encoded])
        #expect(routed.code == 0)
        #expect(routed.out.contains("it is 65 characters long, at most 64 allowed") == !fits)

        var message = try RepositoryPaths.text("Examples/messages/apply.json")
        message = message.replacingOccurrences(of: "\"card_scanner_cta\"", with: "\"\(value)\"")
        let validated = run(["validate", "-"], input: message)
        #expect(validated.code == (fits ? 0 : 1), "\(validated.out)\(validated.err)")
    }

    @Test func theDocsAndTheCatalogSayLengthsCountCodePoints() throws {
        for doc in ["docs/operations.md", "docs/contracts.md"] {
            let text = try RepositoryPaths.text(doc)
            #expect(text.contains("code points, as JSON Schema counts them"), "\(doc)")
        }
        #expect(try RepositoryPaths.text("docs/operations.md").contains("(👍🏽) or a flag (🇰🇷) is two"))
        let folder = try TemporaryFolder("code-points")
        defer { folder.remove() }
        #expect(run(["docs", "--out", folder.path]).code == 0)
        let index = try String(contentsOf: folder.url("index.html"), encoding: .utf8)
        #expect(index.contains("Characters are code points, as JSON Schema counts them"))
        #expect(index.contains("an emoji with a skin tone (👍🏽) or a flag (🇰🇷) is two"))
    }
}
