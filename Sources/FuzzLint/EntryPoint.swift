import FuzzSupport

// Two builds of one harness (FuzzSupport says how): the fuzz build, made by Benchmarks/fuzz.sh, and the replay
// driver, to run a saved crash input under a debugger or without sanitizers: `swift run FuzzLint FILE...`.

#if FUZZING

/// libFuzzer's entry point: one input per call; must not crash, hang or leak, whatever the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// Called once by libFuzzer before the first input.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    FuzzHarness.prepare()
    return 0
}

@_cdecl("FuzzLint_main")
public func fuzzLintMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    FuzzDriver.runLibFuzzer(argc, argv, fuzz)
}

#else

@main
struct FuzzLintDriver {
    static func main() {
        FuzzHarness.prepare()
        FuzzDriver.replay(name: "FuzzLint", usage: "run the fuzz harness (parse + lint as a map and as a pop-up) over each file") { bytes in
            // One report per linter: as a map, then with the fixed pop-up layer (`--layer`).
            zip(["as given", "with --layer"], FuzzHarness.run(bytes))
                .map { "\($0): \($1.kind), \($1.diagnostics.count) diagnostics" }
                .joined(separator: "; ")
        }
    }
}

#endif
