#!/usr/bin/env bash
# Fuzzes the JSON parser and the linter with libFuzzer (Sources/FuzzLint): every input is parsed, then linted as
# an explicitly named map and as a standalone pop-up definition. Any crash, sanitizer report, timeout or broken
# diagnostic invariant stops the run, saves the input under Benchmarks/fuzz/crashes/ and fails the script.
#
#   Benchmarks/fuzz.sh                      # build, seed, fuzz for 60 s
#   FUZZ_SECONDS=600 Benchmarks/fuzz.sh     # longer
#   Benchmarks/fuzz.sh -runs=100000         # extra arguments go to libFuzzer as they are
#
# Environment:
#   FUZZ_SECONDS   total fuzzing time (default 60)
#   FUZZ_MAX_LEN   largest input libFuzzer makes, in bytes (default 65536; bigger seeds are cut to it)
#   FUZZ_FORK      run N fuzzing processes in parallel with -fork=N (default: 1 process, no fork)
#   FUZZ_CONFIG    debug (default: assertions on) or release (faster)
#   FUZZ_CORPUS    the growing corpus, kept between runs (default .build-fuzz/corpus)
#   SEED_MAPS      web maps to seed from (default Tests/Fixtures/corpus/webmaps, in the repository)
#
# Exit: 0 no crash; 1 a crash (its input's path is printed); 2 could not build or run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

seconds="${FUZZ_SECONDS:-60}"
max_len="${FUZZ_MAX_LEN:-65536}"
config="${FUZZ_CONFIG:-debug}"
scratch=".build-fuzz"
corpus="${FUZZ_CORPUS:-$scratch/corpus}"
seeds="$scratch/seeds"
seed_maps="${SEED_MAPS:-Tests/Fixtures/corpus/webmaps}"
crashes="Benchmarks/fuzz/crashes"
dict="Benchmarks/fuzz/json.dict"
log="$scratch/fuzz.log"

case "${1:-}" in -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac

say() { printf 'fuzz.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }

if ! command -v swift >/dev/null 2>&1; then
    [[ -x /opt/swift/usr/bin/swift ]] && export PATH="/opt/swift/usr/bin:$PATH" || die "swift not found on PATH (nor /opt/swift/usr/bin)"
fi
[[ "$seconds" =~ ^[0-9]+$ ]] || die "FUZZ_SECONDS must be a whole number of seconds, got '$seconds'"
[[ "$config" == debug || "$config" == release ]] || die "FUZZ_CONFIG must be debug or release, got '$config'"

# 1. Build. SwiftPM links executables with `--defsym main=FuzzLint_main`; under -D FUZZING the target defines
#    that symbol as a call into libFuzzer's driver (see Sources/FuzzLint/EntryPoint.swift).
say "building FuzzLint ($config, -sanitize=fuzzer,address) in $scratch ..."
build=(swift build -c "$config" --scratch-path "$scratch" --product FuzzLint
       -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING)
# ld.gold warns once per ASan helper symbol ("Cannot export local symbol"); those lines are noise.
mkdir -p "$scratch"
if ! "${build[@]}" > "$scratch/build.log" 2>&1; then
    grep -v 'Cannot export local symbol' "$scratch/build.log" | tail -40 >&2
    die "build failed (full log: $scratch/build.log)"
fi
binary="$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)/FuzzLint"
[[ -x "$binary" ]] || die "no fuzzer binary at $binary"

# 2. Seeds: the corpus of real web maps kept in Tests/Fixtures, every JSON file of the samples, and each sample layer's
#    pop-up definition on its own (so that the standalone pop-up path starts from valid inputs too).
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$crashes"
if [[ -d "$seed_maps" ]]; then
    cp "$seed_maps"/*.json "$seeds"/ 2>/dev/null || true
else
    say "note: no web maps at $seed_maps; seeding from Samples/ only"
fi
while IFS= read -r -d '' file; do
    cp "$file" "$seeds/sample-$(echo "${file#Samples/}" | tr '/' '-')"
done < <(find Samples -name '*.json' -type f -print0)
if command -v python3 >/dev/null 2>&1; then
    python3 - "$seeds" <<'PY' || die "could not write the pop-up and item-wrapper seeds"
import glob, json, os, sys
out = sys.argv[1]
for path in sorted(glob.glob("Samples/*/*.json")):
    if path.endswith(".services.json"):
        continue
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except ValueError:
        continue  # a deliberately broken sample (Samples/Broken/json--syntax.json ...): seeded as it is above
    if not isinstance(doc, dict):
        continue
    base = os.path.splitext(os.path.basename(path))[0]
    for kind in ("operationalLayers", "tables"):
        layers = doc.get(kind)
        for i, layer in enumerate(layers if isinstance(layers, list) else []):
            if isinstance(layer, dict) and isinstance(layer.get("popupInfo"), dict):
                with open(os.path.join(out, f"popup-{base}-{kind}-{i}.json"), "w", encoding="utf-8") as f:
                    json.dump(layer["popupInfo"], f, indent=2)
    # The item wrapper some tools export ({"item": ..., "itemData": ...}), minified.
    with open(os.path.join(out, f"item-{base}.json"), "w", encoding="utf-8") as f:
        json.dump({"item": {"id": "0123456789abcdef0123456789abcdef", "title": base, "type": "Web Map"}, "itemData": doc},
                  f, separators=(",", ":"))
PY
fi
say "seeds: $(find "$seeds" -type f | wc -l) files in $seeds; corpus: $(find "$corpus" -type f | wc -l) files in $corpus"

# 3. Fuzz. New interesting inputs go to $corpus (first directory); crash inputs to $crashes.
# -detect_leaks=0: the compiled JSON Schemas are process-wide caches made once (their NSRegularExpressions
# included), which LeakSanitizer reports at exit although nothing leaks per input; memory growth per input
# is still bounded by -rss_limit_mb.
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -max_len="$max_len"
      -dict="$dict" -artifact_prefix="$crashes/" -print_final_stats=1)
[[ -n "${FUZZ_FORK:-}" ]] && args+=(-fork="$FUZZ_FORK")
marker="$(mktemp)"
trap 'rm -f "$marker"' EXIT
say "fuzzing for ${seconds}s (log: $log) ..."
# Swift's own crash handler (SWIFT_BACKTRACE) would trip ASan while reading the crashed stack and leave a
# swift-backtrace process behind; with it off, libFuzzer and ASan print the stack themselves.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"
"$binary" "${args[@]}" "$@" "$corpus" "$seeds" > "$log" 2>&1 &
fuzzer=$!
tail -n +1 -f --pid="$fuzzer" "$log" >&2 &
follower=$!
set +e
wait "$fuzzer"
status=$?
wait "$follower"
set -e

runs="$(grep -Eo '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 || true)"
[[ -n "$runs" ]] && say "$runs(s)"
mapfile -t found < <(find "$crashes" -type f -newer "$marker" \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
if (( status != 0 )) || (( ${#found[@]} > 0 )); then
    say "FAILED: libFuzzer exited with $status"
    for input in "${found[@]}"; do
        say "crash input: $input ($(wc -c < "$input") bytes)"
        say "  replay with sanitizers:    $binary $input"
        say "  replay without sanitizers: swift run FuzzLint $input"
    done
    (( ${#found[@]} > 0 )) || say "no crash input was saved; see $log"
    # What went wrong and the top of the stack, demangled when the toolchain can.
    demangle=(cat)
    swift demangle --simplified </dev/null >/dev/null 2>&1 && demangle=(swift demangle --simplified)
    {
        grep -m1 -E 'Fatal error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' "$log" || true
        awk '/ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)/ { p = 1 }
             p && /^ +#[0-9]+ / { print; if (++n == 25) exit }' "$log"
    } | "${demangle[@]}" >&2
    exit 1
fi
say "OK: no crash in ${seconds}s"
