// libFuzzer target: DeeplinkHandler.parse on arbitrary text (fuzz/run.sh target "url").
//
// Invariants, each a crash when broken:
// - parsing never crashes and never hangs;
// - whitespace around the link (LinkText's documented list) is removed only with a warning, and
//   the checks below read the text without it;
// - an accepted https link is on a manifest Universal Link host (no foreign host, no
//   look-alike such as sendy.co.kr.evil.example), checked on the raw text, not the parser's view;
// - an accepted link resolves to a route of routes.json;
// - its canonical url is on webBaseURL, and parsing that url again gives the same route,
//   path parameters and (non-empty) query values: route(build(x)) == x.
import CFuzzDriver
import BridgeContracts
import DeeplinkRouting
import Foundation

func fail(_ message: String, _ input: String) -> Never {
    FileHandle.standardError.write(Data("fuzz invariant failed: \(message)\n  input: \(input.debugDescription)\n".utf8))
    abort()
}

/// Set up once, before the first input; immutable afterwards, so the C callback may read it.
struct Harness: Sendable {
    let handler: DeeplinkHandler
    let routeNames: Set<String>
    let linkHosts: Set<String>
    let base: String

    static let shared: Harness = {
        do {
            // The repository's example set (fuzz/run.sh sets BRIDGEKIT_ROOT): nothing is compiled in.
            let root = ProcessInfo.processInfo.environment["BRIDGEKIT_ROOT"] ?? "."
            let contracts = try ContractSet.load(directory: root + "/contracts")
            let webBase = contracts.manifest.webBaseURL
            return Harness(handler: try DeeplinkHandler(contracts: contracts),
                           routeNames: Set(contracts.routes.map(\.name)),
                           linkHosts: Set(contracts.manifest.universalLinkHosts.map { $0.lowercased() }),
                           base: webBase.hasSuffix("/") ? String(webBase.dropLast()) : webBase)
        } catch {
            FileHandle.standardError.write(Data("fuzz setup: \(error)\n".utf8))
            exit(2)
        }
    }()
}

/// The host of an "https://" link read straight from the text: authority up to / ? #, minus
/// userinfo and port. nil when the text is not an https link.
func rawHTTPSHost(_ text: String) -> String? {
    guard text.lowercased().hasPrefix("https://") else { return nil }
    var authority = text.dropFirst("https://".count).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    if let colon = authority.lastIndex(of: ":") { authority = authority[..<colon] }
    return authority.lowercased()
}

func nonEmptyQuery(_ link: ParsedDeeplink) -> [String: [String]] {
    var result: [String: [String]] = [:]
    for key in link.queryOrder {
        let values = (link.queryParameters[key] ?? []).filter { !$0.isEmpty }
        if !values.isEmpty { result[key] = values }
    }
    return result
}

/// The text without the whitespace a pasted link may carry around it, by the documented list
/// (LinkText.surroundingWhitespace), stripped here by this harness's own loop.
func withoutSurroundingWhitespace(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars
    while let first = scalars.first, LinkText.surroundingWhitespace.contains(first.value) { scalars.removeFirst() }
    while let last = scalars.last, LinkText.surroundingWhitespace.contains(last.value) { scalars.removeLast() }
    return String(scalars)
}

func check(_ input: String) {
    let harness = Harness.shared
    let handler = harness.handler
    guard let link = try? handler.parse(input) else { return }
    // Surrounding whitespace is removed with a warning; the raw checks below read what is left.
    let text = withoutSurroundingWhitespace(input)
    if text.utf8.count != input.utf8.count, !link.warnings.contains(where: { $0.field == "url" }) {
        fail("removed whitespace around the link without a warning", input)
    }
    if let host = rawHTTPSHost(text), !harness.linkHosts.contains(host) {
        fail("accepted a link on host \(host), which is not a Universal Link host", input)
    }
    if !text.lowercased().hasPrefix("https://") && !text.lowercased().hasPrefix(handler.customScheme.lowercased() + ":") {
        fail("accepted a link that is neither https nor the custom scheme", input)
    }
    guard harness.routeNames.contains(link.configuration.name) else {
        fail("resolved to \(link.configuration.name), which is not in routes.json", input)
    }
    let canonical = link.url
    guard canonical.hasPrefix(harness.base + "/") else { fail("canonical url \(canonical) is not on \(harness.base)", input) }
    let again: ParsedDeeplink
    do {
        again = try handler.parse(canonical)
    } catch {
        fail("its canonical url \(canonical) does not parse: \(error)", input)
    }
    guard again.configuration.name == link.configuration.name, again.pathParameters == link.pathParameters,
          nonEmptyQuery(again) == nonEmptyQuery(link) else {
        fail("round trip changed the link: \(link.configuration.name) \(link.pathParameters) \(nonEmptyQuery(link)) -> \(again.configuration.name) \(again.pathParameters) \(nonEmptyQuery(again)) via \(canonical)", input)
    }
}

let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // URLs arrive as Swift strings; invalid UTF-8 is repaired the way String(decoding:) does.
    check(String(decoding: bytes, as: UTF8.self))
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
