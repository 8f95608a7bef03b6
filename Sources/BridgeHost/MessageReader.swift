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
        let id = document.member("id")?.stringValue
        requestID = id.flatMap { !$0.isEmpty && $0.unicodeScalars.count <= 128 ? $0 : nil }
    }

    /// The whole message as a Swift value (the capabilities request reads all of it).
    var value: JSONValue { document.value }

    func member(_ key: String) -> JSONValue? { document.member(key) }

    func value(atTokens tokens: [String]) -> JSONValue? { document.value(atTokens: tokens) }
}

/// Steps 1 and 2: the size limit, then parsing with duplicate keys rejected and the depth bounded.
/// The document is parsed on the heap (never into a `MessageArena`: arenas install jansson's
/// allocator hooks for the whole process, which a library embedded in an app must not do), lives
/// while `body` runs, and is gone after: nothing may keep the `ParsedMessage` (what outlives the
/// message is converted to Swift values first).
struct MessageReader {
    let limits: BridgeLimits

    func withMessage<Result>(_ message: [UInt8], _ body: (Swift.Result<ParsedMessage, BridgeError>) -> Result) -> Result {
        guard message.count <= limits.maxMessageBytes else {
            return body(.failure(BridgeError(.invalidMessage,
                "the message is \(message.count) bytes; the limit is \(limits.maxMessageBytes)",
                details: [["limit": "maxMessageBytes", "value": .integer(Int64(limits.maxMessageBytes)), "actual": .integer(Int64(message.count))]])))
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
                return body(.failure(BridgeError(.invalidMessage, "the message is not valid JSON: \(error)",
                    details: [["error": .string(error.message), "line": .integer(Int64(error.line)),
                               "column": .integer(Int64(error.column)), "position": .integer(Int64(error.position))]])))
            }
        }
        do {
            return handOver(.success(try JSONDocument(bytes: message, limits: parseLimits)))
        } catch {
            return handOver(.failure(error))
        }
    }
}
