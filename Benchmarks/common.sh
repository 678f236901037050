# What the benchmark scripts share; sourced by them (`source "$repo/Benchmarks/common.sh" NAME`), never run.
# Defines say/die (messages on standard error prefixed with NAME; die exits 2, "could not run"), puts the
# toolchain of /opt/swift on PATH when swift is not already there, and offers:
#   bench_parse_arguments "OPTIONS" "$@"      --strict (strict=1), --regenerate (regenerate=1, when OPTIONS
#                                             names it), --help (the calling script's header); else exit 2
#   bench_positive_integers "WHAT" VALUE...   die unless every VALUE is a positive whole number
#   bench_install_tool TOOL LOG               apt-get install TOOL when missing (as root, unless BENCH_NO_INSTALL)
#   bench_release_binaries LOG PRODUCT...     build the products in release, or take $MAPRULES (and $SCHEMABENCH);
#                                             sets bench_bin to the folder of the binaries

bench_name="$1"

say() { printf '%s: %s\n' "$bench_name" "$*" >&2; }
die() { say "$*"; exit 2; }

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then export PATH="/opt/swift/usr/bin:$PATH"; fi

bench_parse_arguments() {
    local options="$1" arg
    shift
    strict=0
    regenerate=0
    for arg in "$@"; do
        case "$arg" in
            --strict) strict=1 ;;
            --regenerate)
                [[ " $options " == *" --regenerate "* ]] || die "unknown argument '$arg' (try --help)"
                regenerate=1 ;;
            -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[-1]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
            *) die "unknown argument '$arg' (try --help)" ;;
        esac
    done
}

bench_positive_integers() {
    local what="$1" value
    shift
    for value in "$@"; do
        [[ "$value" =~ ^[1-9][0-9]*$ ]] || die "$what must be positive whole numbers, got '$value'"
    done
}

# Installs TOOL (a Debian package of the same name) when it is missing and the script may: root, apt-get
# present, BENCH_NO_INSTALL unset. Returns 1 when the tool is still missing afterwards.
bench_install_tool() {
    local tool="$1" log="$2"
    command -v "$tool" >/dev/null 2>&1 && return 0
    if [[ -z "${BENCH_NO_INSTALL:-}" ]] && command -v apt-get >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
        say "installing $tool (apt-get install -y $tool) ..."
        if ! { apt-get install -y "$tool" || { apt-get update && apt-get install -y "$tool"; }; } > "$log" 2>&1; then
            tail -5 "$log" >&2
        fi
    fi
    command -v "$tool" >/dev/null 2>&1
}

# The binaries to measure: $MAPRULES when set (nothing is built), else a release build of each PRODUCT.
bench_release_binaries() {
    local log="$1" product
    shift
    if [[ -n "${MAPRULES:-}" ]]; then
        [[ -x "$MAPRULES" ]] || die "MAPRULES=$MAPRULES is not an executable"
        bench_bin="$(dirname "$MAPRULES")"
        say "measuring $MAPRULES (MAPRULES; not built here)"
        return 0
    fi
    command -v swift >/dev/null 2>&1 || die "swift not found on PATH (nor /opt/swift/usr/bin); or set MAPRULES to a built binary"
    for product in "$@"; do
        say "building $product (release) ..."
        if ! swift build -c release --product "$product" > "$log" 2>&1; then
            tail -30 "$log" >&2
            die "swift build -c release --product $product failed (output above)"
        fi
    done
    bench_bin="$(swift build -c release --show-bin-path)"
}

# A `maprules serve` in the background: bench_start_server LOG_DIR ARGS... starts it (sets server_pid), waits up to
# 120 s for the port it prints and sets `port`; bench_stop_server stops it (SIGTERM, then SIGKILL after 10 s).
# Scripts call bench_stop_server from their EXIT trap.
server_pid=""
port=""
bench_start_server() {
    local logs="$1"
    shift
    "$@" > "$logs/serve.out" 2> "$logs/serve.err" &
    server_pid=$!
    port=""
    for _ in $(seq 1 480); do
        port="$(sed -n 's/^  port: \([0-9][0-9]*\)$/\1/p' "$logs/serve.out" | head -1)"
        [[ -n "$port" ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || { tail -20 "$logs/serve.out" "$logs/serve.err" >&2; die "maprules serve exited before listening (log above)"; }
        sleep 0.25
    done
    tail -20 "$logs/serve.out" "$logs/serve.err" >&2
    die "maprules serve did not print its port within 120 s"
}
bench_stop_server() {
    [[ -n "$server_pid" ]] || return 0
    kill -TERM "$server_pid" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
}
