import Foundation
import FeatureServiceModel
import Runtime
import Service
import WebMap

/// Long offline work (generating a geodatabase) as a job: progress from 0 to 1 while it runs, `cancel()`,
/// and `result()` (which throws `CancellationError` after a cancel). The work starts at once.
public final class OfflineJob<Output: Sendable>: Sendable {
    private let task: Task<Output, any Error>
    /// Progress values in order, the last one 1 on success; finishes when the job ends.
    public let progress: AsyncStream<Double>

    init(_ work: @escaping @Sendable (@escaping @Sendable (Double) -> Void) async throws -> Output) {
        let (stream, continuation) = AsyncStream<Double>.makeStream(bufferingPolicy: .bufferingNewest(64))
        progress = stream
        task = Task {
            defer { continuation.finish() }
            return try await work { value in continuation.yield(min(1, max(0, value))) }
        }
    }

    /// Stops the work; what it made so far is removed (no partial file, no replica left registered).
    public func cancel() { task.cancel() }

    /// The job's output, once it has finished.
    public func result() async throws -> Output { try await task.value }
}
