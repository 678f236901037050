import Foundation

/// The cores this process may use, asked once. Foundation's `ProcessInfo.activeProcessorCount` reads the
/// system's cgroup and affinity settings on every call (eight system calls, about 20 µs on Linux): asked for
/// each of a large map's 100,000 expressions, or for each array of each of thousands of small maps, it cost
/// seconds.
public enum ProcessorCount {
    public static let active = ProcessInfo.processInfo.activeProcessorCount
}
