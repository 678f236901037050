#!/usr/bin/env bash
# Fuzzes the two matching engines that hostile input reaches with libFuzzer (issue 31): `regex` is JSON
# Schema's `pattern` / `patternProperties` engine (Sources/FuzzRegex: ICU under a step budget; input = pattern,
# a line feed, then the text), `glob` the `.maprules.json` override glob matcher (Sources/FuzzGlob; input =
# glob, a line feed, then the path; checked against the backtracking definition where that is cheap). A crash,
# sanitizer report or timeout (-timeout=10: a match the budget does not bound) stops the run, saves the input
# under Benchmarks/fuzz/ENGINE-crashes/ and fails the script.
#
#   Benchmarks/fuzz-engines.sh regex                    # build, seed, fuzz for 60 s
#   FUZZ_SECONDS=600 Benchmarks/fuzz-engines.sh glob    # longer; extra arguments go to libFuzzer as they are
#
# Environment: FUZZ_SECONDS (default 60), FUZZ_MAX_LEN (default 4096), FUZZ_CONFIG debug|release (default debug),
#   FUZZ_CORPUS (the growing corpus, default .build-fuzz/ENGINE-corpus).
# Seeds: Benchmarks/fuzz/ENGINE-seeds/.
# Exit: 0 no crash; 1 a crash (its input's path is printed); 2 could not build or run.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
case "${1:-}" in
    -h|--help|"") sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; [[ -n "${1:-}" ]]; exit $? ;;
    regex) product=FuzzRegex ;;
    glob) product=FuzzGlob ;;
    *) printf 'fuzz-engines.sh: unknown engine %s (regex or glob)\n' "$1" >&2; exit 2 ;;
esac
engine="$1"
shift
seconds="${FUZZ_SECONDS:-60}"
max_len="${FUZZ_MAX_LEN:-4096}"
config="${FUZZ_CONFIG:-debug}"
scratch=".build-fuzz"
corpus="${FUZZ_CORPUS:-$scratch/$engine-corpus}"
seeds="Benchmarks/fuzz/$engine-seeds"
crashes="Benchmarks/fuzz/$engine-crashes"
log="$scratch/fuzz-$engine.log"
# shellcheck source=Benchmarks/fuzz-common.sh
source Benchmarks/fuzz-common.sh

say() { printf 'fuzz-engines.sh %s: %s\n' "$engine" "$*" >&2; }
die() { say "$*"; exit 2; }
[[ "$seconds" =~ ^[0-9]+$ ]] || die "FUZZ_SECONDS must be a whole number of seconds, got '$seconds'"
[[ "$config" == debug || "$config" == release ]] || die "FUZZ_CONFIG must be debug or release, got '$config'"

# 1. Build.
fuzz_build "$scratch/build-$engine.log"
mkdir -p "$corpus" "$crashes"
say "seeds: $(find "$seeds" -type f | wc -l) files; corpus: $(find "$corpus" -type f | wc -l) files"

# 2. Fuzz. -detect_leaks=0: compiled schemas and ICU's caches live for the process.
fuzz_run "$@"
