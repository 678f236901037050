#!/usr/bin/env bash
# Compares, in one run on the same schema and the same files, how fast web maps are validated against
# Schemas/webmap.schema.json by
#   (a) maprules validate --schema webmap DIR              (release build; the whole command)
#   (b) check-jsonschema --schemafile webmap.bundle.json    (PyPI; python-jsonschema underneath)
#   (c) jsonschema-rs from Python                           (PyPI; read + json.loads + iter_errors per file)
# all pinned to one core; then, for scale, validation alone (documents parsed beforehand) for maprules
# (SchemaBench) and jsonschema-rs, maprules validate on every core, and `maprules lint` against validation alone
# (target: lint no slower than 1.5 x validate). Prints a table of MB/s and ratios.
#
# The files: the 1,000 maps of ~100 KB in Benchmarks/generated/ that Benchmarks/lint-throughput.sh uses (reused
# when present; made with Benchmarks/generate_webmaps.py when that exists; otherwise generated here from
# Samples/ by a small built-in generator). The Python tools are installed with pip into Benchmarks/.venv
# (git-ignored). The schema for (b) and (c) is webmap.schema.json with the shipped schemas it refers to
# (popup, layer) embedded as resources under their own $id, so no tool fetches anything; maprules validates
# that same bundle in the sanity check.
#
#   Benchmarks/schema-throughput.sh               # build, install, measure, print the table
#   Benchmarks/schema-throughput.sh --strict      # also exit 1 when a target is missed
#
# Environment: BENCH_MAPS (default 1000), BENCH_MAP_KB (default 100), BENCH_RUNS (timed runs of the fast
#   commands, best kept; default 5), BENCH_SLOW_RUNS (runs of check-jsonschema; default 1), MAPRULES and
#   SCHEMABENCH (prebuilt binaries; skip the build), BENCH_NO_INSTALL=1 (never pip install; missing tools are
#   reported as skipped).
# Exit: 0 measured (and, with --strict, targets met); 1 a target missed under --strict; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

maps="${BENCH_MAPS:-1000}"
map_kb="${BENCH_MAP_KB:-100}"
runs="${BENCH_RUNS:-5}"
slow_runs="${BENCH_SLOW_RUNS:-1}"
generated="Benchmarks/generated"
venv="Benchmarks/.venv"

source "$repo/Benchmarks/common.sh" schema-throughput.sh

bench_parse_arguments "--strict" "$@"
bench_positive_integers "BENCH_MAPS, BENCH_MAP_KB, BENCH_RUNS and BENCH_SLOW_RUNS" "$maps" "$map_kb" "$runs" "$slow_runs"
command -v python3 >/dev/null 2>&1 || die "python3 is needed"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- 1. The maps -------------------------------------------------------------------------------------------
list_maps() { find "$generated" -name '*.json' ! -name 'services.json' ! -name '*.services.json' -type f 2>/dev/null | sort; }
if [[ -n "$(list_maps | head -1)" ]]; then
    say "reusing the maps in $generated"
elif [[ -f Benchmarks/generate_webmaps.py ]]; then
    say "generating $maps maps of ~${map_kb} KB with Benchmarks/generate_webmaps.py ..."
    python3 Benchmarks/generate_webmaps.py --count "$maps" --size-kb "$map_kb" --out "$generated"
else
    say "generating $maps maps of ~${map_kb} KB from Samples/ (built-in generator) ..."
    python3 - "$maps" "$map_kb" "$generated" <<'PY'
import copy, json, os, random, sys
count, size_kb, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
samples = []
for name in ["TreesOfPortland", "DamageAssessment"]:
    base = os.path.join("Samples", name)
    web_map = json.load(open(os.path.join(base, name + ".json"), encoding="utf-8"))
    snapshot = json.load(open(os.path.join(base, name + ".services.json"), encoding="utf-8"))
    folder = os.path.join(base, "features")
    feature_sets = [json.load(open(os.path.join(folder, f), encoding="utf-8")) for f in sorted(os.listdir(folder))]
    samples.append((web_map, snapshot, [s for s in feature_sets if s.get("features")]))
services = {}
for _, snapshot, _ in samples:
    services.update(snapshot)
random.seed(7)
for i in range(count):
    web_map, _, feature_sets = samples[i % len(samples)]
    m = copy.deepcopy(web_map)
    layers = m.setdefault("operationalLayers", [])
    n = 0
    while len(json.dumps(m)) < size_kb * 1024:
        source = feature_sets[n % len(feature_sets)]
        features = []
        for j, feature in enumerate(source["features"] * 4):
            f = copy.deepcopy(feature)
            f.setdefault("attributes", {})[source.get("objectIdFieldName", "OBJECTID")] = j + 1
            geometry = f.get("geometry") or {}
            if "x" in geometry:
                geometry["x"] += random.uniform(-0.01, 0.01)
                geometry["y"] += random.uniform(-0.01, 0.01)
            features.append(f)
        layers.append({
            "id": f"collection_{i}_{n}", "title": f"Collection {n}", "layerType": "ArcGISFeatureLayer",
            "visibility": True, "opacity": 1,
            "featureCollection": {"layers": [{
                "layerDefinition": {"name": f"Collection {n}", "geometryType": source.get("geometryType", "esriGeometryPoint"),
                                    "objectIdField": source.get("objectIdFieldName", "OBJECTID"), "fields": []},
                "featureSet": {"geometryType": source.get("geometryType", "esriGeometryPoint"), "features": features}}]}})
        n += 1
    folder = os.path.join(out, f"batch-{i // 100:03d}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"map-{i:04d}.json"), "w", encoding="utf-8") as f:
        json.dump(m, f, indent=None if i % 2 else 2)
    if i % 100 == 0:
        with open(os.path.join(folder, "services.json"), "w", encoding="utf-8") as f:
            json.dump(services, f, indent=2)
PY
fi
mapfile -t files < <(list_maps)
(( ${#files[@]} > 0 )) || die "no maps in $generated"
bytes="$(cat "${files[@]}" | wc -c)"
say "${#files[@]} maps, $((bytes / 1000000)) MB"

# --- 2. The binaries ---------------------------------------------------------------------------------------
bench_release_binaries "$work/build.log" maprules SchemaBench
if [[ -n "${MAPRULES:-}" ]]; then
    maprules="$MAPRULES"
    schemabench="${SCHEMABENCH:-}"
else
    maprules="$bench_bin/maprules"
    schemabench="$bench_bin/SchemaBench"
fi

# --- 3. The Python tools -----------------------------------------------------------------------------------
python="$venv/bin/python"
have_tools=1
if ! { [[ -x "$python" ]] && "$python" -c 'import jsonschema_rs' 2>/dev/null && [[ -x "$venv/bin/check-jsonschema" ]]; }; then
    if [[ -n "${BENCH_NO_INSTALL:-}" ]]; then
        have_tools=0
    else
        say "installing jsonschema-rs and check-jsonschema into $venv ..."
        { [[ -x "$python" ]] || python3 -m venv "$venv"; } > "$work/venv.log" 2>&1 \
            && "$venv/bin/pip" install --quiet jsonschema-rs check-jsonschema >> "$work/venv.log" 2>&1 \
            || { tail -5 "$work/venv.log" >&2; say "could not install the Python tools: (b) and (c) are skipped"; have_tools=0; }
    fi
fi
tool_versions="not installed"
if (( have_tools )); then
    tool_versions="$("$python" -c 'import importlib.metadata as m; print("jsonschema-rs", m.version("jsonschema-rs"), "/ check-jsonschema", m.version("check-jsonschema"), "/ jsonschema", m.version("jsonschema"))')"
fi

# --- 4. One self-contained schema for every tool -----------------------------------------------------------
python3 - "$work/webmap.bundle.json" <<'PY'
import json, sys
schema = json.load(open("Schemas/webmap.schema.json", encoding="utf-8"))
refs = json.dumps(schema)
defs = schema.setdefault("$defs", {})
for name in ["popup", "layer", "services-snapshot"]:
    other = json.load(open(f"Schemas/{name}.schema.json", encoding="utf-8"))
    if other["$id"] in refs:
        defs["maprules-" + name] = other
json.dump(schema, open(sys.argv[1], "w", encoding="utf-8"), indent=1)
PY
bundle="$work/webmap.bundle.json"
printf '%s\n' "${files[@]}" > "$work/files.txt"

# --- 5. Sanity: every tool sees the same valid and invalid files ----------------------------------------------
set +e
"$maprules" validate --schema "$bundle" --format json "${files[@]}" > "$work/bundle.json" 2> "$work/err"
status_bundle=$?
"$maprules" validate --schema webmap --format json "${files[@]}" > "$work/shipped.json" 2>> "$work/err"
status_shipped=$?
set -e
(( status_bundle <= 1 && status_shipped <= 1 )) || { tail -5 "$work/err" >&2; die "maprules validate failed"; }
maprules_invalid="$(python3 -c '
import json, sys
counts = [sum(1 for f in json.load(open(p))["files"] if f["diagnostics"]) for p in sys.argv[1:]]
assert counts[0] == counts[1], f"bundle and shipped schema disagree: {counts}"
print(counts[0])' "$work/bundle.json" "$work/shipped.json")" || die "the bundled schema and the shipped one disagree"
cat > "$work/rs.py" <<'PY'
import json, sys, time, jsonschema_rs
mode, schema_path, list_path, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
validator = jsonschema_rs.validator_for(json.load(open(schema_path, encoding="utf-8")), validate_formats=False)
paths = open(list_path).read().split()
if mode == "count":
    invalid = 0
    for p in paths:
        with open(p, "rb") as f:
            invalid += 0 if validator.is_valid(json.loads(f.read())) else 1
    print(invalid)
elif mode == "validate-only":
    documents = []
    for p in paths:
        with open(p, "rb") as f:
            documents.append(json.loads(f.read()))
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        for d in documents:
            for _ in validator.iter_errors(d):
                pass
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print(f"{best:.6f}")
else:
    for p in paths:
        with open(p, "rb") as f:
            for _ in validator.iter_errors(json.loads(f.read())):
                pass
PY
if (( have_tools )); then
    rs_invalid="$("$python" "$work/rs.py" count "$bundle" "$work/files.txt" 1)"
    [[ "$rs_invalid" == "$maprules_invalid" ]] || say "warning: jsonschema-rs finds $rs_invalid invalid maps, maprules $maprules_invalid"
fi
say "sanity: maprules finds $maprules_invalid of ${#files[@]} maps violating the schema"

# --- 6. Measurements ---------------------------------------------------------------------------------------
# Runs a command N times with stdout to /dev/null; prints the best wall time in seconds. Exit 0 and 1 are
# both fine (1: violations found).
time_command() {
    python3 - "$@" <<'PY'
import subprocess, sys, time
runs, command = int(sys.argv[1]), sys.argv[2:]
best = None
for _ in range(runs):
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        sys.stderr.write(done.stderr.decode("utf-8", "replace")[-2000:])
        sys.exit(f"'{' '.join(command[:4])} ...' exited with {done.returncode}")
    best = elapsed if best is None else min(best, elapsed)
print(f"{best:.6f}")
PY
}
one_core=(taskset -c 0)
if ! command -v taskset >/dev/null 2>&1 || ! taskset -c 0 true 2>/dev/null; then
    say "warning: taskset unavailable; the one-core figures run unpinned"
    one_core=()
fi

# maprules is given the folder (it leaves services snapshots to their own schema); the Python tools the list.
# (a) and (c) run in turns, so that a busy moment on a shared machine does not favour either.
min_of() { python3 -c 'import sys; print(min(float(x) for x in sys.argv[1:]))' "$@"; }
a_times=() c_times=()
b="" c="" rs_only=""
for ((i = 1; i <= runs; i++)); do
    say "(a) maprules validate --schema webmap $generated, one core, run $i of $runs ..."
    a_times+=("$(time_command 1 "${one_core[@]}" "$maprules" validate --schema webmap --format json "$generated")")
    if (( have_tools )); then
        say "(c) jsonschema-rs (Python: read, json.loads, iter_errors), one core, run $i of $runs ..."
        c_times+=("$(time_command 1 "${one_core[@]}" "$python" "$work/rs.py" run "$bundle" "$work/files.txt" 1)")
    fi
done
a="$(min_of "${a_times[@]}")"
if (( have_tools )); then
    c="$(min_of "${c_times[@]}")"
    say "(b) check-jsonschema, one core, best of $slow_runs (slow) ..."
    b="$(time_command "$slow_runs" "${one_core[@]}" "$venv/bin/check-jsonschema" --schemafile "$bundle" --disable-formats '*' -o text "${files[@]}")"
    say "validation alone: jsonschema-rs on parsed documents, one core ..."
    rs_only="$("${one_core[@]}" "$python" "$work/rs.py" validate-only "$bundle" "$work/files.txt" "$runs")"
fi
sb_only=""
if [[ -n "${schemabench:-}" && -x "${schemabench:-}" ]]; then
    say "validation alone: maprules' validator on parsed documents (SchemaBench), one core ..."
    sb_only="$("${one_core[@]}" "$schemabench" --schema webmap --runs "$runs" "${files[@]}" | sed -n 's/.*seconds=\([0-9.]*\).*/\1/p')"
fi
say "maprules validate on all $(nproc) cores, best of $runs ..."
all="$(time_command "$runs" "$maprules" validate --schema webmap --format json "$generated")"
say "maprules lint (every rule, schema/invalid included), one core, best of $runs ..."
lint="$(time_command "$runs" "${one_core[@]}" "$maprules" lint "$generated" --format json)"
lint_off="$(time_command "$runs" "${one_core[@]}" "$maprules" lint "$generated" --format json --rule schema/invalid=off)"

# --- 7. The table ------------------------------------------------------------------------------------------
python3 - "$bytes" "${#files[@]}" "$a" "${b:-}" "${c:-}" "${sb_only:-}" "${rs_only:-}" "$all" "$lint" "$lint_off" "$strict" "$tool_versions" <<'PY'
import sys
size, count = int(sys.argv[1]), int(sys.argv[2])
a, b, c, sb, rs, everything, lint, lint_off = [float(x) if x else None for x in sys.argv[3:11]]
strict, versions = sys.argv[11] == "1", sys.argv[12]
mb = size / 1e6
def rate(t): return f"{mb / t:8.1f}" if t else "       -"
def ratio(t): return f"{t / a:6.2f}x" if t and a else "      -"
print(f"\nSchema validation of {count} web maps ({mb:.1f} MB) against Schemas/webmap.schema.json")
print(f"tools: {versions}\n")
print(f"{'':58} {'seconds':>8} {'MB/s':>8} {'time vs (a)':>11}")
rows = [
    ("(a) maprules validate --schema webmap DIR (1 core)", a),
    ("(b) check-jsonschema --disable-formats '*' (1 core)", b),
    ("(c) jsonschema-rs: read + json.loads + iter_errors (1 core)", c),
    ("    maprules validate, all cores", everything),
    ("    validation alone: maprules validator (1 core)", sb),
    ("    validation alone: jsonschema-rs (1 core)", rs),
    ("    maprules lint, every rule (1 core)", lint),
    ("    maprules lint, schema/invalid off (1 core)", lint_off),
]
for name, t in rows:
    print(f"{name:58} {t if t else float('nan'):8.3f} {rate(t)} {ratio(t):>11}")
print()
missed = []
if c:
    print(f"(a) vs jsonschema-rs end to end: {c / a:.2f}x as fast (target: at least 1x)")
    if c / a < 1: missed.append("maprules validate is slower than jsonschema-rs")
if b: print(f"(a) vs check-jsonschema: {b / a:.1f}x as fast")
if sb and rs: print(f"validator alone vs jsonschema-rs alone: {rs / sb:.2f}x as fast")
print(f"lint / validate: {lint / a:.2f} (target: at most 1.5); lint without schema/invalid: {lint_off / a:.2f}")
if lint / a > 1.5: missed.append("maprules lint takes more than 1.5x validation alone")
for m in missed: print("MISSED: " + m)
sys.exit(1 if strict and missed else 0)
PY
