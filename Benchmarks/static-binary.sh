#!/usr/bin/env bash
# Builds the static binary a user downloads and checks it against the project's targets:
#   (a) `swift build -c release --static-swift-stdlib --product maprules-service` (the complete command line,
#       published as `maprules`): ldd lists no libswift* and no
#       Foundation library; it runs alone from an empty folder with `env -i` (StaticBinaryTests)
#   (b) size after `strip`                                                     target <= 40 MB
#   (c) `maprules version-name x --owner y`, hyperfine, static vs dynamic       target < 10 ms (static)
#
#   Benchmarks/static-binary.sh            # build both (scratch folders .build-static, .build-bench), measure
#   Benchmarks/static-binary.sh --strict   # also exit 1 when a target is missed
#
# The stripped binary is left at .build-static/maprules-linux-$(uname -m) (the file to publish).
# Options:  --strict  --help
# Environment: DYNAMIC (a dynamic maprules to compare with; default: a release build in .build-bench),
#   BENCH_NO_INSTALL=1 (never apt-get hyperfine).
# Exit: 0 measured (and, with --strict, every target met); 1 a target missed under --strict; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
source "$repo/Benchmarks/common.sh" static-binary.sh
bench_parse_arguments "--strict" "$@"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
missed=0

say "building the static binary (release, --static-swift-stdlib; the first build takes 10-20 minutes) ..."
if ! swift build -c release --static-swift-stdlib --scratch-path .build-static --product maprules-service > "$work/static.log" 2>&1; then
    tail -30 "$work/static.log" >&2
    die "the static build failed (output above; it needs libcurl4-openssl-dev and libxml2-dev)"
fi
static_bin="$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/maprules-service"
published=".build-static/maprules-linux-$(uname -m)"
cp "$static_bin" "$published"
strip "$published"

if [[ -n "${DYNAMIC:-}" ]]; then
    dynamic="$DYNAMIC"
else
    say "building the dynamic release binary for comparison ..."
    swift build -c release --scratch-path .build-bench --product maprules-service > "$work/dynamic.log" 2>&1 || { tail -30 "$work/dynamic.log" >&2; die "dynamic build failed"; }
    dynamic="$(swift build -c release --scratch-path .build-bench --show-bin-path)/maprules-service"
fi

echo "== (a) linked libraries of $published"
ldd "$published" | sed 's/ (0x[0-9a-f]*)//'
if ldd "$published" | grep -E 'libswift|libFoundation|lib_Foundation|libdispatch|libBlocksRuntime' >/dev/null; then
    echo "MISS: a Swift runtime or Foundation library is linked dynamically"; missed=1
fi
if ldd "$published" | grep -vE 'linux-vdso|libc\.so|libm\.so|libz\.so|libstdc\+\+\.so|libgcc_s\.so|ld-linux' | grep -q .; then
    echo "MISS: a library beyond glibc, libstdc++ and zlib is linked dynamically (libsqlite3: is libsqlite3.a installed?)"; missed=1
fi
say "running StaticBinaryTests against it (env -i, empty folder) ..."
if ! MAPRULES_STATIC_BINARY="$repo/$published" swift test --filter StaticBinaryTests > "$work/tests.log" 2>&1; then
    tail -40 "$work/tests.log" >&2
    echo "MISS: StaticBinaryTests failed"; missed=1
else
    grep -E "Test run with" "$work/tests.log" | tail -1
fi

size=$(stat -c %s "$published")
echo "== (b) size: $(( size / 1024 / 1024 )) MB stripped ($size bytes; target <= 40 MB); unstripped $(( $(stat -c %s "$static_bin") / 1024 / 1024 )) MB; dynamic $(( $(stat -c %s "$dynamic") / 1024 / 1024 )) MB"
(( size <= 40 * 1024 * 1024 )) || { echo "MISS: over 40 MB"; missed=1; }
# The largest single part: ICU's data, linked whole by Foundation's internationalization (one symbol).
nm -S --defined-only "$static_bin" 2>/dev/null | awk '$4 ~ /^icudt[0-9]+_dat$/ {print $4, $2}' | while read -r name hex; do
    echo "   of which ICU's data ($name): $(( 16#$hex / 1024 / 1024 )) MB"
done

echo "== (c) maprules version-name x --owner y"
# Both builds answer on stdout only: a loader warning on stderr (see the linker settings in Package.swift) would
# reach every user's terminal at every start.
for bin in "$published" "$dynamic"; do
    "$bin" version-name x --owner y > "$work/out.txt" 2> "$work/err.txt" || die "$bin version-name x --owner y failed"
    if [[ -s "$work/err.txt" ]]; then echo "MISS: $bin writes to stderr at start:"; head -5 "$work/err.txt"; missed=1; fi
done
bench_install_tool hyperfine "$work/apt.log" || die "hyperfine is not installed (apt-get install hyperfine)"
hyperfine --warmup 5 --runs 50 --export-json "$work/h.json" -N \
    "$published version-name x --owner y" "$dynamic version-name x --owner y" >&2
static_ms=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["results"][0]["mean"]*1000, 2))' "$work/h.json")
dynamic_ms=$(python3 -c 'import json,sys; print(round(json.load(open(sys.argv[1]))["results"][1]["mean"]*1000, 2))' "$work/h.json")
echo "static $static_ms ms, dynamic $dynamic_ms ms (target < 10 ms static)"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 10 else 1)" "$static_ms" || { echo "MISS: static version-name >= 10 ms"; missed=1; }

if [[ "$missed" == 0 ]]; then echo "RESULT: PASS"; else echo "RESULT: MISS"; [[ "$strict" == 1 ]] && exit 1; fi
exit 0
