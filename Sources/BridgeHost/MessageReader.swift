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
struct MessageReader {
    let limits: BridgeLimits

    func read(_ body: [UInt8]) -> Result<ParsedMessage, BridgeError> {
        guard body.count <= limits.maxMessageBytes else {
            return .failure(BridgeError(.invalidMessage,
                "the message is \(body.count) bytes; the limit is \(limits.maxMessageBytes)",
                details: [["limit": "maxMessageBytes", "value": .integer(Int64(limits.maxMessageBytes)), "actual": .integer(Int64(body.count))]]))
        }
        // The manifest sets size and depth; string, member and item counts keep the checker's
        // bridge-message defaults (16 KiB strings, 256 members, 1024 items).
        var parseLimits = ParseLimits.bridgeMessage
        parseLimits.maxBytes = limits.maxMessageBytes
        parseLimits.maxDepth = limits.maxDepth
        do {
            let document = try JSONDocument(bytes: body, limits: parseLimits)
            return .success(ParsedMessage(document: document))
        } catch {
            return .failure(BridgeError(.invalidMessage, "the message is not valid JSON: \(error)",
                details: [["error": .string(error.message), "line": .integer(Int64(error.line)),
                           "column": .integer(Int64(error.column)), "position": .integer(Int64(error.position))]]))
        }
    }
}
