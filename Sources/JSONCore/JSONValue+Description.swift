/// JSON values print as compact JSON text (`{"action":"apply","version":1}`), in logs, string
/// interpolation and test failures, instead of a Swift dump of the enum (`object(JSONCore.JSONObject(...))`).
extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }
}

extension JSONObject: CustomStringConvertible {
    public var description: String { JSONValue.object(self).serialized() }
}
