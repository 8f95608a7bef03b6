/// Holds work until the app can navigate (cold start), then runs it in arrival order.
///
/// Any number of callbacks may wait (a single slot loses routes when two arrive before ready, the
/// coordinator seed's lesson). Work registered while the gate is draining is appended behind the
/// waiting work rather than run at once, so arrival order holds even when a callback triggers
/// another navigation.
public struct ReadyGate {
    public private(set) var isOpen: Bool
    private var waiting: [() -> Void] = []
    private var draining = false

    public init(isOpen: Bool) {
        self.isOpen = isOpen
    }

    public var waitingCount: Int { waiting.count }

    /// Closes the gate (a cold start). Waiting work stays waiting.
    public mutating func close() {
        isOpen = false
    }

    /// Whether `work` must be queued instead of run now.
    public var mustQueue: Bool { !isOpen || draining || !waiting.isEmpty }

    public mutating func enqueue(_ work: @escaping () -> Void) {
        waiting.append(work)
    }

    /// Opens the gate and hands back the next piece of work, one at a time, so the owner can run
    /// each outside any exclusive access to the gate itself.
    mutating func beginDraining() -> Bool {
        isOpen = true
        guard !draining else { return false }
        draining = true
        return true
    }

    mutating func next() -> (() -> Void)? {
        guard isOpen, !waiting.isEmpty else {
            draining = false
            return nil
        }
        return waiting.removeFirst()
    }
}
