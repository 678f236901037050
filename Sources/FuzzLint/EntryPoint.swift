// Two builds of one harness (see Benchmarks/README.md):
// - the fuzz build (`-D FUZZING -sanitize=fuzzer,address`, made by Benchmarks/fuzz.sh) exports libFuzzer's
//   `LLVMFuzzerTestOneInput`, and libFuzzer supplies `main`;
// - the normal build is a small driver that runs the same harness over the files it is given, to replay a
//   saved crash input under a debugger or without sanitizers: `swift run FuzzLint Benchmarks/fuzz/crashes/*`.

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

/// libFuzzer's own driver (what its `main` calls), reached through its public entry point.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links every executable on Linux with `--defsym main=<Module>_main` (so that tests can import
/// executables), which leaves libFuzzer's `main` unused and needs this symbol: it does what that `main` does.
@_cdecl("FuzzLint_main")
public func fuzzLintMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzz)
}

#else

import Foundation

@main
struct FuzzLintDriver {
    static func main() {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty || paths.contains("--help") || paths.contains("-h") {
            print("usage: FuzzLint FILE...   run the fuzz harness (parse + lint as a map and as a pop-up) over each file")
            exit(paths.isEmpty ? 2 : 0)
        }
        FuzzHarness.prepare()
        var failed = false
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("FuzzLint: cannot read \(path)\n".utf8))
                failed = true
                continue
            }
            let reports = FuzzHarness.run([UInt8](data))
            // One report per linter: as a map, then with the fixed pop-up layer (`--layer`).
            let summary = zip(["as given", "with --layer"], reports)
                .map { "\($0): \($1.kind), \($1.diagnostics.count) diagnostics" }
                .joined(separator: "; ")
            print("\(path) (\(data.count) bytes): \(summary)")
        }
        exit(failed ? 2 : 0)
    }
}

#endif
