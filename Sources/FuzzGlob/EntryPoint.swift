import FuzzSupport

// Two builds of one harness (FuzzSupport says how): the fuzz build, made by Benchmarks/fuzz-engines.sh glob, and the
// replay driver: `swift run FuzzGlob FILE...`.

#if FUZZING

/// libFuzzer's entry point: one input per call; must not crash or hang, whatever the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = GlobFuzzHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("FuzzGlob_main")
public func fuzzGlobMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.runLibFuzzer(argc, argv, fuzz)
}

#else

@main
struct FuzzGlobDriver {
    static func main() {
        FuzzDriver.replay(name: "FuzzGlob", usage: "match each file (glob, a line feed, then the path) with the configuration glob matcher") { bytes in "\(GlobFuzzHarness.run(bytes))" }
    }
}

#endif
