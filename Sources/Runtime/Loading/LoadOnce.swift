/// docs/runtime.md "Loading": an object that needs the network loads once. `load` is idempotent (a loaded value is
/// answered again), concurrent callers share one attempt, a failed attempt can be retried (the next `load`
/// starts a new one), and an attempt in progress can be cancelled (its callers get the cancellation error,
/// the next `load` starts afresh).
/// Where loading stands.
public enum LoadStatus: Sendable, Equatable {
    case notLoaded, loading, loaded, failed
}

public actor LoadOnce<Value: Sendable> {
    public typealias Status = LoadStatus

    private enum State {
        case notLoaded
        case loading(Task<Value, any Error>, attempt: Int)
        case loaded(Value)
        case failed(any Error)
    }

    private var state: State = .notLoaded
    private var attempts = 0
    private let work: @Sendable () async throws -> Value

    public init(_ work: @escaping @Sendable () async throws -> Value) { self.work = work }

    public var status: Status {
        switch state {
        case .notLoaded: return .notLoaded
        case .loading: return .loading
        case .loaded: return .loaded
        case .failed: return .failed
        }
    }

    /// How many attempts were started (one for any number of concurrent callers).
    public var attemptCount: Int { attempts }

    /// The loaded value, nil before a load succeeded.
    public var value: Value? { if case .loaded(let value) = state { return value } else { return nil } }

    /// The error of the last failed attempt.
    public var loadError: (any Error)? { if case .failed(let error) = state { return error } else { return nil } }

    /// Loads, or waits for the attempt in progress, or answers the loaded value.
    public func load() async throws -> Value {
        switch state {
        case .loaded(let value):
            return value
        case .loading(let task, let attempt):
            return try await finish(task, attempt: attempt)
        case .notLoaded, .failed:
            attempts += 1
            let work = self.work
            let task = Task { try await work() }
            state = .loading(task, attempt: attempts)
            return try await finish(task, attempt: attempts)
        }
    }

    /// Cancels the attempt in progress; its callers get a cancellation error and the next `load` starts anew.
    public func cancelLoad() {
        guard case .loading(let task, _) = state else { return }
        task.cancel()
        state = .failed(CancellationError())
    }

    private func finish(_ task: Task<Value, any Error>, attempt: Int) async throws -> Value {
        do {
            let value = try await task.value
            if case .loading(_, let current) = state, current == attempt { state = .loaded(value) }
            return value
        } catch {
            if case .loading(_, let current) = state, current == attempt { state = .failed(error) }
            throw error
        }
    }
}
