#!/usr/bin/env bash
# Does a finding cost the same however many came before it? Times `maprules lint MAP --format json` on one
# large map whose every feature layer is unresolved (one `map/unresolved-layer` warning per layer), against
# the same map with that rule off (no finding at all), for each size in FINDINGS_LAYERS, indented and
# minified. Target: with 20,000 findings, at most 2x the time with the rule off.
# The maps come from Benchmarks/generate_findings_map.py (about 25 MB indented for 20,000 layers) and are
# written to a temporary folder.
#
#   Benchmarks/findings-scaling.sh               # build release, measure, print the table
#   Benchmarks/findings-scaling.sh --strict      # also exit 1 when the target is missed
#   MAPRULES=/path/to/maprules Benchmarks/findings-scaling.sh   # measure that binary instead of building one
#
# Options:  --strict  --help
# Environment: FINDINGS_LAYERS (default "10000 20000"), BENCH_RUNS (timed runs, best kept; default 3),
#   MAPRULES (a prebuilt binary; skips the build).
# Exit: 0 measured (and, with --strict, the target met); 1 the target missed under --strict; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

sizes="${FINDINGS_LAYERS:-10000 20000}"
runs="${BENCH_RUNS:-3}"
target_ratio=2

source "$repo/Benchmarks/common.sh" findings-scaling.sh

bench_parse_arguments "--strict" "$@"
# shellcheck disable=SC2086
bench_positive_integers "FINDINGS_LAYERS and BENCH_RUNS" $sizes "$runs"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to generate the maps and time the runs"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

bench_release_binaries "$work/build.log" maprules
maprules="${MAPRULES:-$bench_bin/maprules}"

# Runs `maprules lint MAP --format json EXTRA...` RUNS times; prints "best-seconds warnings".
time_lint() {
    python3 - "$runs" "$maprules" "$@" <<'PY'
import json, subprocess, sys, time
runs, binary, path, extra = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
command = [binary, "lint", path, "--format", "json"] + extra
best, warnings = None, None
for _ in range(runs):
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stderr.decode("utf-8", "replace")[-3000:])
        sys.exit(f"'{' '.join(command)}' exited with {done.returncode}")
    warnings = json.loads(done.stdout)["summary"]["warnings"]
    best = elapsed if best is None else min(best, elapsed)
print(f"{best:.6f} {warnings}")
PY
}

rows=()
missed=0
for layers in $sizes; do
    for style in indented minified; do
        map="$work/$style-$layers/map.json"
        flag=()
        [[ "$style" == minified ]] && flag=(--minified)
        python3 Benchmarks/generate_findings_map.py --layers "$layers" "${flag[@]}" --out "$map" 2> "$work/generate.log" \
            || { cat "$work/generate.log" >&2; die "could not generate $map"; }
        bytes="$(stat -c %s "$map")"
        say "$layers layers, $style ($((bytes / 1000000)) MB): rule on, then off, best of $runs ..."
        read -r on_s on_warnings <<< "$(time_lint "$map")" || die "lint failed"
        read -r off_s off_warnings <<< "$(time_lint "$map" --rule map/unresolved-layer=off)" || die "lint failed"
        (( on_warnings == layers )) || die "expected $layers warnings on $map, found $on_warnings"
        (( off_warnings == 0 )) || die "expected no warning with the rule off, found $off_warnings"
        ratio="$(python3 -c "print(f'{$on_s / $off_s:.2f}')")"
        verdict="-"
        if (( layers >= 20000 )); then
            if python3 -c "import sys; sys.exit(0 if $on_s / $off_s <= $target_ratio else 1)"; then verdict="PASS"; else verdict="FAIL"; missed=1; fi
        fi
        rows+=("$(printf '%-8s %-9s %6.1f MB %9.2f s %9.2f s %7sx  %s' "$layers" "$style" "$(python3 -c "print($bytes / 1e6)")" "$on_s" "$off_s" "$ratio" "$verdict")")
    done
done

echo "maprules lint, one map of N unresolved feature layers (N findings) vs the rule off; binary $maprules"
printf '%-8s %-9s %9s %11s %11s %8s  %s\n' "findings" "map" "size" "rule on" "rule off" "ratio" "target <= ${target_ratio}x at 20,000"
printf '%s\n' "${rows[@]}"
if (( strict && missed )); then exit 1; fi
exit 0
