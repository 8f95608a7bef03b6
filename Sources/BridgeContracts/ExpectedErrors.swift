import JSONCore

extension Fixture.ExpectedError {
    /// Whether one of a checker's output units names this error: the same `instanceLocation`, and
    /// the same `keyword` when the fixture gives one.
    public func isReported(in details: [JSONValue]) -> Bool {
        details.contains { detail in
            detail["instanceLocation"]?.stringValue == instanceLocation
                && (keyword == nil || detail["keyword"]?.stringValue == keyword)
        }
    }
}

extension [Fixture.ExpectedError] {
    /// One line for each expected error that `details` does not report, with the details shown so
    /// the reader sees what was reported instead.
    public func unreported(in details: [JSONValue]) -> [String] {
        filter { !$0.isReported(in: details) }.map { wanted in
            "expected an error at \"\(wanted.instanceLocation)\"\(wanted.keyword.map { " (keyword \($0))" } ?? ""); details: \(JSONValue.array(details).serialized())"
        }
    }
}
