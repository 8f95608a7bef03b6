/// JSON values as plain Swift values, for APIs that take `[String: Any]` or `[String: any Sendable]`
/// (analytics SDKs, logging): a string is a `String`, a boolean a `Bool`, an integer an `Int`
/// (an `Int64` where it does not fit), a real a `Double`, an array an array, an object a dictionary.
///
/// JSON `null` has no counterpart in those property types (an SDK drops or rejects it), so by
/// default a null member or item is left out; pass `representingNullAs:` (e.g. `NSNull()` on Apple
/// platforms) to keep it.
extension JSONValue {
    /// The Swift value; nil for `null`.
    public var sendableValue: (any Sendable)? { sendableValue(representingNullAs: nil) }

    public func sendableValue(representingNullAs null: (any Sendable)?) -> (any Sendable)? {
        switch self {
        case .null: return null
        case .bool(let flag): return flag
        case .integer(let number): return Int(exactly: number) ?? number
        case .number(let real): return real
        case .string(let text): return text
        case .array(let items): return items.compactMap { $0.sendableValue(representingNullAs: null) }
        case .object(let object): return object.sendableDictionary(representingNullAs: null)
        }
    }

    /// The same value typed `Any`, for `[String: Any]` APIs.
    public func anyValue(representingNullAs null: Any? = nil) -> Any? {
        switch self {
        case .null: return null
        case .array(let items): return items.compactMap { $0.anyValue(representingNullAs: null) }
        case .object(let object): return object.anyDictionary(representingNullAs: null)
        default: return sendableValue(representingNullAs: nil)
        }
    }
}

extension JSONObject {
    /// Members as `[String: any Sendable]`; null members are left out unless `null` is given.
    public func sendableDictionary(representingNullAs null: (any Sendable)? = nil) -> [String: any Sendable] {
        var dictionary: [String: any Sendable] = [:]
        dictionary.reserveCapacity(count)
        for (key, value) in self {
            if let converted = value.sendableValue(representingNullAs: null) { dictionary[key] = converted }
        }
        return dictionary
    }

    /// Members as `[String: Any]`; null members are left out unless `null` is given.
    public func anyDictionary(representingNullAs null: Any? = nil) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        dictionary.reserveCapacity(count)
        for (key, value) in self {
            if let converted = value.anyValue(representingNullAs: null) { dictionary[key] = converted }
        }
        return dictionary
    }
}
