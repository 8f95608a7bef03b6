import JSONCore

/// The built-in `capabilities` request: `{"v":1,"id":"...","action":"capabilities","version":1,
/// "payload":{}}` gets the capability manifest as its result, the same one the document-start
/// script installs, so a page can ask again (a frame the script missed, a handshake). It takes
/// the envelope and origin checks of every message; it changes nothing, so asking twice is fine
/// (its id is not remembered). Like every request it is answered: a version other than 1 gets
/// UNSUPPORTED_VERSION, a payload other than {} or a missing id INVALID_PARAMS. No contract may
/// name an action "capabilities" (the shim reserves the name too).
struct CapabilitiesRequest {
    let capabilities: HostCapabilities

    func reply(to message: JSONValue, id: String?) -> BridgeReply {
        func fail(_ error: BridgeError) -> BridgeReply { BridgeReply(id: id, outcome: .failure(error)) }
        let version = Int(message["version"]?.integerValue ?? 0)
        guard version == HostCapabilities.requestVersion else {
            return fail(Self.unsupported(action: HostCapabilities.requestAction, version: version, supported: [HostCapabilities.requestVersion]))
        }
        guard id != nil else {
            return fail(BridgeError(.invalidParams, "capabilities is a request: give it an id to answer",
                                    details: [["instanceLocation": "", "keyword": "required", "error": "id is required"]]))
        }
        guard message["payload"]?.objectValue?.isEmpty == true else {
            return fail(BridgeError(.invalidParams, "capabilities takes an empty payload",
                                    details: [["instanceLocation": "/payload", "keyword": "maxProperties", "error": "expected {}"]]))
        }
        return BridgeReply(id: id, outcome: .success(.capabilities(capabilities)))
    }

    /// UNSUPPORTED_VERSION naming the versions this host takes (`supportedVersions` in details).
    static func unsupported(action: String, version: Int, supported: [Int]) -> BridgeError {
        BridgeError(.unsupportedVersion,
            "\(action) has no version \(version) here (supported versions: \(supported.map(String.init).joined(separator: ", ")))",
            details: [["action": .string(action), "supportedVersions": .array(supported.map { .integer(Int64($0)) })]])
    }
}
