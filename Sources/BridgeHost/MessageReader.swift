import JSONCore
import BridgeContracts
import SchemaCheck

/// A message body that parsed: the jansson document (validated without re-parsing) and its value.
struct ParsedMessage {
    let document: JSONDocument
    /// Converted once: the later steps read several members.
    let value: JSONValue

    init(document: JSONDocument) {
        self.document = document
        self.value = document.value
    }

    /// The id to echo in the reply: the `id` member when it is a string of sane length, even if
    /// the envelope later rejects it, so the page can settle its promise. nil otherwise.
    var requestID: String? {
        guard let text = value["id"]?.stringValue, !text.isEmpty, text.unicodeScalars.count <= 128 else { return nil }
        return text
    }
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
