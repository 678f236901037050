#!/usr/bin/env bash
# Measures offline sync (issue 13 item 5) over loopback HTTP against `maprules serve`:
#   (a) `maprules offline generate` of a 100,000-feature layer (Bench100k layer 0, no attachments): the whole
#       command's wall time; target < 20 s; and the local file's size per feature
#   (b) `maprules offline sync FILE --direction upload` of 10,000 offline edits (adds written into the file by
#       `RuntimeBench offline-edits`): the whole command's wall time; target < 10 s; every add checked on the
#       service afterwards (the layer grew by 10,000)
# The service runs `maprules serve Bench100k --database :memory:` signed in as admin (Bench100k is the
# branch-versioned DamageAssessment grown to 100,000 rows: the replica belongs to the default version, which
# the administrator may edit).
# Data: Benchmarks/generated-runtime/folders/Bench100k, made by Benchmarks/runtime-throughput.sh (run it once
# first, or pass --regenerate here to make it through that script's generator).
#
#   Benchmarks/offline-sync.sh              # build release if needed, measure, print the table
#   Benchmarks/offline-sync.sh --strict     # also exit 1 when a target is missed
#   MAPRULES=/path/to/maprules Benchmarks/offline-sync.sh
#
# Options: --strict  --regenerate  --help
# Environment: MAPRULES (a prebuilt maprules; skips the build), RUNTIMEBENCH (default: beside MAPRULES).
# Time: about 1 minute after the release build. Exit: 0 measured (with --strict: and every target met); 1 a
# target missed under --strict; 2 could not run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
source "$repo/Benchmarks/common.sh" offline-sync.sh
bench_parse_arguments "--strict --regenerate" "$@"

edits=10000
folder="Benchmarks/generated-runtime/folders/Bench100k"
if (( regenerate )) || [[ ! -f "$folder/features/0.json" ]]; then
    python3 Benchmarks/service_bench.py folders Benchmarks/generated-runtime/folders 100000 1 || die "generating $folder failed"
    rm -rf Benchmarks/generated-runtime/folders/Bench1k Benchmarks/generated-runtime/folders/Bench1M
fi
[[ -f "$folder/features/0.json" ]] || die "no $folder (run Benchmarks/runtime-throughput.sh once, or pass --regenerate)"

work="$(mktemp -d)"
trap 'bench_stop_server; rm -rf "$work"' EXIT

bench_release_binaries "$work/build.log" maprules RuntimeBench
maprules="${MAPRULES:-$bench_bin/maprules}"
runtimebench="${RUNTIMEBENCH:-$(dirname "$maprules")/RuntimeBench}"
[[ -x "$runtimebench" ]] || die "no RuntimeBench at $runtimebench"

say "starting $maprules serve $folder --database :memory: (loads 100,000 rows) ..."
bench_start_server "$work" "$maprules" serve "$folder" --host 127.0.0.1 --port 0 --database :memory: --users Samples/users.json
url="http://127.0.0.1:$port/arcgis/rest/services/Bench100k/FeatureServer"
credentials=(--user admin --password sample-admin)
load_note() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'; }
now() { date +%s.%N; }

# (a) generate
file="$work/bench.geodatabase"
a_load="$(load_note)"
start="$(now)"
"$maprules" offline generate --service "$url" --output "$file" --layers 0 --no-attachments --format json --progress never \
    "${credentials[@]}" > "$work/generate.json" 2> "$work/generate.err" || { cat "$work/generate.err" >&2; die "(a) generate failed"; }
a_seconds="$(python3 -c "print(f'{$(now) - $start:.2f}')")"
features="$(python3 -c "import json,sys; d=json.load(open('$work/generate.json')); print(d['layers'][0]['features'])")"
(( features == 100000 )) || die "(a) the file holds $features features, 100000 expected"
bytes="$(stat -c %s "$file")"
per_feature="$(python3 -c "print(round($bytes / $features))")"
say "(a) generate: $a_seconds s, $features features, $bytes bytes ($per_feature bytes a feature; load $a_load)"

# (b) 10,000 offline edits, then an upload
"$runtimebench" offline-edits --file "$file" --adds "$edits" > "$work/edits.txt" || die "(b) RuntimeBench offline-edits failed"
b_load="$(load_note)"
start="$(now)"
"$maprules" offline sync "$file" --direction upload --format json --progress never "${credentials[@]}" > "$work/sync.json" 2> "$work/sync.err" \
    || { cat "$work/sync.err" >&2; die "(b) sync failed"; }
b_seconds="$(python3 -c "print(f'{$(now) - $start:.2f}')")"
uploaded="$(python3 -c "import json; print(json.load(open('$work/sync.json'))['uploaded']['adds'])")"
(( uploaded == edits )) || die "(b) uploaded $uploaded adds, $edits expected"
count="$(curl -s "$url/0/query?where=1%3D1&returnCountOnly=true&f=json&token=$(curl -s -d "username=admin&password=sample-admin&f=json" "http://127.0.0.1:$port/arcgis/tokens/generateToken" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["count"])')"
(( count == 100000 + edits )) || die "(b) the service layer holds $count features after the upload, $((100000 + edits)) expected"
say "(b) upload of $edits offline adds: $b_seconds s (load $b_load); the layer now holds $count features"

missed=0
verdict() { python3 -c "import sys; sys.exit(0 if $1 < $2 else 1)" && echo met || { missed=1; echo MISSED; }; }
a_verdict="$(verdict "$a_seconds" 20)"
b_verdict="$(verdict "$b_seconds" 10)"
printf '\n| figure | measured | target | |\n|---|---|---|---|\n'
printf '| (a) generate 100,000 features (loopback) | %s s | < 20 s | %s |\n' "$a_seconds" "$a_verdict"
printf '| (a) local file size | %s bytes a feature | report | |\n' "$per_feature"
printf '| (b) upload of 10,000 offline edits (loopback) | %s s | < 10 s | %s |\n' "$b_seconds" "$b_verdict"
if (( strict && missed )); then exit 1; fi
