#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and benchmarks: `start` makes one in a new temporary folder
# (initdb, trust authentication, listening on 127.0.0.1 at a port the OS chose, and on a Unix socket in the
# folder), prints `export` lines for MAPRULES_POSTGRES_URL and MAPRULES_POSTGRES_DIR; `stop DIR` stops it and
# deletes the folder. Installs PostgreSQL from Debian's packages when it is missing.
#
#   eval "$(bash Scripts/postgres-throwaway.sh start)"
#   swift test ... ; bash Scripts/postgres-throwaway.sh stop "$MAPRULES_POSTGRES_DIR"
set -euo pipefail

bin_dir() {
    local d
    d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
    if [ -z "$d" ]; then
        echo "installing PostgreSQL from Debian's packages" >&2
        apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
        d="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)"
    fi
    echo "$d"
}

# Runs a PostgreSQL program as the `postgres` user when we are root (initdb refuses root).
as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
start)
    bin="$(bin_dir)"
    dir="$(mktemp -d "${TMPDIR:-/tmp}/maprules-pg.XXXXXX")"
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        start >&2 || { cat "$dir/server.log" >&2; exit 1; }
    echo "export MAPRULES_POSTGRES_URL=postgres://postgres@127.0.0.1:$port/maprules"
    echo "export MAPRULES_POSTGRES_DIR=$dir"
    ;;
stop)
    dir="${2:?usage: stop DIR}"
    bin="$(bin_dir)"
    as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
*)
    echo "usage: $0 start | stop DIR" >&2
    exit 2
    ;;
esac
