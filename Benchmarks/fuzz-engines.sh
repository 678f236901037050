#!/usr/bin/env bash
# Fuzzes the two matching engines that hostile input reaches with libFuzzer (issue 31): `regex` is JSON
# Schema's `pattern` / `patternProperties` engine (Sources/FuzzRegex: ICU under a step budget; input = pattern,
# a line feed, then the text), `glob` the `.maprules.json` override glob matcher (Sources/FuzzGlob; input =
# glob, a line feed, then the path; checked against the backtracking definition where that is cheap). A crash,
# sanitizer report or timeout (-timeout=10: a match the budget does not bound) stops the run, saves the input
# under Benchmarks/fuzz/ENGINE-crashes/ and fails the script.
#
#   Benchmarks/fuzz-engines.sh regex                    # build, seed, fuzz for 60 s
#   FUZZ_SECONDS=600 Benchmarks/fuzz-engines.sh glob    # longer; extra arguments go to libFuzzer as they are
#
# Environment: FUZZ_SECONDS (default 60), FUZZ_MAX_LEN (default 4096), FUZZ_CONFIG debug|release (default debug),
#   FUZZ_CORPUS (the growing corpus, default .build-fuzz/ENGINE-corpus).
# Seeds: Benchmarks/fuzz/ENGINE-seeds/.
# Exit: 0 no crash; 1 a crash (its input's path is printed); 2 could not build or run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
case "${1:-}" in
    -h|--help|"") sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; [[ -n "${1:-}" ]]; exit $? ;;
    regex) product=FuzzRegex ;;
    glob) product=FuzzGlob ;;
    *) printf 'fuzz-engines.sh: unknown engine %s (regex or glob)\n' "$1" >&2; exit 2 ;;
esac
engine="$1"
shift
seconds="${FUZZ_SECONDS:-60}"
max_len="${FUZZ_MAX_LEN:-4096}"
config="${FUZZ_CONFIG:-debug}"
scratch=".build-fuzz"
corpus="${FUZZ_CORPUS:-$scratch/$engine-corpus}"
seeds="Benchmarks/fuzz/$engine-seeds"
crashes="Benchmarks/fuzz/$engine-crashes"
log="$scratch/fuzz-$engine.log"

say() { printf 'fuzz-engines.sh %s: %s\n' "$engine" "$*" >&2; }
die() { say "$*"; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] || die "FUZZ_SECONDS must be a whole number of seconds, got '$seconds'"
[[ "$config" == debug || "$config" == release ]] || die "FUZZ_CONFIG must be debug or release, got '$config'"

# 1. Build (as Benchmarks/fuzz.sh: `--defsym main=<Product>_main` calls libFuzzer's driver under -D FUZZING).
say "building $product ($config, -sanitize=fuzzer,address) in $scratch ..."
mkdir -p "$scratch"
if ! swift build -c "$config" --scratch-path "$scratch" --product "$product" -j 2 \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING > "$scratch/build-$engine.log" 2>&1; then
    grep -v 'Cannot export local symbol' "$scratch/build-$engine.log" | tail -40 >&2
    die "build failed (full log: $scratch/build-$engine.log)"
fi
binary="$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)/$product"
[[ -x "$binary" ]] || die "no fuzzer binary at $binary"
mkdir -p "$corpus" "$crashes"
say "seeds: $(find "$seeds" -type f | wc -l) files; corpus: $(find "$corpus" -type f | wc -l) files"

# 2. Fuzz. -detect_leaks=0: compiled schemas and ICU's caches live for the process.
marker="$(mktemp)"
trap 'rm -f "$marker"' EXIT
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"
set +e
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -max_len="$max_len" \
    -artifact_prefix="$crashes/" -print_final_stats=1 "$@" "$corpus" "$seeds" > "$log" 2>&1
status=$?
set -e
grep -Eo '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 >&2 || true
mapfile -t found < <(find "$crashes" -type f -newer "$marker" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
if (( status != 0 )) || (( ${#found[@]} > 0 )); then
    say "FAILED: libFuzzer exited with $status"
    for input in "${found[@]}"; do say "crash input: $input (replay: swift run $product $input)"; done
    grep -m1 -A25 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer)' "$log" >&2 || say "see $log"
    exit 1
fi
say "OK: no crash in ${seconds}s"
