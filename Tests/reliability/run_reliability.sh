#!/usr/bin/env bash
# Reliability checks of `maprules serve` (issue 4, item 5), against the real binary over HTTP on
# loopback, each server on a port chosen by the system (--port 0) and a fresh SQLite database file:
#   1. crash safety: batches of applyEdits adds, kill -9 at a random moment during a batch, restart on
#      the same file; every batch all or nothing, every acknowledged batch present (20 kills);
#   2. concurrent crews: 8 signed-in crews, each in its own branch version, edits overlapping on
#      purpose, reconcile + post with bounded retries; no edit lost, the last poster wins each
#      overlap, and every overlap was reported as a conflict.
# The checks are Tests/reliability/reliability.py (Python standard library only). Prints
# "N passed, N failed" last; exits 1 when anything failed.
#
# CI (.ci/run, after the real clients):   bash Tests/reliability/run_reliability.sh
# Bigger (batches of 2,000 adds, 5 crew rounds):   MAPRULES_RELIABILITY_SIZE=full bash Tests/reliability/run_reliability.sh
# Any option of reliability.py may follow, e.g. --seed N to repeat a run, --only crash.
# On PostgreSQL (every scenario on a new database of that server, plus scale-out: two servers on one
# database), with a throw-away cluster:
#     eval "$(bash Scripts/postgres-throwaway.sh start)"
#     bash Tests/reliability/run_reliability.sh          # MAPRULES_POSTGRES_URL set: --postgres "$MAPRULES_POSTGRES_URL"
#     bash Scripts/postgres-throwaway.sh stop "$MAPRULES_POSTGRES_DIR"
#
# Environment: PYTHON (default python3, 3.9+), MAPRULES_BIN (a built maprules; default: swift build
# --product maprules, then its bin path), MAPRULES_RELIABILITY_SIZE (ci, the default, or full),
# MAPRULES_POSTGRES_URL (when set: run on that PostgreSQL server instead of SQLite files).
# Databases and server logs are under .build-reliability/ (git-ignored).
set -uo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-python3}
WORK=.build-reliability
mkdir -p "$WORK/logs"

BIN=${MAPRULES_BIN:-}
if [ -z "$BIN" ]; then
    if ! swift build --product maprules > "$WORK/build.log" 2>&1; then
        echo "FAIL swift build --product maprules (see $WORK/build.log)"
        echo "0 passed, 1 failed"
        exit 1
    fi
    BIN="$(swift build --show-bin-path)/maprules"
fi

postgres=()
if [ -n "${MAPRULES_POSTGRES_URL:-}" ]; then
    postgres=(--postgres "$MAPRULES_POSTGRES_URL")
fi

exec "$PYTHON" Tests/reliability/reliability.py --bin "$BIN" --work "$WORK" --size "${MAPRULES_RELIABILITY_SIZE:-ci}" "${postgres[@]}" "$@"
