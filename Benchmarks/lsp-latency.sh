#!/usr/bin/env bash
# Measures how long `maprules lsp` takes to re-lint a 2 MB web map after a change: from writing a didChange to
# reading its publishDiagnostics, over 40 incremental changes (target: within 100 ms). The map is one of the
# generated benchmark maps (Benchmarks/generate_webmaps.py, git-ignored), made once.
#
#   Benchmarks/lsp-latency.sh              # generate if needed, build release, measure
#   Benchmarks/lsp-latency.sh --strict     # also exit 1 when the target is missed
#   MAPRULES=/path/to/maprules Benchmarks/lsp-latency.sh
#
# Options:  --strict  --regenerate  --help
# Environment: BENCH_MAP_KB (default 2048), BENCH_RUNS (changes timed, default 40), MAPRULES (a prebuilt binary).
# Exit: 0 measured (and, with --strict, the target met); 1 target missed under --strict; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
map_kb="${BENCH_MAP_KB:-2048}"
runs="${BENCH_RUNS:-40}"
generated="Benchmarks/generated-lsp"
target_ms=100

source "$repo/Benchmarks/common.sh" lsp-latency.sh
bench_parse_arguments "--strict --regenerate" "$@"
bench_positive_integers "BENCH_MAP_KB and BENCH_RUNS" "$map_kb" "$runs"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to drive the language server"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [[ "$regenerate" == 1 || ! -f "$generated/size-$map_kb" ]]; then
    say "generating one map of ~$map_kb KB into $generated ..."
    python3 Benchmarks/generate_webmaps.py --count 1 --size-kb "$map_kb" --out "$generated" >&2
    touch "$generated/size-$map_kb"
fi
map="$(find "$generated" -name '*.json' ! -name '*.services.json' ! -name 'services.json' | head -n 1)"
[[ -n "$map" ]] || die "no map was generated in $generated"
bench_release_binaries "$work/build.log" maprules

result="$(python3 Benchmarks/lsp_latency.py "$bench_bin/maprules" "$map" "$runs")"
say "$result"
median="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["median_ms"])' "$result")"
p95="$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["p95_ms"])' "$result")"
echo "re-lint after a change of a $(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["bytes"])' "$result")-byte map: median $median ms, p95 $p95 ms (target $target_ms ms)"
if python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= $target_ms else 1)" "$p95"; then
    echo "RESULT: PASS"
else
    echo "RESULT: MISS"
    [[ "$strict" == 1 ]] && exit 1
fi
exit 0
