/// "Expected is a subset of actual": every member an expected object names is present and matches,
/// recursively for objects; arrays and scalars compare exactly, and 1 and 1.0 are the same number.
/// Contract fixtures and the host conformance cases judge replies and navigations this way.
public enum JSONSubset {
    /// nil when `expected` is a subset of `actual`, else where they differ (`path` and a pointer).
    public static func mismatch(expected: JSONValue, actual: JSONValue, at path: String) -> String? {
        if case .object(let wanted) = expected {
            guard case .object(let got) = actual else {
                return "\(path): expected an object, got \(actual.serialized())"
            }
            for (key, value) in wanted {
                guard let member = got[key] else { return "\(path)/\(key): missing (expected \(value.serialized()))" }
                if let mismatch = mismatch(expected: value, actual: member, at: "\(path)/\(key)") { return mismatch }
            }
            return nil
        }
        if expected == actual { return nil }
        if let left = expected.integerValue, let right = actual.integerValue, left == right { return nil }
        return "\(path): expected \(expected.serialized()), got \(actual.serialized())"
    }
}
