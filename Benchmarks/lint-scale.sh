#!/usr/bin/env bash
# Linting at scale: times `maprules lint` of (a) one map of 100,000 feature layers (Trees-like pop-ups with an
# expression each, metadata from a services snapshot; it lints clean), twice: every layer with the same
# expression text ("shared"), and each layer's expression naming its own index ("distinct"; the realistic one,
# since maprules analyses each distinct text once), and a third time with every 7th layer's service named over
# plain http:// ("insecure": 14,286 `map/insecure-url` warnings, each naming its layer), and (b) one map whose only pop-up
# expression is 1 MB of Arcade with 246,900 unknown calls (one `arcade/unknown-function` error each), in every
# output format of (b): stylish, json, sarif, junit, github. Target: each under 3 s (release build, wall time,
# best of BENCH_RUNS). Each run's output is checked first (no finding for (a) but the insecure map's warnings; the exact count for (b)).
# The maps come from Benchmarks/generate_scale_maps.py and are kept in Benchmarks/generated/lint-scale/
# (git-ignored; about 360 MB) while the generator stays the same.
#
#   Benchmarks/lint-scale.sh                # build release, generate if needed, measure, print the table
#   Benchmarks/lint-scale.sh --strict       # also exit 1 when a case takes 3 s or more
#   Benchmarks/lint-scale.sh --regenerate   # make the maps again
#   MAPRULES=/path/to/maprules Benchmarks/lint-scale.sh   # measure that binary instead of building one
#
# Options:  --strict  --regenerate  --help
# Environment: SCALE_LAYERS (default 100000), SCALE_BYTES (size of the expression, default 1000000),
#   BENCH_RUNS (timed runs, best kept; default 3), MAPRULES (a prebuilt binary; skips the build).
# Exit: 0 measured (and, with --strict, every target met); 1 a target missed under --strict, or an output
#   was wrong; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

layers="${SCALE_LAYERS:-100000}"
bytes="${SCALE_BYTES:-1000000}"
runs="${BENCH_RUNS:-3}"
target_seconds=3

source "$repo/Benchmarks/common.sh" lint-scale.sh

bench_parse_arguments "--strict --regenerate" "$@"
bench_positive_integers "SCALE_LAYERS, SCALE_BYTES and BENCH_RUNS" "$layers" "$bytes" "$runs"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to generate the maps and time the runs"

data="$repo/Benchmarks/generated/lint-scale"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

bench_release_binaries "$work/build.log" maprules
maprules="${MAPRULES:-$bench_bin/maprules}"

# The maps, kept while the generator and the sizes stay the same.
stamp="$(cat Benchmarks/generate_scale_maps.py | sha256sum | cut -c1-16) $layers $bytes"
if (( regenerate )) || [[ ! -f "$data/stamp" || "$(cat "$data/stamp")" != "$stamp" ]]; then
    rm -rf "$data"
    mkdir -p "$data"
    say "generating $layers layers and a $bytes-byte expression in $data ..."
    python3 Benchmarks/generate_scale_maps.py layers --layers "$layers" --out "$data/layers" 2> "$work/generate.log" \
        || { cat "$work/generate.log" >&2; die "could not generate the layers map"; }
    python3 Benchmarks/generate_scale_maps.py layers --layers "$layers" --distinct-expressions --out "$data/distinct" 2> "$work/generate.log" \
        || { cat "$work/generate.log" >&2; die "could not generate the distinct-expressions layers map"; }
    python3 Benchmarks/generate_scale_maps.py layers --layers "$layers" --distinct-expressions --insecure-every 7 --out "$data/insecure" 2> "$work/generate.log" \
        || { cat "$work/generate.log" >&2; die "could not generate the layers map with findings"; }
    python3 Benchmarks/generate_scale_maps.py arcade --bytes "$bytes" --out "$data/arcade" > "$data/arcade-calls.txt" 2> "$work/generate.log" \
        || { cat "$work/generate.log" >&2; die "could not generate the arcade map"; }
    echo "$stamp" > "$data/stamp"
fi
calls="$(cat "$data/arcade-calls.txt")"

# time_lint EXPECTED FORMAT MAP [STATUS]: one checked run (the output must hold EXPECTED findings, errors for json,
# and the exit status be STATUS, by default 1 when EXPECTED is not 0), then RUNS timed runs with the output thrown
# away; prints "best-wall-seconds cpu-seconds-of-that-run output-bytes".
time_lint() {
    python3 - "$runs" "$maprules" "$work/out" "$@" <<'PY'
import json, os, re, resource, subprocess, sys, time
runs, binary, out, expected, fmt, path = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
status = int(sys.argv[7]) if len(sys.argv) > 7 else (1 if expected else 0)
command = [binary, "lint", path, "--format", fmt, "--color", "never"] if fmt == "stylish" else [binary, "lint", path, "--format", fmt]
env = dict(os.environ, GITHUB_STEP_SUMMARY="")
with open(out, "wb") as f:
    done = subprocess.run(command, stdout=f, stderr=subprocess.PIPE, env=env)
if done.returncode != status:
    sys.stderr.write(done.stderr.decode("utf-8", "replace")[-3000:])
    sys.exit(f"'{' '.join(command)}' exited with {done.returncode}")
size = os.path.getsize(out)
with open(out, "rb") as f:
    text = f.read().decode("utf-8")
if fmt == "json":
    found = json.loads(text)["summary"]["errors"]
elif fmt == "sarif":
    found = len(json.loads(text)["runs"][0]["results"])
elif fmt == "github":
    found = sum(1 for line in text.splitlines() if line.startswith("::error "))
elif fmt == "junit":
    found = int(re.search(r'<failure message="(\d+) errors', text).group(1)) if expected else text.count("<failure")
else:
    match = re.search(r"(\d+) problems?", text)
    found = int(match.group(1)) if match else 0
os.remove(out)
if found != expected:
    sys.exit(f"'{' '.join(command)}' reported {found} findings, expected {expected}")
best, best_cpu = None, None
for _ in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if best is None or elapsed < best:
        best, best_cpu = elapsed, cpu
print(f"{best:.3f} {best_cpu:.3f} {size}")
PY
}

rows=()
missed=0
measure() {
    local label="$1" expected="$2" format="$3" map="$4" status="${5:-}" result wall cpu size verdict
    say "$label, --format $format: one checked run, then best of $runs ..."
    result="$(time_lint "$expected" "$format" "$map" $status)" || { say "wrong output or exit status (above)"; exit 1; }
    read -r wall cpu size <<< "$result"
    if python3 -c "import sys; sys.exit(0 if $wall < $target_seconds else 1)"; then verdict="PASS"; else verdict="FAIL"; missed=1; fi
    rows+=("$(printf '%-40s %-8s %7s %8s s %8s s  %s' "$label" "$format" "$((size / 1000000)) MB" "$wall" "$cpu" "$verdict")")
}

load="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
measure "$layers layers, shared expression" 0 stylish "$data/layers/layers.json"
measure "$layers layers, distinct expressions" 0 stylish "$data/distinct/layers.json"
# Warnings only: lint exits 0.
measure "$layers layers, every 7th insecure" "$(( (layers + 6) / 7 ))" stylish "$data/insecure/layers.json" 0
for format in stylish json sarif junit github; do
    measure "$bytes-byte expression, $calls errors" "$calls" "$format" "$data/arcade/arcade.json"
done

echo "maprules lint at scale; binary $maprules; load average at the start $load"
printf '%-40s %-8s %7s %10s %10s  %s\n' "map" "format" "output" "wall" "CPU" "target < ${target_seconds} s"
printf '%s\n' "${rows[@]}"
if (( strict && missed )); then exit 1; fi
exit 0
