#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONCore
import BridgeContracts

/// Where messages may come from, and messages a page should never send: each refused with its
/// code, nothing navigated, and the host still answering the next good message.
enum MessageCases {
    static func cases(_ picks: FixturePicks, manifest: BridgeManifest) -> (built: [ConformanceCase], unbuilt: [UnbuiltCase]) {
        guard let fixture = picks.navigating, let message = fixture.message, let id = message["id"]?.stringValue else {
            return ([], [UnbuiltCase(name: "origins, frames and hostile messages", level: .core,
                                     reason: "no fixture of a logged-in request that navigates in this contract set (add one)")])
        }
        return (originCases(fixture, manifest: manifest) + hostileCases(message, id: id, limits: manifest.limits), [])
    }

    /// A lookalike host, another scheme, another port, and a subframe of the page's own origin.
    static func originCases(_ fixture: Fixture, manifest: BridgeManifest) -> [ConformanceCase] {
        guard let allowed = manifest.allowedOrigins.first(where: { !$0.contains("*") }),
              let separator = allowed.firstRange(of: "://") else { return [] }
        let scheme = allowed[..<separator.lowerBound]
        let authority = allowed[separator.upperBound...]
        let host = authority.split(separator: ":").first.map(String.init) ?? String(authority)
        let variants: [(String, String)] = [
            ("a lookalike origin", "\(scheme)://\(host).attacker.example"),
            ("another scheme", "\(scheme == "https" ? "http" : "https")://\(authority)"),
            ("another port", "\(scheme)://\(host):8443"),
        ].filter { !manifest.allowedOrigins.contains($0.1) }
        var cases = variants.map { what, origin in
            ConformanceCase("origin refused: \(what) (\(origin))", level: .core, setup: ["loggedIn": true],
                            lines: [CaseLines.message(fixture.body, origin: origin)]) { transcript in
                Judge.refused(transcript, line: 2, what: "the message from \(origin)", code: "ORIGIN_REJECTED")
                    + Judge.nothingNavigated(transcript, why: "the origin is not allowed")
            }
        }
        cases.append(ConformanceCase("origin refused: a subframe of an allowed origin", level: .core, setup: ["loggedIn": true],
                                     lines: [CaseLines.message(fixture.body, origin: allowed, isMainFrame: false)]) { transcript in
            Judge.refused(transcript, line: 2, what: "the message from a subframe", code: "ORIGIN_REJECTED")
                + Judge.nothingNavigated(transcript, why: "messages from subframes are refused")
        })
        return cases
    }

    /// Each hostile message, then the good one: the host refuses the first and still answers.
    static func hostileCases(_ message: JSONValue, id: String, limits: BridgeLimits) -> [ConformanceCase] {
        let text = message.serialized()
        let hostile: [(String, JSONValue, String?)] = [
            ("not JSON", CaseLines.message(String(text.dropLast())), nil),
            ("an empty body", CaseLines.message(""), nil),
            ("invalid UTF-8", CaseLines.message(base64: Data(Array(text.utf8.prefix(12)) + [0xC3, 0x28] + Array(text.utf8.dropFirst(12))).base64EncodedString()), nil),
            ("duplicate keys", CaseLines.message("{\"id\":\"\(id)\"," + text.dropFirst()), nil),
            ("nested deeper than the limit of \(limits.maxDepth)", CaseLines.message(nested(text, depth: limits.maxDepth + 1)), nil),
            ("one byte over the size limit of \(limits.maxMessageBytes)", CaseLines.message(padded(text, to: limits.maxMessageBytes + 1)), nil),
            ("a lone surrogate (\\ud83d) in a string, the id readable", CaseLines.message(loneSurrogate(in: message)), id),
        ]
        var cases = hostile.map { what, line, recoveredID in
            ConformanceCase("hostile message refused: \(what)", level: .core, setup: ["loggedIn": true],
                            lines: [line, CaseLines.message(CaseLines.withID(message, "verify-after-0001"))]) { transcript in
                Judge.refused(transcript, line: 2, what: "the message (\(what))", code: "INVALID_MESSAGE", id: recoveredID)
                    + Judge.accepted(transcript, line: 3, what: "the good message after it")
            }
        }
        // The size limit's edge: at the limit and one byte under, the same message is taken.
        for size in [limits.maxMessageBytes - 1, limits.maxMessageBytes] {
            cases.append(ConformanceCase("a message of \(size) bytes (the limit is \(limits.maxMessageBytes)) is read", level: .core,
                                         setup: ["loggedIn": true], lines: [CaseLines.message(padded(text, to: size))]) { transcript in
                Judge.accepted(transcript, line: 2, what: "the message of \(size) bytes")
            })
        }
        return cases
    }

    /// `text` (a JSON object) with spaces before its closing brace, `size` bytes in all.
    static func padded(_ text: String, to size: Int) -> String {
        String(text.dropLast()) + String(repeating: " ", count: max(0, size - text.utf8.count)) + "}"
    }

    /// `text` with a member nesting arrays `depth` deep (the object itself counts as one).
    static func nested(_ text: String, depth: Int) -> String {
        String(text.dropLast()) + ",\"deep\":" + String(repeating: "[", count: depth - 1) + String(repeating: "]", count: depth - 1) + "}"
    }

    /// The message's first string in its payload (else its `sentAt`), as JSON text whose value is
    /// an unpaired high surrogate: what `.slice()` leaves of an emoji, escaped by JSON.stringify.
    static func loneSurrogate(in message: JSONValue) -> String {
        let marker = "verify-lone-surrogate-marker"
        guard case .object(var object) = message else { return message.serialized() }
        if case .object(var payload)? = object["payload"], let key = payload.keys.first(where: { payload[$0]?.stringValue != nil }) {
            payload[key] = .string(marker)
            object["payload"] = .object(payload)
        } else {
            object["sentAt"] = .string(marker)
        }
        return JSONValue.object(object).serialized().replacing("\"\(marker)\"", with: "\"\\ud83d\"")
    }
}
