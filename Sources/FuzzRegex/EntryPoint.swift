import FuzzSupport

// Two builds of one harness (FuzzSupport says how): the fuzz build, made by Benchmarks/fuzz-engines.sh regex, and the
// replay driver: `swift run FuzzRegex FILE...`.

#if FUZZING

/// libFuzzer's entry point: one input per call; must not crash or hang, whatever the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = RegexFuzzHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

@_cdecl("FuzzRegex_main")
public func fuzzRegexMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.runLibFuzzer(argc, argv, fuzz)
}

#else

@main
struct FuzzRegexDriver {
    static func main() {
        FuzzDriver.replay(name: "FuzzRegex", usage: "match each file (pattern, a line feed, then the text) with the JSON Schema pattern engine") { bytes in "\(RegexFuzzHarness.run(bytes))" }
    }
}

#endif
