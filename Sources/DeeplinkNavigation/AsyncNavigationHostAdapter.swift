/// Runs an async/await `NavigationHost` for the navigator: each asynchronous step in a main-actor
/// task whose result becomes the step's completion. It keeps what `attachList` and
/// `resolveDetail` returned until `show` (or a cancellation) needs or drops it, and cancels the
/// running task when the navigator gives up on a destination.
///
/// The navigator keeps its adapter alive; the adapter holds the app's host weakly (the app's
/// coordinator usually owns the navigator).
@MainActor
public final class AsyncNavigationHostAdapter<Host: NavigationHost>: CallbackNavigationHost {
    public private(set) weak var host: Host?
    private var stacks: [EnvelopeID: Host.Stack] = [:]
    private var details: [EnvelopeID: Host.Detail] = [:]
    private var tasks: [EnvelopeID: Task<Void, Never>] = [:]

    public init(_ host: Host) {
        self.host = host
    }

    /// Steps running in tasks right now (at most one: the navigator runs one step at a time).
    public var runningTaskCount: Int { tasks.count }

    private static var gone: NavigationStepError { NavigationStepError("the navigation host is gone") }

    public func selectTab(for destination: NavigationDestination,
                          completion: @escaping @MainActor (Result<Void, NavigationStepError>) -> Void) {
        guard let host else { return completion(.failure(Self.gone)) }
        let id = destination.envelopeID
        tasks[id] = Task { [weak self] in
            let result: Result<Void, NavigationStepError>
            do throws(NavigationStepError) {
                try await host.selectTab(for: destination)
                result = .success(())
            } catch {
                result = .failure(error)
            }
            self?.tasks[id] = nil
            completion(result)
        }
    }

    public func attachList(for destination: NavigationDestination) throws(NavigationStepError) {
        guard let host else { throw Self.gone }
        stacks[destination.envelopeID] = try host.attachList(for: destination)
    }

    public func resolveDetail(for destination: NavigationDestination, completion: @escaping @MainActor (DetailResolution) -> Void) {
        let id = destination.envelopeID
        guard let host, let stack = stacks[id] else {
            forget(id)
            return completion(.failed(host == nil ? Self.gone : NavigationStepError("no stack was attached for \(id)")))
        }
        tasks[id] = Task { [weak self] in
            let resolution: DetailResolution
            do throws(NavigationStepError) {
                if let detail = try await host.resolveDetail(for: destination, in: stack) {
                    // A cancelled navigation keeps nothing (its completion is ignored anyway).
                    if !Task.isCancelled { self?.details[id] = detail }
                    resolution = .found
                } else {
                    resolution = .notFound
                }
            } catch {
                resolution = .failed(error)
            }
            self?.tasks[id] = nil
            if resolution != .found || Task.isCancelled { self?.forget(id) }
            completion(resolution)
        }
    }

    public func show(for destination: NavigationDestination) throws(NavigationStepError) {
        let id = destination.envelopeID
        defer { forget(id) }
        guard let host else { throw Self.gone }
        guard let stack = stacks[id], let detail = details[id] else {
            throw NavigationStepError("\(id) has no resolved detail to show")
        }
        try host.show(detail, in: stack, for: destination)
    }

    public func presentLogin() {
        host?.presentLogin()
    }

    public func cancelSteps(for destination: NavigationDestination) {
        tasks.removeValue(forKey: destination.envelopeID)?.cancel()
        forget(destination.envelopeID)
    }

    private func forget(_ id: EnvelopeID) {
        stacks[id] = nil
        details[id] = nil
    }
}
