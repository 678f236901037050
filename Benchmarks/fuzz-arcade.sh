#!/usr/bin/env bash
# Fuzzes Arcade's parser, analysis and evaluator with libFuzzer (Sources/FuzzArcade): every input is an expression,
# parsed, walked and evaluated in each profile. A crash, sanitizer report or timeout stops the run, saves the input
# under Benchmarks/fuzz/arcade-crashes/ and fails the script.
#
#   Benchmarks/fuzz-arcade.sh                    # build, seed, fuzz for 60 s
#   FUZZ_SECONDS=600 Benchmarks/fuzz-arcade.sh   # longer; extra arguments go to libFuzzer as they are
#
# Environment: FUZZ_SECONDS (default 60), FUZZ_MAX_LEN (default 16384), FUZZ_CONFIG debug|release (default debug),
#   FUZZ_CORPUS (the growing corpus, default .build-fuzz/arcade-corpus).
# Seeds: Benchmarks/fuzz/arcade-seeds/ and the expressions of every sample map (expressionInfos).
# Exit: 0 no crash; 1 a crash (its input's path is printed); 2 could not build or run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
seconds="${FUZZ_SECONDS:-60}"
max_len="${FUZZ_MAX_LEN:-16384}"
config="${FUZZ_CONFIG:-debug}"
scratch=".build-fuzz"
corpus="${FUZZ_CORPUS:-$scratch/arcade-corpus}"
seeds="$scratch/arcade-seeds"
crashes="Benchmarks/fuzz/arcade-crashes"
log="$scratch/fuzz-arcade.log"
product=FuzzArcade
# shellcheck source=Benchmarks/fuzz-common.sh
source Benchmarks/fuzz-common.sh

case "${1:-}" in -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
say() { printf 'fuzz-arcade.sh: %s\n' "$*" >&2; }
die() { say "$*"; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] || die "FUZZ_SECONDS must be a whole number of seconds, got '$seconds'"

# 1. Build.
fuzz_build "$scratch/build-arcade.log"

# 2. Seeds.
rm -rf "$seeds"
mkdir -p "$seeds" "$corpus" "$crashes"
cp Benchmarks/fuzz/arcade-seeds/* "$seeds"/
python3 - "$seeds" <<'PY' || die "could not extract the sample maps' expressions"
import glob, json, os, sys
n = 0
for path in sorted(glob.glob("Samples/**/*.json", recursive=True)):
    try:
        doc = json.load(open(path, encoding="utf-8"))
    except ValueError:
        continue
    for kind in ("operationalLayers", "tables"):
        for layer in doc.get(kind, []) if isinstance(doc, dict) and isinstance(doc.get(kind), list) else []:
            popup = layer.get("popupInfo") if isinstance(layer, dict) else None
            for info in (popup or {}).get("expressionInfos", []) or []:
                if isinstance(info, dict) and isinstance(info.get("expression"), str):
                    n += 1
                    open(os.path.join(sys.argv[1], f"sample-{n}.arcade"), "w", encoding="utf-8").write(info["expression"])
PY
say "seeds: $(find "$seeds" -type f | wc -l) files; corpus: $(find "$corpus" -type f | wc -l) files"

# 3. Fuzz.
fuzz_run "$@"
