import Testing
import JSONCore
import SchemaCheck
import BridgeContracts
import BridgeHost
import BridgeHostTesting

/// Hostile messages a page can post. Every case states its documented outcome: an error code, or
/// `nil` for a message that is valid and must be routed (payload strings that merely look
/// dangerous). Rejected messages must leave the navigator and the records exactly as they were;
/// accepted ones must land on a manifest route under webBaseURL, never on a foreign host.
struct HostileCase: CustomTestStringConvertible, Sendable {
    let name: String
    let body: [UInt8]
    var origin = "https://sendy.co.kr"
    var isMainFrame = true
    let expected: BridgeErrorCode?
    /// For error replies: whether the reply echoes the request id (false: id null).
    var echoesID = true

    var testDescription: String { name }

    init(_ name: String, _ body: String, _ expected: BridgeErrorCode?, origin: String = "https://sendy.co.kr",
         isMainFrame: Bool = true, echoesID: Bool = true) {
        self.init(name, bytes: Array(body.utf8), expected, origin: origin, isMainFrame: isMainFrame, echoesID: echoesID)
    }

    init(_ name: String, bytes: [UInt8], _ expected: BridgeErrorCode?, origin: String = "https://sendy.co.kr",
         isMainFrame: Bool = true, echoesID: Bool = true) {
        self.name = name
        self.body = bytes
        self.expected = expected
        self.origin = origin
        self.isMainFrame = isMainFrame
        self.echoesID = echoesID
    }
}

/// A valid apply with `field` replaced by raw JSON text.
private func apply(replacing field: String? = nil, with raw: String = "", id: String = "hostile-00001") -> String {
    var members = [
        ("v", "1"), ("id", "\"\(id)\""), ("action", "\"apply\""), ("version", "1"),
        ("payload", "{\"slug\":\"new-user-promo\"}"), ("sentAt", "\"2026-11-29T12:00:00Z\""),
    ]
    if let field {
        if let index = members.firstIndex(where: { $0.0 == field }) { members[index].1 = raw } else { members.append((field, raw)) }
    }
    return "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
}

private func vehicles(_ payload: String, id: String = "hostile-00002") -> String {
    "{\"v\":1,\"id\":\"\(id)\",\"action\":\"view_vehicles\",\"version\":1,\"payload\":\(payload)}"
}

private let nested = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)

let hostileCases: [HostileCase] = [
    // Not JSON at all: INVALID_MESSAGE, echoing the top-level string id the raw text still shows
    // (id null when it shows none).
    HostileCase("empty body", "", .invalidMessage, echoesID: false),
    HostileCase("truncated object", "{\"v\":1,\"id\":\"hostile-00001\"", .invalidMessage),
    HostileCase("trailing garbage", apply() + "x", .invalidMessage),
    HostileCase("two JSON texts", apply() + apply(), .invalidMessage),
    HostileCase("single quotes", "{'v':1}", .invalidMessage, echoesID: false),
    HostileCase("trailing comma", "{\"v\":1,}", .invalidMessage, echoesID: false),
    HostileCase("comment", "{\"v\":1 /* x */}", .invalidMessage, echoesID: false),
    HostileCase("NaN literal", apply(replacing: "version", with: "NaN"), .invalidMessage),
    HostileCase("invalid UTF-8 byte", bytes: Array(apply(replacing: "payload", with: "{\"slug\":\"ab\"}").utf8).map { $0 == UInt8(ascii: "b") ? 0xFF : $0 }, .invalidMessage),
    HostileCase("overlong UTF-8 for '/'", bytes: Array("{\"v\":1,\"id\":\"hostile-00001\",\"x\":\"".utf8) + [0xC0, 0xAF] + Array("\"}".utf8), .invalidMessage),
    HostileCase("raw NUL byte outside strings", bytes: Array(apply().utf8) + [0], .invalidMessage),
    HostileCase("lone high surrogate \\ud800", apply(replacing: "payload", with: "{\"slug\":\"\\ud800\"}"), .invalidMessage),
    HostileCase("lone low surrogate \\udc00 in memo", apply(replacing: "payload", with: "{\"slug\":\"a\",\"memo\":\"\\udc00\"}"), .invalidMessage),
    HostileCase("duplicate key at the top", "{\"v\":1,\"id\":\"hostile-00001\",\"action\":\"apply\",\"action\":\"start\",\"version\":1,\"payload\":{}}", .invalidMessage),
    HostileCase("duplicate key in payload", apply(replacing: "payload", with: "{\"slug\":\"a\",\"slug\":\"b\"}"), .invalidMessage),
    HostileCase("nesting 100 deep", apply(replacing: "payload", with: "{\"slug\":\(nested)}"), .invalidMessage),
    HostileCase("over 64 KiB", apply(replacing: "payload", with: "{\"slug\":\"\(String(repeating: "a", count: 70_000))\"}"), .invalidMessage),
    HostileCase("million-digit number", vehicles("{\"page\":\(String(repeating: "9", count: 1_000_000))}"), .invalidMessage),
    HostileCase("60,000-digit number", vehicles("{\"page\":\(String(repeating: "9", count: 60_000))}"), .invalidMessage),
    HostileCase("1e400", vehicles("{\"page\":1e400}"), .invalidMessage),
    HostileCase("huge array (5,000 items)", vehicles("{\"region\":[\(Array(repeating: "1", count: 5_000).joined(separator: ","))]}"), .invalidMessage),

    // JSON, but not a bridge envelope: INVALID_MESSAGE with the id echoed when one is readable.
    HostileCase("null", "null", .invalidMessage, echoesID: false),
    HostileCase("array", "[]", .invalidMessage, echoesID: false),
    HostileCase("string", "\"apply\"", .invalidMessage, echoesID: false),
    HostileCase("-0 as version", apply(replacing: "version", with: "-0"), .invalidMessage),
    HostileCase("-0.0 as envelope v", apply(replacing: "v", with: "-0.0"), .invalidMessage),
    HostileCase("v as a string", apply(replacing: "v", with: "\"1\""), .invalidMessage),
    HostileCase("id as a number", apply(replacing: "id", with: "12345678"), .invalidMessage, echoesID: false),
    HostileCase("id too short", apply(id: "a"), .invalidMessage),
    HostileCase("id with markup", apply(id: "</script><script>alert(1)</script>"), .invalidMessage),
    HostileCase("id of 10,000 characters", apply(id: String(repeating: "a", count: 10_000)), .invalidMessage, echoesID: false),
    HostileCase("action as a number", apply(replacing: "action", with: "1"), .invalidMessage),
    HostileCase("action with a path", apply(replacing: "action", with: "\"../apply\""), .invalidMessage),
    HostileCase("version as a string", apply(replacing: "version", with: "\"1\""), .invalidMessage),
    HostileCase("version 1.5", apply(replacing: "version", with: "1.5"), .invalidMessage),
    HostileCase("version 0", apply(replacing: "version", with: "0"), .invalidMessage),
    HostileCase("payload as an array", apply(replacing: "payload", with: "[]"), .invalidMessage),
    HostileCase("payload as a string", apply(replacing: "payload", with: "\"slug=a\""), .invalidMessage),
    HostileCase("payload null", apply(replacing: "payload", with: "null"), .invalidMessage),
    HostileCase("campaign as a string", apply(replacing: "campaign", with: "\"x\""), .invalidMessage),
    HostileCase("campaign group_id as a number", apply(replacing: "campaign", with: "{\"group_id\":5}"), .invalidMessage),
    HostileCase("campaign tries to set source", apply(replacing: "campaign", with: "{\"source\":\"push\"}"), .invalidMessage),
    HostileCase("sentAt as a number", apply(replacing: "sentAt", with: "5"), .invalidMessage),
    HostileCase("__proto__ at the top", apply(replacing: "__proto__", with: "{\"admin\":true}"), .invalidMessage),
    HostileCase("constructor at the top", apply(replacing: "constructor", with: "{\"prototype\":{}}"), .invalidMessage),
    HostileCase("__proto__ in campaign", apply(replacing: "campaign", with: "{\"__proto__\":{\"x\":1}}"), .invalidMessage),

    // Lookup.
    HostileCase("unknown action", apply(replacing: "action", with: "\"delete_account\""), .unknownAction),
    HostileCase("wrong version", apply(replacing: "version", with: "999"), .unsupportedVersion),
    HostileCase("unknown action without id is still answered", "{\"v\":1,\"action\":\"nope\",\"version\":1,\"payload\":{}}", .unknownAction, echoesID: false),

    // The action's schema: INVALID_PARAMS.
    HostileCase("missing id on apply", "{\"v\":1,\"action\":\"apply\",\"version\":1,\"payload\":{\"slug\":\"a\"}}", .invalidParams, echoesID: false),
    HostileCase("-0 as page", vehicles("{\"page\":-0}"), .invalidParams),
    HostileCase("__proto__ in payload", apply(replacing: "payload", with: "{\"slug\":\"a\",\"__proto__\":{\"x\":1}}"), .invalidParams),
    HostileCase("constructor in payload", vehicles("{\"constructor\":\"x\"}"), .invalidParams),
    HostileCase("slug as true", apply(replacing: "payload", with: "{\"slug\":true}"), .invalidParams),
    HostileCase("slug as an object", apply(replacing: "payload", with: "{\"slug\":{}}"), .invalidParams),
    HostileCase("plan as a number", apply(replacing: "payload", with: "{\"slug\":\"a\",\"plan\":1}"), .invalidParams),
    HostileCase("memo as an array", apply(replacing: "payload", with: "{\"slug\":\"a\",\"memo\":[]}"), .invalidParams),
    HostileCase("page as a string", vehicles("{\"page\":\"2\"}"), .invalidParams),
    HostileCase("page 1e2 beyond maximum", vehicles("{\"page\":1e3}"), .invalidParams),
    HostileCase("NUL inside the slug", apply(replacing: "payload", with: "{\"slug\":\"a\\u0000b\"}"), .invalidParams),
    HostileCase("javascript: URL as slug", apply(replacing: "payload", with: "{\"slug\":\"javascript:alert(1)\"}"), .invalidParams),
    HostileCase("foreign URL as slug", apply(replacing: "payload", with: "{\"slug\":\"https://evil.example\"}"), .invalidParams),
    HostileCase("path traversal as slug", apply(replacing: "payload", with: "{\"slug\":\"../../order/1\"}"), .invalidParams),
    HostileCase("javascript: as referrer", "{\"v\":1,\"id\":\"hostile-00003\",\"action\":\"start\",\"version\":1,\"payload\":{\"referrer\":\"javascript:void(0)\"}}", .invalidParams),

    // Duplicate request id (the base request "hostile-base-001" was accepted before each case).
    HostileCase("reused id", apply(id: "hostile-base-001"), .duplicate),

    // Origins and frames: ORIGIN_REJECTED.
    HostileCase("iframe", apply(), .originRejected, isMainFrame: false),
    HostileCase("http: origin", apply(), .originRejected, origin: "http://sendy.co.kr"),
    HostileCase("look-alike suffix", apply(), .originRejected, origin: "https://sendy.co.kr.evil.example"),
    HostileCase("userinfo", apply(), .originRejected, origin: "https://user@sendy.co.kr"),
    HostileCase("userinfo pointing away", apply(), .originRejected, origin: "https://sendy.co.kr@evil.example"),
    HostileCase("other port", apply(), .originRejected, origin: "https://sendy.co.kr:8443"),
    HostileCase("trailing slash", apply(), .originRejected, origin: "https://sendy.co.kr/"),
    HostileCase("with a path", apply(), .originRejected, origin: "https://sendy.co.kr/event"),
    HostileCase("trailing dot", apply(), .originRejected, origin: "https://sendy.co.kr."),
    HostileCase("opaque null origin", apply(), .originRejected, origin: "null"),
    HostileCase("empty origin", apply(), .originRejected, origin: ""),
    HostileCase("foreign origin", apply(), .originRejected, origin: "https://evil.example"),
    HostileCase("sub-subdomain", apply(), .originRejected, origin: "https://evil.sendy.co.kr"),
    HostileCase("file origin", apply(), .originRejected, origin: "file://"),
    HostileCase("javascript: origin", apply(), .originRejected, origin: "javascript:alert(1)"),
    HostileCase("percent-escaped host", apply(), .originRejected, origin: "https://sendy%2Eco.kr"),
    HostileCase("Unicode look-alike host", apply(), .originRejected, origin: "https://sеndy.co.kr"),

    // Documented as accepted: the same origin in another spelling (hosts are case-insensitive,
    // 443 is https's default port), and payload strings that only look dangerous: they become
    // query values encoded once on the app's own Universal Link.
    HostileCase("upper-case host is the same origin", apply(), nil, origin: "https://SENDY.co.kr"),
    HostileCase("explicit default port is the same origin", apply(), nil, origin: "https://sendy.co.kr:443"),
    HostileCase("javascript: URL in memo", apply(replacing: "payload", with: "{\"slug\":\"a\",\"memo\":\"javascript:alert(document.cookie)\"}"), nil),
    HostileCase("foreign URL in region", vehicles("{\"region\":\"https://evil.example/?x=1&y=2\"}"), nil),
    HostileCase("protocol-relative URL in memo", apply(replacing: "payload", with: "{\"slug\":\"a\",\"memo\":\"//evil.example/%2e%2e\"}"), nil),
]

@Suite("Hostile messages: each gets its documented outcome, a rejected one changes nothing")
@MainActor
struct HostileMessageTests {
    @Test("the table has at least 40 cases")
    func tableSize() {
        #expect(hostileCases.count >= 40)
    }

    @Test("each hostile message gets its documented outcome and rejected ones change nothing", arguments: hostileCases)
    func hostile(_ testCase: HostileCase) throws {
        let contracts = try repositoryContracts()
        let host = try MockBridgeHost(contracts: contracts)
        try host.open(entry: seedEntry)
        // A request accepted before, so the navigator and the id memory are not empty.
        #expect(host.receive("{\"v\":1,\"id\":\"hostile-base-001\",\"action\":\"start\",\"version\":1,\"payload\":{}}")?.ok == true)
        host.advanceClock(byMs: 5_000)
        let before = HostState(host)

        let reply = try #require(immediateReply(host.bridge, body: testCase.body, origin: testCase.origin, isMainFrame: testCase.isMainFrame),
                                 "every request is answered")
        let text = reply.text
        #expect(try JSONDocument(text).value["v"] == 1, "the reply is JSON")

        if let expected = testCase.expected {
            #expect(reply.error?.code == expected, "\(testCase.name): \(reply.json.serialized())")
            if testCase.echoesID {
                #expect(reply.id != nil, "\(testCase.name): the reply should echo the id")
            } else {
                #expect(reply.id == nil, "\(testCase.name): id should be null")
            }
            #expect(HostState(host) == before, "\(testCase.name) changed the host's state")
            #expect(!text.contains("</script"), "the reply text is safe inside a script")
        } else {
            #expect(reply.ok, "\(testCase.name): \(reply.json.serialized())")
        }
        // No open redirect, whatever happened.
        let routeNames = Set(contracts.routes.map(\.name))
        for navigation in host.navigations {
            #expect(routeNames.contains(navigation.route))
            #expect(navigation.url.hasPrefix(contracts.manifest.webBaseURL + "/"), "\(navigation.url)")
        }
        if let url = reply.result?.url {
            #expect(url.hasPrefix(contracts.manifest.webBaseURL + "/"))
        }
    }

    @Test("payload strings that look like URLs stay encoded query values on the app's own host")
    func noOpenRedirect() throws {
        let host = try MockBridgeHost(contracts: try repositoryContracts())
        let reply = host.receive(vehicles("{\"region\":\"https://evil.example/?x=1&y=2\"}"))
        #expect(reply?.result?.url == "https://sendy.co.kr/vehicles?region=https%3A%2F%2Fevil.example%2F%3Fx%3D1%26y%3D2")
    }
}
