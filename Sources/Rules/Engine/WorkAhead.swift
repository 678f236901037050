import Foundation

/// Work over many independent items begun on a thread of its own before anyone needs it, so that a second
/// core does it while the rules run one after another on the first. Whoever then asks for the results joins in:
/// it takes the chunks not yet begun, and waits only for the ones in progress. The results are in item order,
/// the array a serial `map` makes.
///
/// A large map's distinct Arcade texts are read this way (``ArcadeExpression/startReadingTexts(in:)``): their
/// references, syntax errors and analysis are ready when the first arcade/ rule asks, instead of being made then
/// while the other core is busy with the schema validation.
///
/// The transform must touch nothing another item's transform writes, nor anything the rules write meanwhile.
final class WorkAhead<Result>: @unchecked Sendable {
    private let count: Int
    private let chunks: Int
    private let transform: (Int) -> Result
    /// The results, each written once by the thread that ran its chunk; read after every chunk is done.
    private let slots: UnsafeMutablePointer<Result>
    private let lock = NSLock()
    /// Under `lock`: the next chunk nobody has begun, and how many are done.
    private var nextChunk = 0
    private var doneChunks = 0
    private let allDone = DispatchSemaphore(value: 0)

    /// Begins `transform(0)`, ..., `transform(count - 1)` on a new thread; with `startsThread` false, on no
    /// thread until the caller's own (already a second one) calls ``work()`` or someone asks for the results.
    init(count: Int, startsThread: Bool = true, _ transform: @escaping (Int) -> Result) {
        self.count = count
        // Small chunks: the caller that joins in late should find some left.
        chunks = max(1, min(count, 256))
        self.transform = transform
        slots = .allocate(capacity: max(count, 1))
        if count == 0 {
            allDone.signal()
            return
        }
        guard startsThread else { return }
        let thread = Thread { [self] in runChunks() }
        thread.stackSize = 16 << 20
        thread.start()
    }

    deinit {
        // Only reached once every chunk is done: the thread holds `self` until then.
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// The results in item order: runs the chunks not yet begun on the calling thread, then waits for the rest.
    func results() -> [Result] {
        runChunks()
        allDone.wait()
        allDone.signal()
        return Array(UnsafeBufferPointer(start: slots, count: count))
    }

    /// Runs the chunks nobody has begun on the calling thread (the work of the thread the work began on).
    func work() { runChunks() }

    private func runChunks() {
        while let chunk = claimChunk() {
            for index in (count * chunk / chunks)..<(count * (chunk + 1) / chunks) {
                (slots + index).initialize(to: transform(index))
            }
            lock.lock()
            doneChunks += 1
            let finished = doneChunks == chunks
            lock.unlock()
            if finished { allDone.signal() }
        }
    }

    private func claimChunk() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextChunk < chunks else { return nil }
        nextChunk += 1
        return nextChunk - 1
    }
}
