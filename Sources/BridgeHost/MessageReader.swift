import JSONCore
import BridgeContracts
import SchemaCheck

/// A message body that parsed: the jansson document (validated without re-parsing), with the
/// envelope members every step reads taken out once. Other members are converted only when a
/// step needs them: most of a message is its payload, which only the mapping reads, by pointer.
struct ParsedMessage {
    let document: JSONDocument
    /// The `action` member when it is a string, else "".
    let action: String
    /// The `version` member when it is an integer, else 0.
    let version: Int
    /// The id to echo in the reply: the `id` member when it is a string of sane length, even if
    /// the envelope later rejects it, so the page can settle its promise. nil otherwise.
    let requestID: String?

    init(document: JSONDocument) {
        self.document = document
        action = document.member("action")?.stringValue ?? ""
        version = Int(document.member("version")?.integerValue ?? 0)
        requestID = RawRequestID.sane(document.member("id")?.stringValue)
    }

    /// The whole message as a Swift value (the capabilities request reads all of it).
    var value: JSONValue { document.value }

    func member(_ key: String) -> JSONValue? { document.member(key) }

    func value(atTokens tokens: [String]) -> JSONValue? { document.value(atTokens: tokens) }
}

/// A message the host cannot read (too large, or not JSON): the error to answer, and the request
/// id found in its raw text (`RawRequestID`), which the reply echoes so the page can settle the call.
struct UnreadableMessage: Error, CustomStringConvertible {
    let error: BridgeError
    let requestID: String?

    var description: String { "\(error) (request id \(requestID.map { "\"\($0)\"" } ?? "null"))" }
}

/// Steps 1 and 2: the size limit, then parsing with duplicate keys rejected and the depth bounded.
/// The document is parsed on the heap (never into a `MessageArena`: arenas install jansson's
/// allocator hooks for the whole process, which a library embedded in an app must not do), lives
/// while `body` runs, and is gone after: nothing may keep the `ParsedMessage` (what outlives the
/// message is converted to Swift values first).
struct MessageReader {
    let limits: BridgeLimits

    /// How much of a message over the size limit is searched for its id (the shim writes it second).
    static let oversizedIDPrefix = 1024

    func withMessage<Result>(_ message: [UInt8], _ body: (Swift.Result<ParsedMessage, UnreadableMessage>) -> Result) -> Result {
        guard message.count <= limits.maxMessageBytes else {
            let error = BridgeError(.invalidMessage,
                "the message is \(message.count) bytes; the limit is \(limits.maxMessageBytes)",
                details: [["limit": "maxMessageBytes", "value": .integer(Int64(limits.maxMessageBytes)), "actual": .integer(Int64(message.count))]])
            return body(.failure(UnreadableMessage(error: error, requestID: RawRequestID.find(in: message, prefix: Self.oversizedIDPrefix))))
        }
        // The manifest sets size and depth; string, member and item counts keep the checker's
        // bridge-message defaults (16 KiB strings, 256 members, 1024 items).
        var parseLimits = ParseLimits.bridgeMessage
        parseLimits.maxBytes = limits.maxMessageBytes
        parseLimits.maxDepth = limits.maxDepth
        func handOver(_ parsed: Swift.Result<JSONDocument, JSONParseError>) -> Result {
            switch parsed {
            case .success(let document):
                return body(.success(ParsedMessage(document: document)))
            case .failure(let error):
                return body(.failure(UnreadableMessage(error: Self.notJSON(error), requestID: RawRequestID.find(in: message))))
            }
        }
        do {
            return handOver(.success(try JSONDocument(bytes: message, limits: parseLimits)))
        } catch {
            return handOver(.failure(error))
        }
    }

    /// The error for text that does not parse: the parser's words and where, and what a lone
    /// surrogate escape (jansson: "invalid Unicode '\uD83D'") most likely means.
    static func notJSON(_ error: JSONParseError) -> BridgeError {
        let surrogate = error.message.hasPrefix("invalid Unicode '\\uD")
            && error.message.dropFirst(20).first.map { "89ABCDEFabcdef".contains($0) } == true
        let cause = surrogate ? " (a lone UTF-16 surrogate, which has no UTF-8 form: was a string cut inside an emoji?)" : ""
        return BridgeError(.invalidMessage, "the message is not valid JSON: \(error)\(cause)",
            details: [["error": .string(error.message), "line": .integer(Int64(error.line)),
                       "column": .integer(Int64(error.column)), "position": .integer(Int64(error.position))]])
    }
}
