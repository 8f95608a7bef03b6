import JSONCore

/// The closed set of reply error codes shared with the JS shim (`BridgeError.code`).
public enum BridgeErrorCode: String, Sendable, CaseIterable {
    /// Too big, not JSON, duplicate keys, too deep, or the envelope itself is wrong.
    case invalidMessage = "INVALID_MESSAGE"
    case unknownAction = "UNKNOWN_ACTION"
    case unsupportedVersion = "UNSUPPORTED_VERSION"
    /// The envelope is fine but the action's schema rejects the message (payload, required id).
    case invalidParams = "INVALID_PARAMS"
    /// Not an allowed origin, or a subframe where the action is main-frame only.
    case originRejected = "ORIGIN_REJECTED"
    /// A request id seen before, or the same destination again within the duplicate window.
    case duplicate = "DUPLICATE"
    case navigationFailed = "NAVIGATION_FAILED"
    /// Produced by the web shim when no reply comes in time; the host never sends it itself.
    case timeout = "TIMEOUT"
    case unavailable = "UNAVAILABLE"
    /// The contract set is inconsistent (e.g. a mapping points at nothing): our bug, not the page's.
    case `internal` = "INTERNAL"
}

/// An error reply's body: code, one sentence, and structured details (schema output units etc.).
public struct BridgeError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: BridgeErrorCode
    public let message: String
    public let details: [JSONValue]

    public init(_ code: BridgeErrorCode, _ message: String, details: [JSONValue] = []) {
        self.code = code
        self.message = message
        self.details = details
    }

    public var json: JSONValue {
        ["code": .string(code.rawValue), "message": .string(message), "details": .array(details)]
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
