// libFuzzer target: the whole BridgeHost.receive pipeline on arbitrary sessions
// (fuzz/run.sh target "host"). Each input is one session against a fresh MockBridgeHost:
//
//   line 1   origin of the page (e.g. https://sendy.co.kr)
//   line 2   flags: f = messages come from a subframe, o = logged out, c = cold start,
//            l = log in after the messages, r = become ready after the messages
//   line 3   the entry link that opened the page (empty: none)
//   rest     up to 16 message bodies separated by the byte 0x1E
//
// Invariants, each a crash when broken:
// - nothing crashes or hangs;
// - every request with an "id" member gets a reply, so does anything that does not parse;
//   only a parsed message without "id" (a notification) may go unanswered;
// - a reply's id, when set, is the request's id string, and its text is JSON with v and ok; for a
//   body that does not parse, the id the host read from the raw text is 1 to 128 scalars and
//   is written in the body, as it is or escaped (the host never makes one up);
// - no navigation, and no result url, outside the manifest's routes or off webBaseURL;
// - no auth-required screen is shown while logged out.
import CFuzzDriver
import BridgeContracts
import BridgeHost
import BridgeHostTesting
import DeeplinkNavigation
import DeeplinkRouting
import Foundation
import JSONCore
import SchemaCheck

func fail(_ message: String, _ input: [UInt8]) -> Never {
    let text = String(decoding: input.prefix(2000), as: UTF8.self)
    FileHandle.standardError.write(Data("fuzz invariant failed: \(message)\n  session: \(text.debugDescription)\n".utf8))
    abort()
}

/// Set up once; immutable afterwards, so the C callback may read it.
struct Harness: Sendable {
    let contracts: ContractSet
    let routesByName: [String: RouteDefinition]
    let base: String

    static let shared: Harness = {
        do {
            // The repository's example set (fuzz/run.sh sets BRIDGEKIT_ROOT): nothing is compiled in.
            let root = ProcessInfo.processInfo.environment["BRIDGEKIT_ROOT"] ?? "."
            let contracts = try ContractSet.load(directory: root + "/contracts")
            let webBase = contracts.manifest.webBaseURL
            return Harness(contracts: contracts,
                           routesByName: Dictionary(contracts.routes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }),
                           base: webBase.hasSuffix("/") ? String(webBase.dropLast()) : webBase)
        } catch {
            FileHandle.standardError.write(Data("fuzz setup: \(error)\n".utf8))
            exit(2)
        }
    }()
}

struct Session {
    var origin = "https://sendy.co.kr"
    var flags: Set<Character> = []
    var entry: String?
    var messages: [[UInt8]] = []

    init(_ input: [UInt8]) {
        var lines: [[UInt8]] = []
        var rest = input[...]
        for _ in 0..<3 {
            guard let newline = rest.firstIndex(of: 0x0A) else { break }
            lines.append(Array(rest[..<newline]))
            rest = rest[rest.index(after: newline)...]
        }
        if lines.count == 3 {
            origin = String(decoding: lines[0], as: UTF8.self)
            flags = Set(String(decoding: lines[1], as: UTF8.self))
            entry = lines[2].isEmpty ? nil : String(decoding: lines[2], as: UTF8.self)
        } else {
            rest = input[...]  // no header: the whole input is one message from the main origin
        }
        messages = rest.split(separator: 0x1E, maxSplits: 15, omittingEmptySubsequences: false).map(Array.init)
    }
}

@MainActor
func checkNavigations(_ mock: MockBridgeHost, from start: Int, loggedIn: Bool, _ input: [UInt8]) {
    let harness = Harness.shared
    for record in mock.navigations[start...] {
        guard let route = harness.routesByName[record.route] else {
            fail("navigated to \(record.route), which is not in routes.json", input)
        }
        guard record.url.hasPrefix(harness.base + "/") else {
            fail("navigated to \(record.url), which is not on \(harness.base)", input)
        }
        if route.requiresAuth && !loggedIn {
            fail("showed auth-required \(record.route) while logged out", input)
        }
    }
}

/// Whether `id` may be the id the host read from an unparsable body: of the length a reply echoes,
/// and in the body as a JSON string as it is, or the body holds escapes it may have been written with.
func readFromRawText(_ id: String, _ body: [UInt8]) -> Bool {
    let scalars = id.unicodeScalars.count
    guard scalars >= 1 && scalars <= 128 else { return false }
    let quoted = Array(("\"" + id + "\"").utf8)
    let written = body.count >= quoted.count && (0...(body.count - quoted.count)).contains { body[$0..<($0 + quoted.count)].elementsEqual(quoted) }
    return written || body.contains(UInt8(ascii: "\\"))
}

@MainActor
func run(_ input: [UInt8]) {
    let harness = Harness.shared
    let session = Session(input)
    let mock: MockBridgeHost
    do {
        mock = try MockBridgeHost(contracts: harness.contracts, loggedIn: !session.flags.contains("o"),
                                  appState: session.flags.contains("c") ? .coldStart : .foreground)
    } catch {
        fail("host setup failed: \(error)", input)
    }
    if let entry = session.entry { _ = try? mock.open(entry: entry) }
    for body in session.messages {
        let before = mock.navigations.count
        let reply = mock.receive(bytes: body, origin: session.origin, isMainFrame: !session.flags.contains("f"))
        // The mock's steps complete at once, so every request is answered before receive returns.
        checkNavigations(mock, from: before, loggedIn: mock.isLoggedIn, input)
        // What the request says, read independently of the host (no limits: the host's own
        // limits may refuse it, but then it must still answer).
        let document = try? JSONDocument(bytes: body, limits: ParseLimits())
        let requestID = document?.member("id")
        guard let reply else {
            guard document != nil else { fail("no reply to a body that does not parse", input) }
            if requestID != nil { fail("no reply to a request with an id member", input) }
            continue
        }
        if let id = reply.id {
            if document == nil {
                if !readFromRawText(id, body) { fail("reply id \(id) is not in the body that does not parse", input) }
            } else if requestID != .string(id) {
                fail("reply id \(id) is not the request's id \(String(describing: requestID))", input)
            }
        }
        guard let replyJSON = try? JSONDocument(reply.text, limits: ParseLimits()),
              replyJSON.member("v") == .integer(1), case .bool? = replyJSON.member("ok") else {
            fail("reply text is not a v1 reply: \(reply.text)", input)
        }
        if let result = reply.result {
            guard harness.routesByName[result.route] != nil, result.url.hasPrefix(harness.base + "/") else {
                fail("reply names \(result.route) at \(result.url), outside the manifest", input)
            }
        }
    }
    if session.flags.contains("l") {
        let before = mock.navigations.count
        mock.completeLogin()
        checkNavigations(mock, from: before, loggedIn: true, input)
    }
    if session.flags.contains("r") {
        let before = mock.navigations.count
        mock.becomeReady()
        checkNavigations(mock, from: before, loggedIn: mock.isLoggedIn, input)
    }
}

let callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { data, size in
    guard let data else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    // libFuzzer calls back on the thread that called LLVMFuzzerRunDriver: the main thread, where
    // the main-actor host may run.
    MainActor.assumeIsolated { run(input) }
    return 0
}

var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
