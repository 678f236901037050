#if canImport(Glibc)
import Glibc
#endif

/// How the process's heap grows while a large map is linted. glibc gives each thread but the main one a heap
/// of 64 MB reserved address space that it makes usable a page at a time, one `mprotect` call each; the tree of
/// a 117 MB map (1.2 GB) made some 300,000 of them, a sixth of its lint. With a top pad of 64 MB, each new heap
/// is made usable whole when it is created (and the main heap grows by 64 MB at a time).
enum HeapGrowth {
    /// `M_TOP_PAD` of glibc's `<malloc.h>`.
    private static let topPadOption: Int32 = -2

    /// Sets glibc's top pad to 64 MB (`mallopt(M_TOP_PAD, …)`, looked up at run time: Swift's Glibc module
    /// does not declare it). Nothing happens on another C library, or when the function cannot be found
    /// (a static binary): the heap then grows as before, only more slowly.
    static func growInLargeSteps() {
        #if canImport(Glibc)
        typealias MallocOption = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return }
        _ = unsafeBitCast(symbol, to: MallocOption.self)(topPadOption, 64 << 20)
        #endif
    }
}
