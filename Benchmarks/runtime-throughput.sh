#!/usr/bin/env bash
# Measures the editing runtime (Sources/Runtime) against the targets of issue 12 item 7:
#   (a) in-process: 10,000 local adds sent in one `applyEdits()` (one service-level apply, rollback on failure)
#       over a 100,000-row layer: features/s of the apply; target >= 20,000 features/s
#   (b) in-process: queries of that layer with 10,000 local edits pending (BENCH_OVERLAY_UPDATES updates spread
#       over the layer, default 200, and adds for the rest) overlaid on the service's answer: the first page of 100
#       in object id order (the target), and, for information, a filter matching ~1 % of the rows, 100 object
#       ids, a page at offset 50,000, a count; best of BENCH_RUNS after a warm-up; target < 50 ms. Few updates by
#       default because each local update reads its feature from the service first (twice), and an objectIds
#       query in a version scans the layer: ~0.25 s each at 100,000 rows (see the README), 5,000 updates ~40 min.
#   (c) over HTTP on loopback: `maprules edit` of a 200-step script (a version, then 66 cycles of query,
#       updateAttributes, applyEdits) against `maprules serve --port 0 --database :memory:` (the shipped samples,
#       DamageAssessment), signed in as editor01: the whole command, hyperfine's mean; target < 3 s
#   (d) peak resident memory of a process (RuntimeBench, in-process, the core on a database file loaded by an
#       earlier run) holding 100,000 pending local edits over
#       the 100,000-row layer: /usr/bin/time -v's maximum resident set size; target < 300 MB
#   (e) in-process: local updates of a 1,000,000-row layer (each the read of the feature by object id in the
#       version and the update), one at a time, BENCH_UPDATES of them (default 200) after 10 untimed: the median
#       of one update; target < 5 ms. The core runs on a database file (Bench1M: 1,000 rows loaded by RuntimeBench,
#       grown to 1,000,000 in SQLite by Benchmarks/service_bench.py grow), a copy of it each run.
# (a), (b), (d) and (e) run RuntimeBench (Sources/RuntimeBench): ServiceGeodatabase over InProcessFeatureService, a
# fresh in-memory core loaded from a sample folder, editing as editor01 in a version of its own. Every answer is
# checked (adds landed and the layer grew by as many; pages hold the right ids and show the local edits; the
# script's 200 steps all pass) before a figure counts.
# Data (git-ignored, Benchmarks/generated-runtime/): the sample folder Bench100k (layer 0 of DamageAssessment
# grown to 100,000 rows by Benchmarks/service_bench.py), kept while the generator and the sample stay the same,
# and the 200-step script.
#
#   Benchmarks/runtime-throughput.sh                 # generate if needed, build release, measure, print the table
#   Benchmarks/runtime-throughput.sh --strict        # also exit 1 when a target is missed
#   MAPRULES=/path/to/maprules Benchmarks/runtime-throughput.sh   # measure that binary (and RuntimeBench beside it)
#
# Options:  --strict  --regenerate (make the folder and the script again)  --help
# Environment: MAPRULES (a prebuilt maprules; skips the build), RUNTIMEBENCH (a prebuilt RuntimeBench; default:
#   the one beside MAPRULES), BENCH_RUNS (runs of (a) and timed runs of each query of (b), best kept; default 3),
#   BENCH_SCRIPT_RUNS (timed runs of (c); default 10), BENCH_OVERLAY_UPDATES (how many of the 10,000 edits of (b)
#   are updates; default 200), BENCH_MEMORY_UPDATES (how many of the 100,000 edits of (d)
#   are updates rather than adds; default 0), BENCH_UPDATES (the timed updates of (e); default 200),
#   BENCH_UPDATES_ONLY=1 (measure (e) alone and print its row), BENCH_NO_INSTALL=1 (never run apt-get for hyperfine).
# Disk: about 0.6 GB kept in Benchmarks/generated-runtime/databases (the 1,000,000 rows), as much again while it runs.
# Time: about 2.5 min after the release build (the in-process core loads the 100,000 rows twice, ~10 to 30 s each).
# Exit: 0 measured (and, with --strict, every target met); 1 a target missed under --strict; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

runs="${BENCH_RUNS:-3}"
script_runs="${BENCH_SCRIPT_RUNS:-10}"
memory_updates="${BENCH_MEMORY_UPDATES:-0}"
update_count="${BENCH_UPDATES:-200}"
update_rows=1000000
update_seed_rows=1000
generated="Benchmarks/generated-runtime"
rows=100000
adds=10000
overlay_edits=10000
overlay_updates="${BENCH_OVERLAY_UPDATES:-200}"
memory_edits=100000
script_steps=200
users="Samples/users.json"
user="editor01"
password="sample-editor01"

source "$repo/Benchmarks/common.sh" runtime-throughput.sh

bench_parse_arguments "--strict --regenerate" "$@"
bench_positive_integers "BENCH_RUNS, BENCH_SCRIPT_RUNS and BENCH_UPDATES" "$runs" "$script_runs" "$update_count"
[[ "$memory_updates" =~ ^[0-9]+$ ]] && (( memory_updates <= memory_edits )) \
    || die "BENCH_MEMORY_UPDATES must be a whole number from 0 to $memory_edits, got '$memory_updates'"
[[ "$overlay_updates" =~ ^[0-9]+$ ]] && (( overlay_updates <= overlay_edits )) \
    || die "BENCH_OVERLAY_UPDATES must be a whole number from 0 to $overlay_edits, got '$overlay_updates'"
overlay_adds=$((overlay_edits - overlay_updates))
command -v python3 >/dev/null 2>&1 || die "python3 is needed (data generation, parsing the figures)"

work="$(mktemp -d)"
trap 'bench_stop_server; rm -rf "$work"' EXIT

# --- 1. The binaries -----------------------------------------------------------------------------------------
bench_release_binaries "$work/build.log" maprules RuntimeBench
maprules="${MAPRULES:-$bench_bin/maprules}"
runtimebench="${RUNTIMEBENCH:-$bench_bin/RuntimeBench}"
[[ -x "$runtimebench" ]] || die "no RuntimeBench at $runtimebench (set RUNTIMEBENCH, or build it: swift build -c release --product RuntimeBench)"

# --- 2. Data -------------------------------------------------------------------------------------------------
folder="$generated/folders/Bench100k"
script="$generated/edit-$script_steps-steps.yaml"
stamp="$generated/.stamp"
fingerprint="$(cat Benchmarks/service_bench.py Benchmarks/runtime-throughput.sh Samples/DamageAssessment/*.json Samples/DamageAssessment/features/*.json \
    Sources/Service/Storage/Schema.swift 2>/dev/null | sha256sum | cut -c1-16) $rows $update_rows"
large_folder="$generated/folders/Bench1M"
large_db="$generated/databases/Bench1M.sqlite"
if (( regenerate )) || [[ ! -f "$stamp" ]] || [[ "$(cat "$stamp")" != "$fingerprint" ]]; then
    rm -rf "$generated"
    mkdir -p "$generated/folders"
    say "generating the sample folder $folder ($rows rows) with Benchmarks/service_bench.py ..."
    # service_bench.py makes three folders: Bench100k, and Bench1k and Bench1M of $update_seed_rows rows each
    # (Bench1M is grown to $update_rows rows below, for (e); Bench1k is not used).
    python3 Benchmarks/service_bench.py folders "$generated/folders" "$rows" "$update_seed_rows" || die "generating the folders failed"
    rm -rf "$generated/folders/Bench1k"
    mkdir -p "$generated/databases"
    say "(e) loading $large_folder into $large_db with RuntimeBench, then growing it to $update_rows rows ..."
    "$runtimebench" memory --folder "$large_folder" --users "$users" --user "$user" --password "$password" --database "$large_db" \
        --edits 0 > /dev/null || die "RuntimeBench could not load $large_folder into $large_db"
    python3 Benchmarks/service_bench.py grow "$large_db" Bench1M "$update_rows" || die "growing Bench1M failed"
    # (c): a version of its own, then cycles of query (one feature of the 30), updateAttributes, applyEdits.
    python3 - "$script" "$script_steps" <<'PY' || die "writing the edit script failed"
import sys
path, steps = sys.argv[1], int(sys.argv[2])
cycles = (steps - 2) // 3
damage = ["Destroyed", "Major", "Minor", "Affected", "Inaccessible"]
lines = [
    f"# {steps} steps for Benchmarks/runtime-throughput.sh (c): a version, then {cycles} cycles of query, update, apply.",
    "# maprules edit THIS --service http://127.0.0.1:PORT/arcgis/rest/services/DamageAssessment/FeatureServer \\",
    "#     --user editor01 --password sample-editor01",
    "steps:",
    '  - createVersion: {name: "Bench_$run.id", access: private, description: "runtime-throughput.sh"}',
    "    save: v",
    '  - switchVersion: {to: "$v.versionName"}',
]
for i in range(cycles):
    object_id = 1 + i % 30
    lines += [
        f'  - query: {{layer: 0, where: "objectid = {object_id}", orderBy: "objectid", limit: 1}}',
        "    save: hit",
        f'  - updateAttributes: {{layer: 0, objectId: "$hit.features.0.objectid", '
        f'attributes: {{typdamage: "{damage[i % len(damage)]}", estloss: {1000 + 37 * i}.5, notes: "cycle {i + 1}"}}}}',
        "  - applyEdits: {}",
    ]
assert 2 + 3 * cycles == steps, f"{steps} steps cannot be 2 + 3 * cycles"
open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
PY
    printf '%s\n' "$fingerprint" > "$stamp"
else
    say "reusing $generated (--regenerate to make it again)"
fi
[[ -f "$folder/features/0.json" && -f "$script" && -f "$large_db" ]] || die "$generated is incomplete (run with --regenerate)"

load_note() { printf 'load %s' "$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"; }
# A RuntimeBench figure: the value of KEY on the first line starting with WORD (and holding MATCH).
figure() { python3 - "$1" "$2" "$3" "${4:-}" <<'PY'
import sys
path, word, key, match = sys.argv[1:]
for line in open(path):
    parts = line.split()
    if parts and parts[0] == word and (not match or match in parts):
        values = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
        print(values[key])
        break
else:
    sys.exit(f"runtime-throughput.sh: no '{word} {match}' line in {path}")
PY
}

# --- 3. (e) local updates over 1,000,000 rows, in-process, on a copy of the grown database -----------------------
e_load="$(load_note)"
cp "$large_db" "$work/updates.sqlite"
say "(e) $update_count local updates over $update_rows rows: $runtimebench updates ($e_load) ..."
"$runtimebench" updates --folder "$large_folder" --users "$users" --user "$user" --password "$password" \
    --database "$work/updates.sqlite" --updates "$update_count" > "$work/updates.txt" || die "RuntimeBench updates failed (its message above)"
rm -f "$work/updates.sqlite" "$work/updates.sqlite-wal" "$work/updates.sqlite-shm"
cat "$work/updates.txt" >&2
e_rows="$(figure "$work/updates.txt" updates rows)"
e_median="$(figure "$work/updates.txt" updates median_ms)"
e_max="$(figure "$work/updates.txt" updates max_ms)"
[[ "$e_rows" == "$update_rows" ]] || die "(e) the layer holds $e_rows rows, $update_rows expected"
e_ok="$(python3 -c 'import sys; print(1 if float(sys.argv[1]) < 5 else 0)' "$e_median")"
e_row="(e) one local update (read by id + update), $update_rows rows: median $e_median ms, slowest $e_max ms of $update_count; target < 5 ms: $( ((e_ok)) && echo PASS || echo FAIL) ($e_load)"
if [[ -n "${BENCH_UPDATES_ONLY:-}" ]]; then
    printf '%s\n' "$e_row"
    (( strict && !e_ok )) && exit 1
    exit 0
fi

# --- 4. (a) and (b), in-process --------------------------------------------------------------------------------
ab_load="$(load_note)"
say "(a), (b) in-process: $runtimebench throughput (loads $rows rows; $ab_load) ..."
"$runtimebench" throughput --folder "$folder" --users "$users" --user "$user" --password "$password" --runs "$runs" \
    --adds "$adds" --updates "$overlay_updates" --overlay-adds "$overlay_adds" > "$work/throughput.txt" \
    || die "RuntimeBench throughput failed (its message above)"
cat "$work/throughput.txt" >&2

# --- 5. (d) peak memory, in a process of its own -------------------------------------------------------------------
d_load="$(load_note)"
say "(d) $memory_edits pending local edits ($memory_updates updates): /usr/bin/time -v $runtimebench memory ($d_load) ..."
# The rows live in a database file loaded by a first run of its own (edits 0), so that the measured process holds
# the pending local edits and the runtime, not the service's 100,000 rows in an in-memory SQLite (331 MB).
memory_db="$work/memory-core.sqlite"
rm -f "$memory_db" "$memory_db-wal" "$memory_db-shm"
"$runtimebench" memory --folder "$folder" --users "$users" --user "$user" --password "$password" --database "$memory_db" \
    --edits 0 > /dev/null || die "RuntimeBench could not load $folder into $memory_db"
memory_command=("$runtimebench" memory --folder "$folder" --users "$users" --user "$user" --password "$password"
    --database "$memory_db" --edits "$memory_edits" --updates "$memory_updates")
if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -v -o "$work/time-v.txt" "${memory_command[@]}" > "$work/memory.txt" || die "RuntimeBench memory failed (its message above)"
    d_peak_kb="$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): \([0-9]*\)$/\1/p' "$work/time-v.txt")"
    d_how="/usr/bin/time -v"
else
    "${memory_command[@]}" > "$work/memory.txt" || die "RuntimeBench memory failed (its message above)"
    d_peak_kb="$(figure "$work/memory.txt" memory peak_kb)"
    d_how="VmHWM (no /usr/bin/time)"
fi
cat "$work/memory.txt" >&2
[[ -n "$d_peak_kb" ]] || die "(d) no peak resident size measured"

# --- 6. (c) a 200-step script over HTTP ------------------------------------------------------------------------
say "starting $maprules serve --port 0 --database :memory: (the shipped samples) ..."
bench_start_server "$work" "$maprules" serve --host 127.0.0.1 --port 0 --database :memory:
service_url="http://127.0.0.1:$port/arcgis/rest/services/DamageAssessment/FeatureServer"
edit_command=("$maprules" edit "$script" --service "$service_url" --user "$user" --password "$password")

# The check run: every step passes; the server's request log counts the HTTP requests one run makes.
requests_before="$(grep -c ' /arcgis/' "$work/serve.err" || true)"
edit_status=0
"${edit_command[@]}" --format json > "$work/edit-check.json" 2> "$work/edit-check.err" || edit_status=$?
if (( edit_status != 0 )); then
    tail -20 "$work/edit-check.err" >&2
    head -c 2000 "$work/edit-check.json" >&2
    die "(c) maprules edit exited $edit_status on the check run (output above)"
fi
sleep 0.2
requests_after="$(grep -c ' /arcgis/' "$work/serve.err" || true)"
c_requests=$((requests_after - requests_before))
python3 - "$work/edit-check.json" "$script_steps" <<'PY' || die "(c) the check run did not pass every step"
import json, sys
report, steps = json.load(open(sys.argv[1])), int(sys.argv[2])
if report.get("passed") != steps or report.get("failed") != 0 or len(report.get("steps", [])) != steps:
    sys.exit(f"runtime-throughput.sh: maprules edit passed {report.get('passed')} and failed {report.get('failed')} of {steps} steps")
PY
say "(c) check run: $script_steps steps passed, $c_requests HTTP requests"

c_load="$(load_note)"
edit_text="$(printf '%q ' "${edit_command[@]}")"
c_how="hyperfine"
bench_install_tool hyperfine "$work/apt.log" \
    || say "hyperfine is not installed (apt-get unavailable, not root, BENCH_NO_INSTALL set, or the install failed)"
if command -v hyperfine >/dev/null 2>&1; then
    say "(c) hyperfine --warmup 1 --runs $script_runs '$edit_text' ($c_load) ..."
    hyperfine --warmup 1 --runs "$script_runs" -N --style basic --export-json "$work/hyperfine.json" "$edit_text" >&2 \
        || die "(c) hyperfine failed (a run of maprules edit failed)"
    read -r c_mean c_sd c_min c_max <<< "$(python3 - "$work/hyperfine.json" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))["results"][0]
print(f"{result['mean']:.3f} {result['stddev'] or 0:.3f} {result['min']:.3f} {result['max']:.3f}")
PY
)" || die "(c) no result from hyperfine"
else
    c_how="loop, best kept (no hyperfine)"
    say "(c) timing $script_runs runs in a loop ($c_load) ..."
    read -r c_mean c_sd c_min c_max <<< "$(python3 - "$script_runs" "${edit_command[@]}" <<'PY'
import statistics, subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
times = []
for i in range(runs + 1):
    start = time.perf_counter()
    if subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        sys.exit("runtime-throughput.sh: a run of maprules edit failed")
    if i > 0:
        times.append(time.perf_counter() - start)
print(f"{statistics.mean(times):.3f} {statistics.stdev(times) if len(times) > 1 else 0:.3f} {min(times):.3f} {max(times):.3f}")
PY
)" || die "(c) failed"
fi
bench_stop_server

# --- 7. The table --------------------------------------------------------------------------------------------
python3 - "$work/throughput.txt" "$work/memory.txt" "$d_peak_kb" "$d_how" "$c_mean" "$c_sd" "$c_min" "$c_max" "$c_how" "$c_requests" \
    "$script_steps" "$script_runs" "$ab_load" "$c_load" "$d_load" "$maprules" "$runtimebench" > "$work/table.txt" <<'PY'
import sys
(throughput, memory, d_peak_kb, d_how, c_mean, c_sd, c_min, c_max, c_how, c_requests, steps, script_runs,
 ab_load, c_load, d_load, maprules, runtimebench) = sys.argv[1:]

def lines(path, word):
    found = []
    for line in open(path):
        parts = line.split()
        if parts and parts[0] == word:
            found.append(dict(p.split("=", 1) for p in parts[1:] if "=" in p))
    return found

adds = lines(throughput, "adds")
queries = {q["name"]: q for q in lines(throughput, "query")}
overlay = lines(throughput, "overlay")[0]
load = lines(throughput, "load")[0]
mem = lines(memory, "memory")[0]
best_apply = min(float(a["apply_seconds"]) for a in adds)
features = int(adds[0]["features"])
a_rate = features / best_apply
a_all = ", ".join(f"{features / float(a['apply_seconds']):,.0f}" for a in adds)
add_rates = ", ".join(f"{features / float(a['add_seconds']):,.0f}" for a in adds)
both_rates = ", ".join(f"{features / (float(a['add_seconds']) + float(a['apply_seconds'])):,.0f}" for a in adds)
page_ms = float(queries["page"]["seconds"]) * 1000
c_mean, c_sd, c_min, c_max = map(float, (c_mean, c_sd, c_min, c_max))
d_mb = int(d_peak_kb) / 1024
base_mb = int(mem["baseline_kb"]) / 1024
after_mb = int(mem["after_kb"]) / 1024
edits = int(overlay["updates"]) + int(overlay["adds"])
a_ok, b_ok, c_ok, d_ok = a_rate >= 20000, page_ms < 50, c_mean < 3, d_mb < 300
verdict = lambda ok: "PASS" if ok else "FAIL"
rows = [
    (f"(a) applyEdits of {features:,} local adds, in-process (best of {len(adds)})", f"{a_rate:,.0f} features/s ({best_apply:.3f} s)", ">= 20,000 features/s", verdict(a_ok)),
    (f"(b) first page of 100, {edits:,} local edits over {int(overlay['rows']):,} rows", f"{page_ms:.1f} ms", "< 50 ms", verdict(b_ok)),
]
for name, what in (("where", "filter estloss >= 495000"), ("ids", "100 object ids"), ("deep-page", "page of 100 at offset 50,000"), ("count", "count")):
    if name in queries:
        q = queries[name]
        wrong = "" if q.get("ok", "1") == "1" else "WRONG ANSWER (see above)"
        rows.append((f"    (b, for information) {what}", f"{float(q['seconds']) * 1000:.1f} ms ({int(q['returned']):,} returned)", "", wrong))
rows += [
    (f"(c) maprules edit, {steps} steps over HTTP ({c_how}, {script_runs} runs)", f"{c_mean:.3f} s mean ± {c_sd:.3f} (min {c_min:.3f}, max {c_max:.3f})", "< 3 s", verdict(c_ok)),
    (f"(d) peak RSS, {int(mem['edits']):,} pending local edits ({int(mem['updates']):,} updates)", f"{d_mb:.0f} MB ({d_how})", "< 300 MB", verdict(d_ok)),
]
header = ("measurement", "figure", "target", "result")
widths = [max(len(str(row[i])) for row in rows + [header]) for i in range(len(header))]
line = lambda row: "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip()
print(f"editing runtime: {maprules}, {runtimebench}; {int(load['rows']):,} rows loaded in-process in {float(load['seconds']):.1f} s")
print(line(header))
print(line(["-" * w for w in widths]))
for row in rows:
    print(line(row))
print(f"(a) every run: {a_all} features/s; making the local adds (createFeature + add): {add_rates} features/s; both: {both_rates} features/s")
print(f"(b) making the edits: {int(overlay['updates']):,} updates in {float(overlay['update_seconds']):.2f} s, {int(overlay['adds']):,} adds in {float(overlay['add_seconds']):.2f} s")
print(f"(c) {c_requests} HTTP requests a run, {c_mean / int(steps) * 1000:.1f} ms a step")
print(f"(d) resident {base_mb:.0f} MB once loaded, {after_mb:.0f} MB with the edits (+{after_mb - base_mb:.0f} MB); edits made in {float(mem['edit_seconds']):.1f} s")
print(f"load average (1, 5, 15 min) at the start of (a)/(b): {ab_load.removeprefix('load ')}; (c): {c_load.removeprefix('load ')}; (d): {d_load.removeprefix('load ')}")
print(f"RESULT: {'PASS' if a_ok and b_ok and c_ok and d_ok else 'FAIL'} ({sum([a_ok, b_ok, c_ok, d_ok])} of 4 targets met)")
PY
cat "$work/table.txt"
printf '%s\n' "$e_row"
if (( strict )) && { grep -q '^RESULT: FAIL' "$work/table.txt" || (( !e_ok )); }; then
    exit 1
fi
exit 0
