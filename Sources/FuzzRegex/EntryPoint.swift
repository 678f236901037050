// Two builds of one harness, as Sources/FuzzLint and Sources/FuzzArcade:
// - the fuzz build (`-D FUZZING -sanitize=fuzzer,address`, made by Benchmarks/fuzz-engines.sh regex) exports libFuzzer's
//   `LLVMFuzzerTestOneInput`, and libFuzzer supplies `main`;
// - the normal build replays inputs: `swift run FuzzRegex Benchmarks/fuzz/regex-crashes/*`.

#if FUZZING

/// libFuzzer's entry point: one input per call; must not crash or hang, whatever the bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = RegexFuzzHarness.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}

/// libFuzzer's own driver (what its `main` calls), reached through its public entry point.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// SwiftPM links executables with `--defsym main=<Module>_main`: this does what libFuzzer's `main` does.
@_cdecl("FuzzRegex_main")
public func fuzzRegexMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    var argc = argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzz)
}

#else

import Foundation

@main
struct FuzzRegexDriver {
    static func main() {
        let paths = CommandLine.arguments.dropFirst()
        if paths.isEmpty || paths.contains("--help") || paths.contains("-h") {
            print("usage: FuzzRegex FILE...   match each file (pattern, a line feed, then the text) with the JSON Schema pattern engine")
            exit(paths.isEmpty ? 2 : 0)
        }
        var failed = false
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("FuzzRegex: cannot read \(path)\n".utf8))
                failed = true
                continue
            }
            print("\(path) (\(data.count) bytes): \(RegexFuzzHarness.run([UInt8](data)))")
        }
        exit(failed ? 2 : 0)
    }
}

#endif
