/// How much of what it records a `MockBridgeHost` keeps in its lists: `records` and `recordTimes`,
/// `navigations`, `analyticsEvents`, `replies`, `campaignConflicts`, `customRequests`,
/// `customActionFailures`. Every record is handed to
/// `onRecord` and counted in `recordCount` whatever the retention.
///
/// A test reads the lists, so the default keeps everything. A long session (`bridgectl host
/// --stdio` driving a real WebView or a soak of a page) must not grow with the number of messages:
/// `streaming` keeps nothing once `onRecord` has seen a record, and a bounded host also gives its
/// navigator the navigator's own audit-log capacity (1024) instead of the 100,000 entries a test
/// host gets.
public enum MockRecordRetention: Sendable, Equatable {
    /// Everything, for the life of the host (the default; for tests that read the lists).
    case all
    /// The newest `n` of each list: at `n` nothing goes, one more and the oldest goes. Meant for
    /// a small `n` (each append past it moves the list).
    case latest(Int)

    /// Nothing is kept: each record goes to `onRecord` and is released (`bridgectl host --stdio`).
    public static let streaming = MockRecordRetention.latest(0)

    /// The most each list holds; nil for no limit.
    var limit: Int? {
        switch self {
        case .all: return nil
        case .latest(let count): return max(0, count)
        }
    }
}

extension Array {
    /// Appends, then lets the oldest elements go until at most `limit` remain (nil: no limit).
    mutating func append(_ element: Element, keepingAtMost limit: Int?) {
        guard let limit else { return append(element) }
        guard limit > 0 else { return }
        append(element)
        if count > limit { removeFirst(count - limit) }
    }
}
