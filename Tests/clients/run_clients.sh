#!/usr/bin/env bash
# Real third-party clients against `maprules serve`, as CI runs them:
#   1. esri2geojson (PyPI package esridump) dumps every layer and table of both sample services over
#      HTTP; each dump must hold exactly the features of the sample file (TreesOfPortland/0: >= 20).
#   2. the arcgis package (ArcGIS API for Python) signs in to the portal facade over HTTPS (--tls, a
#      self-signed certificate, verify_cert=False), queries, edits with edit_features, and drives
#      branch versioning through VersionManager (Tests/clients/arcgis_client_test.py).
#   3. a few raw HTTP checks of token handling with curl (499 without a token, 498 with a bad one).
# Both servers run on loopback ports chosen by the system (--port 0) with in-memory databases, and are
# stopped with SIGINT at the end. With MAPRULES_POSTGRES_URL set (postgres://user@host:port/db), the same
# checks run a second time, each server on `serve --postgres` with a new database of that PostgreSQL server
# (c_<hex>, created by the server; dropped with psql at the end when those checks passed), their names
# prefixed "postgres: ". Prints "N passed, N failed" last; exits 1 when anything failed.
#
# CI (.ci/run, after `swift test`, which leaves .build/debug/maprules built):
#     bash Tests/clients/run_clients.sh
# Needs python3 with venv and pip (the image's CPython 3.11.7 has both), curl, and PyPI; it installs
# esridump and arcgis (2.4.x, about 300 MB with pandas, pyarrow and matplotlib) into the virtualenv itself.
# About 1.5 minutes with a warm pip cache, a few more on a new machine.
#
# Environment: PYTHON (default python3, 3.9+), MAPRULES_CLIENTS_VENV (default .build-clients/venv),
# MAPRULES_BIN (a built maprules; default: swift build --product maprules, then .build/debug/maprules),
# MAPRULES_POSTGRES_URL (also run on that PostgreSQL server; e.g. eval "$(bash Scripts/postgres-throwaway.sh start)").
set -uo pipefail
cd "$(dirname "$0")/../.."

PYTHON=${PYTHON:-python3}
VENV=${MAPRULES_CLIENTS_VENV:-.build-clients/venv}
LOGS=.build-clients/logs
mkdir -p "$LOGS"
passed=0
failed=0
# LABEL prefixes the check names of the PostgreSQL run ("postgres: ").
LABEL=""
pass() { passed=$((passed + 1)); echo "PASS $LABEL$1"; }
fail() { failed=$((failed + 1)); echo "FAIL $LABEL$1"; }
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit $?
}

# --- the clients, in a virtualenv of their own -------------------------------------------------
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV" || { fail "create the virtualenv $VENV with $PYTHON"; finish; }
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip > "$LOGS/pip.log" 2>&1
if "$VENV/bin/python" -m pip install --quiet esridump >> "$LOGS/pip.log" 2>&1; then
    have_esridump=1
else
    have_esridump=0; fail "pip install esridump (see $LOGS/pip.log)"
fi
if "$VENV/bin/python" -m pip install --quiet arcgis >> "$LOGS/pip.log" 2>&1; then
    have_arcgis=1
else
    have_arcgis=0; fail "pip install arcgis on $("$VENV/bin/python" --version 2>&1) (see $LOGS/pip.log)"
fi

# --- the server ------------------------------------------------------------------------------------
BIN=${MAPRULES_BIN:-}
if [ -z "$BIN" ]; then
    swift build --product maprules > "$LOGS/build.log" 2>&1 || { fail "swift build --product maprules (see $LOGS/build.log)"; finish; }
    BIN="$(swift build --show-bin-path)/maprules"
fi

pids=()
stop_servers() {
    for pid in "${pids[@]}"; do kill -INT "$pid" 2> /dev/null; done
    for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null; done
    pids=()
}
trap stop_servers EXIT

# Where each server keeps the service: STORE=memory, --database :memory:; STORE=postgres, --postgres with a
# new database of the MAPRULES_POSTGRES_URL server (c_<hex>, created by the server), noted in postgres_databases.
STORE=memory
postgres_databases=()
new_database() {
    "$PYTHON" -c 'import sys, urllib.parse, uuid
p = urllib.parse.urlsplit(sys.argv[1])
print(urllib.parse.urlunsplit((p.scheme, p.netloc, "/" + sys.argv[2], p.query, p.fragment)))' "$MAPRULES_POSTGRES_URL" "$1"
}

# start_server NAME [extra options...]: starts maprules serve on a free port on a new, empty store; sets PORT.
start_server() {
    local name=$1; shift
    local storage=(--database :memory:)
    if [ "$STORE" = postgres ]; then
        local database
        database="c_$("$PYTHON" -c 'import uuid; print(uuid.uuid4().hex[:12])')"
        postgres_databases+=("$database")
        storage=(--postgres "$(new_database "$database")")
    fi
    "$BIN" serve --port 0 "${storage[@]}" "$@" > "$LOGS/$name.out" 2> "$LOGS/$name.err" &
    pids+=($!)
    PORT=""
    for _ in $(seq 1 300); do
        PORT=$(sed -n 's/^  port: \([0-9]*\)$/\1/p' "$LOGS/$name.out" | head -n 1)
        [ -n "$PORT" ] && return 0
        kill -0 "${pids[-1]}" 2> /dev/null || break
        sleep 0.2
    done
    fail "start maprules serve ${storage[*]} $* (see $LOGS/$name.out and .err)"
    return 1
}

# run_checks: every check below, against servers on $STORE; logs named $PREFIX..., checks labelled $LABEL.
run_checks() {
    # --- esri2geojson over HTTP ---------------------------------------------------------------------------
    if start_server "${PREFIX}http"; then
        base="http://127.0.0.1:$PORT/arcgis"
        pass "maprules serve --port 0 printed its port ($PORT)"
        if [ "$have_esridump" = 1 ]; then
            for file in Samples/TreesOfPortland/features/*.json Samples/DamageAssessment/features/*.json; do
                service=$(basename "$(dirname "$(dirname "$file")")")
                layer=$(basename "$file" .json)
                expected=$("$VENV/bin/python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["features"]))' "$file")
                url="$base/rest/services/$service/FeatureServer/$layer"
                if "$VENV/bin/esri2geojson" "$url" - > "$LOGS/$PREFIX$service-$layer.geojson" 2> "$LOGS/$PREFIX$service-$layer.esridump.log"; then
                    got=$("$VENV/bin/python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["features"]))' "$LOGS/$PREFIX$service-$layer.geojson" 2>&1)
                else
                    got="esri2geojson failed: $(tail -n 1 "$LOGS/$PREFIX$service-$layer.esridump.log")"
                fi
                if [ "$got" = "$expected" ]; then
                    pass "esri2geojson $service/FeatureServer/$layer: $got features"
                else
                    fail "esri2geojson $service/FeatureServer/$layer: expected $expected features, got $got"
                fi
            done
            trees=$(grep -c '"type": *"Feature"' "$LOGS/${PREFIX}TreesOfPortland-0.geojson" 2> /dev/null || echo 0)
            if [ "$("$VENV/bin/python" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["features"]) >= 20)' "$LOGS/${PREFIX}TreesOfPortland-0.geojson" 2> /dev/null)" = True ]; then
                pass "esri2geojson prints every tree (at least 20)"
            else
                fail "esri2geojson prints every tree (at least 20): $trees"
            fi
        fi

        # Raw token checks (curl): 499 without a token on an edit, 498 with a bad one on a read.
        answer=$(curl -s -X POST "$base/rest/services/TreesOfPortland/FeatureServer/0/applyEdits" --data-urlencode 'adds=[]' -d f=json)
        case "$answer" in *'"code":499'*) pass "applyEdits without a token: 499";; *) fail "applyEdits without a token: $answer";; esac
        answer=$(curl -s "$base/rest/services/TreesOfPortland/FeatureServer/0/query?where=1%3D1&token=not-a-token&f=json")
        case "$answer" in *'"code":498'*) pass "query with a bad token: 498";; *) fail "query with a bad token: $answer";; esac
        answer=$(curl -s -H "X-Esri-Authorization: Bearer not-a-token" "$base/rest/services?f=json")
        case "$answer" in *'"code":498'*) pass "bad X-Esri-Authorization bearer token: 498";; *) fail "bad X-Esri-Authorization bearer token: $answer";; esac
    fi

    # --- the arcgis package over HTTPS -------------------------------------------------------------------
    if [ "$have_arcgis" = 1 ] && start_server "${PREFIX}https" --tls; then
        base="https://127.0.0.1:$PORT/arcgis"
        "$VENV/bin/python" Tests/clients/arcgis_client_test.py "$base" > "$LOGS/${PREFIX}arcgis.txt" 2>&1
        code=$?
        cat "$LOGS/${PREFIX}arcgis.txt" | grep -E '^(PASS|FAIL) ' | sed "s/^\\(PASS\\|FAIL\\) /\\1 ${LABEL}arcgis: /"
        n_pass=$(grep -c '^PASS ' "$LOGS/${PREFIX}arcgis.txt")
        n_fail=$(grep -c '^FAIL ' "$LOGS/${PREFIX}arcgis.txt")
        passed=$((passed + n_pass))
        failed=$((failed + n_fail))
        if [ "$code" -ne 0 ] && [ "$n_fail" -eq 0 ]; then
            fail "arcgis_client_test.py exited $code: $(tail -n 3 "$LOGS/${PREFIX}arcgis.txt" | tr '\n' ' ')"
        fi
    fi
    stop_servers
}

PREFIX=""
run_checks

# --- the same against PostgreSQL ---------------------------------------------------------------------
if [ -n "${MAPRULES_POSTGRES_URL:-}" ]; then
    failed_before=$failed
    STORE=postgres
    LABEL="postgres: "
    PREFIX="postgres-"
    echo "PostgreSQL run: maprules serve --postgres on $MAPRULES_POSTGRES_URL, a new database per server"
    run_checks
    crashes=$(grep -hE 'Program crashed|Fatal error|Assertion failed' "$LOGS"/postgres-*.err 2> /dev/null | head -n 3)
    if [ -z "$crashes" ]; then
        pass "no server crash reported"
    else
        fail "a server crash reported: $(echo "$crashes" | tr '\n' ' ')"
    fi
    LABEL=""
    if [ "$failed" -eq "$failed_before" ] && command -v psql > /dev/null; then
        for database in "${postgres_databases[@]}"; do
            psql "$(new_database postgres)" -X -q -c "DROP DATABASE IF EXISTS \"$database\" WITH (FORCE)" \
                > /dev/null 2>> "$LOGS/postgres-drop.log" || echo "note: could not drop $database (see $LOGS/postgres-drop.log)"
        done
    else
        echo "PostgreSQL databases kept: ${postgres_databases[*]}"
    fi
fi

stop_servers
# Every request was logged without secrets.
if grep -qE 'sample-editor01|token=' "$LOGS"/*.err; then
    fail "a password or token reached the request log"
else
    pass "no password or token in the request logs"
fi
finish
