/// Runs an async/await `NavigationHost` for the navigator: each asynchronous step in a main-actor
/// task whose result becomes the step's completion. It keeps what `attachList` and
/// `resolveDetail` returned until `show` (or a cancellation) needs or drops it, and cancels the
/// running task when the navigator gives up on a destination.
///
/// The navigator runs one navigation at a time, so one slot holds what was made for it. The host's
/// `Stack` and `Detail` are kept inside closures rather than in generic containers: this class is
/// generic over the host, and every use of a container of `Host.Stack` would look its type up at
/// run time, several times per navigation.
///
/// A step's task starts immediately, on the caller's main-actor turn, and runs until the step
/// really suspends: a tab that is already selected or a detail already cached completes before
/// the navigator's call returns, with no hop through the executor's queue. So a message whose
/// steps need not wait is answered within `BridgeHost.receive`, and one that must wait costs one
/// task switch when it resumes.
///
/// The navigator keeps its adapter alive; the adapter holds the app's host weakly (the app's
/// coordinator usually owns the navigator). A step's task holds the adapter only while it runs
/// (a weak reference would cost atomic operations at every step for nothing: the adapter that
/// started a step is there to take its result).
@MainActor
public final class AsyncNavigationHostAdapter<Host: NavigationHost>: CallbackNavigationHost {
    public var host: Host? { hostReference }
    /// Private, so the optimizer reads it without a run-time exclusivity check.
    private weak var hostReference: Host?
    /// The navigation between `attachList` and `show`, and its next step over what the host made.
    private var prepared: (id: EnvelopeID, next: PreparedStep)?
    private var tasks: [EnvelopeID: Task<Void, Never>] = [:]

    /// Each step is handed the host when it runs (the adapter's one weak reference, read then),
    /// so the closures hold only what the host made: no weak reference of their own to form,
    /// read and destroy for every navigation.
    private enum PreparedStep {
        /// The list is attached: the detail is resolved in its stack (nil: there is none).
        case resolve(@MainActor (Host, NavigationDestination) async throws(NavigationStepError) -> Show?)
        /// The detail is resolved: it is shown in the stack.
        case show(Show)
    }
    private typealias Show = @MainActor (Host, NavigationDestination) throws(NavigationStepError) -> Void
    /// The step being started, and whether its task already finished before `start` returned.
    private var starting: EnvelopeID?
    private var finishedWhileStarting = false

    public init(_ host: Host) {
        hostReference = host
    }

    /// Steps running in tasks right now (at most one: the navigator runs one step at a time).
    public var runningTaskCount: Int { tasks.count }

    private static var gone: NavigationStepError { NavigationStepError("the navigation host is gone") }

    public func selectTab(for destination: NavigationDestination,
                          completion: @escaping @MainActor (Result<Void, NavigationStepError>) -> Void) {
        guard let host else { return completion(.failure(Self.gone)) }
        let id = destination.envelopeID
        start(id) { @MainActor [self] in
            let result: Result<Void, NavigationStepError>
            do throws(NavigationStepError) {
                try await host.selectTab(for: destination)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            finished(id)
            completion(result)
        }
    }

    public func attachList(for destination: NavigationDestination) throws(NavigationStepError) {
        guard let host else { throw Self.gone }
        let stack = try host.attachList(for: destination)
        prepared = (destination.envelopeID, .resolve { host, destination throws(NavigationStepError) in
            guard let detail = try await host.resolveDetail(for: destination, in: stack) else { return nil }
            return { host, destination throws(NavigationStepError) in
                try host.show(detail, in: stack, for: destination)
            }
        })
    }

    public func resolveDetail(for destination: NavigationDestination, completion: @escaping @MainActor (DetailResolution) -> Void) {
        let id = destination.envelopeID
        guard let host, let prepared, prepared.id == id, case .resolve(let resolve) = prepared.next else {
            forget(id)
            return completion(.failed(host == nil ? Self.gone : NavigationStepError("no stack was attached for \(id)")))
        }
        start(id) { @MainActor [self] in
            let resolution: DetailResolution
            do throws(NavigationStepError) {
                if let show = try await resolve(host, destination) {
                    // A cancelled navigation keeps nothing (its completion is ignored anyway).
                    if !Task.isCancelled, self.prepared?.id == id { self.prepared = (id, .show(show)) }
                    resolution = .found
                } else {
                    resolution = .notFound
                }
            } catch {
                resolution = .failed(error)
            }
            finished(id)
            if resolution != .found || Task.isCancelled { forget(id) }
            completion(resolution)
        }
    }

    public func show(for destination: NavigationDestination) throws(NavigationStepError) {
        let id = destination.envelopeID
        defer { forget(id) }
        guard let host else { throw Self.gone }
        guard let prepared, prepared.id == id, case .show(let show) = prepared.next else {
            throw NavigationStepError("\(id) has no resolved detail to show")
        }
        try show(host, destination)
    }

    public func presentLogin() {
        host?.presentLogin()
    }

    public func cancelSteps(for destination: NavigationDestination) {
        tasks.removeValue(forKey: destination.envelopeID)?.cancel()
        forget(destination.envelopeID)
    }

    /// The step's task for `id`, begun at once on this turn of the main actor; it is kept (for
    /// `cancelSteps`) only when it suspended, since one that finished has nothing left to cancel.
    private func start(_ id: EnvelopeID, _ step: sending @escaping @isolated(any) () async -> Void) {
        let outer = (starting, finishedWhileStarting)
        defer { (starting, finishedWhileStarting) = outer }
        starting = id
        finishedWhileStarting = false
        let task: Task<Void, Never>
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            task = Task.immediate(operation: step)
        } else {
            task = Task(operation: step)
        }
        if !finishedWhileStarting { tasks[id] = task }
    }

    private func finished(_ id: EnvelopeID) {
        if starting == id { finishedWhileStarting = true }
        if !tasks.isEmpty { tasks[id] = nil }  // a step that never suspended was never kept
    }

    private func forget(_ id: EnvelopeID) {
        if prepared?.id == id { prepared = nil }
    }
}
