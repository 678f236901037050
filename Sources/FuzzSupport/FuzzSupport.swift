import Foundation

// What every libFuzzer harness of the package shares (FuzzLint, FuzzArcade, FuzzRegex, FuzzGlob). Each harness is
// built twice (Benchmarks/README.md, "fuzz.sh"):
// - the fuzz build (`-D FUZZING -sanitize=fuzzer,address`) exports libFuzzer's `LLVMFuzzerTestOneInput` and a
//   `<Module>_main` that runs libFuzzer's driver (`FuzzDriver.runLibFuzzer`): SwiftPM links every executable on
//   Linux with `--defsym main=<Module>_main`, which leaves libFuzzer's own `main` unused;
// - the normal build replays saved inputs (`FuzzDriver.replay`): `swift run FuzzArcade Benchmarks/fuzz/...`.

#if FUZZING
/// libFuzzer's own driver (what its `main` calls), reached through its public entry point. Present only in the
/// fuzz build, which links libFuzzer.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt
#endif

public enum FuzzDriver {
    #if FUZZING
    /// Does what libFuzzer's `main` does, with `callback` as `LLVMFuzzerTestOneInput` (fuzz build only).
    public static func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt {
        var argc = argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
        return LLVMFuzzerRunDriver(&argc, &argv, callback)
    }
    #endif

    /// The normal build's driver: runs `harness` over each file named on the command line and prints what it
    /// answered; exit 2 when a file cannot be read or none is named.
    public static func replay(name: String, usage: String, _ harness: ([UInt8]) -> String) -> Never {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty || paths.contains("--help") || paths.contains("-h") {
            print("usage: \(name) FILE...   \(usage)")
            exit(paths.isEmpty ? 2 : 0)
        }
        var failed = false
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("\(name): cannot read \(path)\n".utf8))
                failed = true
                continue
            }
            print("\(path) (\(data.count) bytes): \(harness([UInt8](data)))")
        }
        exit(failed ? 2 : 0)
    }
}
