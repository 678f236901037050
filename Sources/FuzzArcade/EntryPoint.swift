import FuzzSupport

// Two builds of one harness (FuzzSupport says how): the fuzz build, made by Benchmarks/fuzz-arcade.sh, and the
// replay driver: `swift run FuzzArcade FILE...`.

#if FUZZING

/// libFuzzer's entry point: one input per call; must not crash or hang, whatever the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = ArcadeFuzzHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("FuzzArcade_main")
public func fuzzArcadeMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.runLibFuzzer(argc, argv, fuzz)
}

#else

@main
struct FuzzArcadeDriver {
    static func main() {
        FuzzDriver.replay(name: "FuzzArcade", usage: "parse, analyse and evaluate each file as an Arcade expression") { bytes in ArcadeFuzzHarness.run(bytes) }
    }
}

#endif
