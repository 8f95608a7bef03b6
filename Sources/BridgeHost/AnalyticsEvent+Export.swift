import JSONCore

/// Handing an event to the app's analytics SDK: `Analytics.logEvent(event.name, parameters:
/// event.anyProperties)` and the like. Null properties are left out (see `JSONObject.anyDictionary`).
extension AnalyticsEvent: CustomStringConvertible {
    /// `event_webview_cta_clicked {"action":"apply","version":1,...}`: the name, then the properties
    /// as compact JSON in their order (event fields first, then the campaign's).
    public var description: String { name + " " + properties.description }

    /// The properties as `[String: any Sendable]`: strings, Bools, Ints, Doubles, nested arrays and
    /// dictionaries.
    public var sendableProperties: [String: any Sendable] { properties.sendableDictionary() }

    /// The properties as `[String: Any]`, the type most analytics SDKs take.
    public var anyProperties: [String: Any] { properties.anyDictionary() }
}
