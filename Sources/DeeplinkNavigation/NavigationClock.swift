#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The time source of the navigator (envelope timestamps, the duplicate window). Tests inject
/// `ManualNavigationClock` so duplicate windows are exact and runs are deterministic.
public protocol NavigationClock: AnyObject {
    func now() -> Date
}

public final class SystemNavigationClock: NavigationClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that moves only when told to.
public final class ManualNavigationClock: NavigationClock {
    private var current: Date

    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    public func now() -> Date { current }

    public func advance(milliseconds: Int) {
        current = current.addingTimeInterval(Double(milliseconds) / 1000)
    }
}
