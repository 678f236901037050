#!/usr/bin/env bash
# Micro-benchmark of the libraries without the CLI, on one core, over the maps of lint-throughput.sh:
#   parse:  JSONParser.parse over every map, bytes already in memory
#   lint:   Linter.lint(path:text:isExplicit:) over every map (parse + rules + snapshot look-up), in memory
# Set beside lint-throughput.sh's (a), it splits the CLI's time into parsing, rules, and the rest (reading files,
# finding them, writing the report). The benchmark program is a throwaway SwiftPM package written to
# .build-bench/ (git-ignored) that depends on this repository by path; nothing is added to Package.swift.
#
#   Benchmarks/parser-throughput.sh           # uses Benchmarks/generated (made by lint-throughput.sh or
#                                             # generate_webmaps.py; generated here if missing)
# Environment: BENCH_RUNS (timed passes, best kept; default 3).
# Exit: 0 measured; 2 could not build or run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
runs="${BENCH_RUNS:-3}"
generated="Benchmarks/generated"
package=".build-bench/parser-bench"

say() { printf 'parser-throughput.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

case "${1:-}" in -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUNS must be a positive whole number, got '$runs'"
if ! command -v swift >/dev/null 2>&1; then
    [[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH" || die "swift not found on PATH (nor /opt/swift/usr/bin)"
fi
if ! find "$generated" -name '*.json' ! -name 'services.json' -print -quit 2>/dev/null | grep -q .; then
    command -v python3 >/dev/null 2>&1 || die "no maps in $generated and no python3 to generate them"
    say "no maps in $generated; generating them ..."
    python3 Benchmarks/generate_webmaps.py --out "$generated"
fi

# SwiftPM names a path dependency after its folder.
identity="$(basename "$repo")"
mkdir -p "$package/Sources/ParserBench"
cat > "$package/Package.swift" <<EOF
// swift-tools-version:6.0
// Written by Benchmarks/parser-throughput.sh; not part of the project.
import PackageDescription

let package = Package(
    name: "ParserBench",
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "ParserBench",
            dependencies: [.product(name: "WebMap", package: "$identity"), .product(name: "Rules", package: "$identity")]
        ),
    ],
    swiftLanguageModes: [.v5]
)
EOF
cat > "$package/Sources/ParserBench/ParserBench.swift" <<'EOF'
import Foundation
import Rules
import WebMap

/// Times JSONParser.parse and Linter.lint over every map under a folder, best of N passes; prints
/// "files bytes parse-seconds lint-seconds diagnostics".
@main
struct ParserBench {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let runs = Int(arguments[2]) else {
            FileHandle.standardError.write(Data("usage: ParserBench FOLDER RUNS\n".utf8))
            exit(2)
        }
        let root = URL(fileURLWithPath: arguments[1])
        var files: [(path: String, text: SourceText)] = []
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            let name = url.lastPathComponent
            guard name.hasSuffix(".json"), name != "services.json", !name.hasSuffix(".services.json") else { continue }
            files.append((url.path, SourceText(bytes: [UInt8](try Data(contentsOf: url)))))
        }
        files.sort { $0.path < $1.path }
        let bytes = files.reduce(0) { $0 + $1.text.bytes.count }

        func best(_ body: () throws -> Void) rethrows -> Double {
            var best = Double.infinity
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                try body()
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            return best
        }

        var parsed = 0
        let parseSeconds = try best {
            for file in files {
                let result = try JSONParser.parse(file.text)
                parsed += result.root.object?.members.count ?? 0
            }
        }
        var options = LintOptions()
        options.configuration = .default
        var diagnostics = 0
        let lintSeconds = try best {
            let linter = Linter(options: options)  // a fresh one per pass: snapshots are loaded as the CLI would
            diagnostics = 0
            for file in files {
                diagnostics += try linter.lint(path: file.path, text: file.text, isExplicit: false)?.diagnostics.count ?? 0
            }
        }
        print("\(files.count) \(bytes) \(parseSeconds) \(lintSeconds) \(diagnostics) \(parsed > 0 ? "ok" : "empty")")
    }
}
EOF

say "building the benchmark program (release) in $package ..."
if ! swift build -c release --package-path "$package" > "$package/build.log" 2>&1; then
    tail -30 "$package/build.log" >&2
    die "could not build the benchmark program (log: $package/build.log)"
fi
binary="$(swift build -c release --package-path "$package" --show-bin-path)/ParserBench"

pin=(taskset -c 0)
command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null || { say "warning: taskset unavailable; running unpinned"; pin=(); }
say "timing parse and lint over $generated, one core, best of $runs ..."
read -r count bytes parse_s lint_s diagnostics _ <<< "$("${pin[@]}" "$binary" "$generated" "$runs")"
awk -v n="$count" -v b="$bytes" -v p="$parse_s" -v l="$lint_s" -v d="$diagnostics" 'BEGIN {
    mb = b / 1e6
    printf "library throughput, one core: %d maps, %.1f MB (10^6 bytes), %d diagnostics\n", n, mb, d
    printf "%-36s %9.1f MB/s %9.1f maps/s %8.3f s\n", "JSONParser.parse (in memory)", mb / p, n / p, p
    printf "%-36s %9.1f MB/s %9.1f maps/s %8.3f s\n", "Linter.lint, parse + rules (in memory)", mb / l, n / l, l
    printf "%-36s %9.0f %%\n", "share of lint time spent parsing", 100 * p / l
}'
