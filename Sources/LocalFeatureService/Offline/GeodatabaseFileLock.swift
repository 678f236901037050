import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Runtime

/// One command at a time on an offline geodatabase: an exclusive advisory lock (`flock`) on a `.lock` file
/// beside it, taken without waiting. The kernel drops it when the process ends, killed or not, so a
/// crashed command never leaves the file locked. (Written here: no package of this machine's copy offers
/// file locks, and SQLite's own locks are per transaction, not per command.)
public final class GeodatabaseFileLock: @unchecked Sendable {
    private var descriptor: Int32
    public let path: String

    /// Takes the lock of the geodatabase at `path`, or throws `runtime/in-use` when another command holds it.
    /// The lock file of the geodatabase at `geodatabase`.
    static func lockPath(for geodatabase: String) -> String { geodatabase + ".lock" }

    public init(geodatabase path: String) throws {
        self.path = Self.lockPath(for: path)
        descriptor = open(self.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RuntimeError(RuntimeError.Identifier.serviceError, "Cannot open the lock file '\(self.path)': \(String(cString: strerror(errno))).")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            close(descriptor)
            descriptor = -1
            throw RuntimeError(RuntimeError.Identifier.inUse, "The geodatabase '\(path)' is in use by another command; try again when it has finished.")
        }
    }

    /// Releases the lock (also done when the value goes away).
    public func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
