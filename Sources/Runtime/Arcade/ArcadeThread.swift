import Dispatch
import Foundation

/// Arcade evaluates synchronously; the runtime reads its service asynchronously. An evaluation that may read
/// FeatureSets therefore runs on a thread of its own (never one of the cooperative pool's few threads), where
/// each read waits for async work done on the pool. Blocking a pool thread instead could starve the very task
/// it waits for (two cores: two pool threads).
enum ArcadeThread {
    /// Evaluator recursion (user functions to depth 256, nested expressions) needs more than a secondary
    /// thread's default stack.
    static let stackSize = 16 << 20

    /// Runs `body` on a new thread and returns its result.
    static func run<T>(_ body: @escaping () -> T) async -> T {
        let box = UncheckedBox(body)
        return await withCheckedContinuation { (continuation: CheckedContinuation<UncheckedBox<T>, Never>) in
            let thread = Thread {
                continuation.resume(returning: UncheckedBox(box.value()))
            }
            thread.stackSize = stackSize
            thread.start()
        }.value
    }

    /// On such a thread: the result of `operation`, run on the pool.
    static func wait<T>(_ operation: @escaping () async throws -> T) throws -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let result = UncheckedBox<Result<T, Error>?>(nil)
        let work = UncheckedBox(operation)
        Task {
            do { result.value = .success(try await work.value()) } catch { result.value = .failure(error) }
            semaphore.signal()
        }
        semaphore.wait()
        return try result.value!.get()
    }
}

/// Carries a value between the evaluation thread and the pool; the semaphore orders the accesses.
final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
