#!/usr/bin/env bash
# Measures how fast `maprules lint` gets through web maps, against the project's targets:
#   (a) one core:  `taskset -c 0 maprules lint Benchmarks/generated --format json`   target >= 100 MB/s
#   (b) all cores: the same without taskset                                           (reported, no target)
#   (c) one small map: hyperfine of `maprules lint Samples/TreesOfPortland/...json`    target < 50 ms
#   (d) for scale: Python's json.loads over the same files, one core                  (reported, no target)
# The maps (1,000 of ~100 KB, about 100 MB) are generated from the shipped samples by
# Benchmarks/generate_webmaps.py into Benchmarks/generated/ (git-ignored), once, and reused while the
# generator, the samples and the requested count and size stay the same.
#
#   Benchmarks/lint-throughput.sh                 # generate if needed, build release, measure, print the table
#   Benchmarks/lint-throughput.sh --strict        # also exit 1 when a target is missed
#   MAPRULES=/path/to/maprules Benchmarks/lint-throughput.sh   # measure that binary instead of building one
#
# Options:  --strict  --regenerate (generate the maps again)  --help
# Environment: BENCH_MAPS (default 1000), BENCH_MAP_KB (default 100), BENCH_RUNS (timed runs of (a), (b) and
#   (d), best kept; default 3), MAPRULES (a prebuilt binary; skips the build), BENCH_NO_INSTALL=1 (never run
#   apt-get for hyperfine).
# Exit: 0 measured (and, with --strict, every target met); 1 a target missed under --strict; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

maps="${BENCH_MAPS:-1000}"
map_kb="${BENCH_MAP_KB:-100}"
runs="${BENCH_RUNS:-3}"
generated="Benchmarks/generated"
small_map="Samples/TreesOfPortland/TreesOfPortland.json"
target_mbps=100
target_ms=50

source "$repo/Benchmarks/common.sh" lint-throughput.sh

bench_parse_arguments "--strict --regenerate" "$@"
bench_positive_integers "BENCH_MAPS, BENCH_MAP_KB and BENCH_RUNS" "$maps" "$map_kb" "$runs"
command -v python3 >/dev/null 2>&1 || die "python3 is needed to generate the maps and time the runs"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- 1. The maps -------------------------------------------------------------------------------------------
stamp="$generated/.stamp"
fingerprint="$(cat Benchmarks/generate_webmaps.py Samples/TreesOfPortland/*.json Samples/TreesOfPortland/features/*.json \
    Samples/DamageAssessment/*.json Samples/DamageAssessment/features/*.json | sha256sum | cut -c1-16) $maps x ${map_kb} KB"
if (( regenerate )) || [[ ! -f "$stamp" ]] || [[ "$(cat "$stamp")" != "$fingerprint" ]]; then
    say "generating $maps maps of ~${map_kb} KB into $generated ..."
    python3 Benchmarks/generate_webmaps.py --count "$maps" --size-kb "$map_kb" --out "$generated"
    printf '%s\n' "$fingerprint" > "$stamp"
else
    say "reusing the maps in $generated (--regenerate to make them again)"
fi
map_count="$(find "$generated" -name '*.json' ! -name 'services.json' ! -name '*.services.json' -type f | wc -l)"
map_bytes="$(find "$generated" -name '*.json' ! -name 'services.json' ! -name '*.services.json' -type f -printf '%s\n' | awk '{s += $1} END {print s + 0}')"
(( map_count > 0 )) || die "no maps in $generated"

# --- 2. The binary -----------------------------------------------------------------------------------------
bench_release_binaries "$work/build.log" maprules
maprules="${MAPRULES:-$bench_bin/maprules}"

# Runs a command RUNS times with stdout to /dev/null; prints "best-seconds peak-rss-kB". Exit 0 (clean) and
# 1 (lint found errors) both mean the command did its job; anything else stops the benchmark.
time_command() {
    python3 - "$runs" "$@" <<'PY'
import resource, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(runs):
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stderr.decode("utf-8", "replace")[-3000:])
        sys.exit(f"'{' '.join(command)}' exited with {done.returncode}")
    best = elapsed if best is None else min(best, elapsed)
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(f"{best:.6f} {rss}")
PY
}

# --- 3. Sanity: the JSON report covers every map ----------------------------------------------------------
say "checking that '$maprules lint $generated --format json' reports on all $map_count maps ..."
set +e
"$maprules" lint "$generated" --format json > "$work/report.json" 2> "$work/lint.err"
status=$?
set -e
if (( status != 0 && status != 1 )); then
    tail -20 "$work/lint.err" >&2
    die "maprules lint exited with $status (0 or 1 expected)"
fi
python3 - "$work/report.json" "$map_count" <<'PY' || die "the lint report is not what the benchmark expects (see above)"
import json, sys
path, expected = sys.argv[1], int(sys.argv[2])
try:
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
except ValueError as error:
    sys.exit(f"lint-throughput.sh: the --format json output is not JSON: {error}")
files = report.get("files", [])
summary = report.get("summary", {})
kinds = {}
for entry in files:
    kinds[entry.get("kind")] = kinds.get(entry.get("kind"), 0) + 1
print(f"lint-throughput.sh: report: {len(files)} files {kinds}, summary {summary}", file=sys.stderr)
if kinds.get("webmap", 0) != expected:
    sys.exit(f"lint-throughput.sh: expected {expected} web maps in the report, found {kinds.get('webmap', 0)}")
PY

# --- 4. Measurements ---------------------------------------------------------------------------------------
one_core=(taskset -c 0)
if ! command -v taskset >/dev/null 2>&1 || ! taskset -c 0 true 2>/dev/null; then
    say "warning: taskset unavailable; (a) runs unpinned and is not a one-core figure"
    one_core=()
fi
say "(a) one core: ${one_core[*]:-(unpinned)} maprules lint $generated --format json, best of $runs ..."
measured="$(time_command "${one_core[@]}" "$maprules" lint "$generated" --format json)" || die "(a) failed"
read -r a_seconds a_rss <<< "$measured"
say "(b) all $(nproc) cores: maprules lint $generated --format json, best of $runs ..."
measured="$(time_command "$maprules" lint "$generated" --format json)" || die "(b) failed"
read -r b_seconds b_rss <<< "$measured"

# (c) one small map: hyperfine, installed from Debian's packages if missing.
small_how="hyperfine"
bench_install_tool hyperfine "$work/apt.log" \
    || say "hyperfine is not installed (apt-get unavailable, not root, BENCH_NO_INSTALL set, or the install failed)"
small_cmd="$(printf '%q lint %q' "$maprules" "$small_map")"
if command -v hyperfine >/dev/null 2>&1; then
    say "(c) one small map: hyperfine '$small_cmd' ..."
    hyperfine --warmup 3 --min-runs 30 -N -i --style basic --export-json "$work/hyperfine.json" "$small_cmd" >&2 \
        || die "(c) hyperfine failed"
    measured="$(python3 - "$work/hyperfine.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))["results"][0]
print(f"{result['mean'] * 1000:.1f} {result['stddev'] * 1000:.1f}")
PY
)" || die "(c) no result from hyperfine"
else
    small_how="loop, no hyperfine"
    say "(c) one small map: timing 30 runs in a loop instead (install hyperfine for a proper figure)"
    measured="$(python3 - "$maprules" "$small_map" <<'PY'
import statistics, subprocess, sys, time
times = []
for i in range(33):
    start = time.perf_counter()
    subprocess.run([sys.argv[1], "lint", sys.argv[2]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if i >= 3:
        times.append((time.perf_counter() - start) * 1000)
print(f"{statistics.mean(times):.1f} {statistics.stdev(times):.1f}")
PY
)" || die "(c) failed"
fi
read -r c_ms c_sd <<< "$measured"

say "(d) Python json.loads over the same maps, best of $runs ..."
d_seconds="$(python3 - "$generated" "$runs" <<'PY'
import os, sys, time, json
root, runs = sys.argv[1], int(sys.argv[2])
texts = []
for folder, _, names in os.walk(root):
    for name in sorted(names):
        if name.endswith(".json") and name != "services.json" and not name.endswith(".services.json"):
            with open(os.path.join(folder, name), "rb") as f:
                texts.append(f.read())
best = None
for _ in range(runs):
    start = time.perf_counter()
    for text in texts:
        json.loads(text)
    elapsed = time.perf_counter() - start
    best = elapsed if best is None else min(best, elapsed)
print(f"{best:.6f}")
PY
)" || die "(d) failed"

# --- 5. The table ------------------------------------------------------------------------------------------
python3 - "$map_count" "$map_bytes" "$a_seconds" "$a_rss" "$b_seconds" "$b_rss" "$c_ms" "$c_sd" "$d_seconds" \
    "$target_mbps" "$target_ms" "$(nproc)" "$small_how" "$maprules" > "$work/table.txt" <<'PY'
import sys
(count, size, a_s, a_rss, b_s, b_rss, c_ms, c_sd, d_s, target_mbps, target_ms, cores, small_how, binary) = sys.argv[1:]
count, size = int(count), int(size)
a_s, b_s, d_s, c_ms, c_sd = float(a_s), float(b_s), float(d_s), float(c_ms), float(c_sd)
mb = size / 1e6
def rate(seconds):
    return mb / seconds, count / seconds
a_mbps, a_maps = rate(a_s)
b_mbps, b_maps = rate(b_s)
d_mbps, d_maps = rate(d_s)
a_ok = a_mbps >= float(target_mbps)
c_ok = c_ms < float(target_ms)
rows = [
    ("(a) lint, one core (taskset -c 0)", f"{a_mbps:8.1f} MB/s", f"{a_maps:8.1f} maps/s", f"{a_s:7.2f} s", f"{int(a_rss) / 1024:6.0f} MiB", f">= {target_mbps} MB/s", "PASS" if a_ok else "FAIL"),
    (f"(b) lint, all {cores} cores", f"{b_mbps:8.1f} MB/s", f"{b_maps:8.1f} maps/s", f"{b_s:7.2f} s", f"{int(b_rss) / 1024:6.0f} MiB", f"x{a_s / b_s:.2f} vs (a)", "-"),
    (f"(c) lint one small map ({small_how})", f"{c_ms:8.1f} ms", f"± {c_sd:.1f} ms", "", "", f"< {target_ms} ms", "PASS" if c_ok else "FAIL"),
    ("(d) Python json.loads, one core", f"{d_mbps:8.1f} MB/s", f"{d_maps:8.1f} maps/s", f"{d_s:7.2f} s", "", "for scale", "-"),
]
header = ("measurement", "rate", "", "time", "peak RSS", "target", "result")
widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
line = lambda row: "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip()
print(f"maprules lint throughput: {count} maps, {mb:.1f} MB (MB = 10^6 bytes of map files), binary {binary}")
print(line(header))
print(line(["-" * w for w in widths]))
for row in rows:
    print(line(row))
print(f"RESULT: {'PASS' if a_ok and c_ok else 'FAIL'} ({sum([a_ok, c_ok])} of 2 targets met)")
PY
cat "$work/table.txt"
if (( strict )) && grep -q '^RESULT: FAIL' "$work/table.txt"; then
    exit 1
fi
exit 0
