# Sourced by the libFuzzer scripts of the package's harnesses (fuzz-arcade.sh, fuzz-engines.sh): the fuzz build of
# one harness and one bounded run of it. The caller defines `say` and `die` and the variables named below.

# Builds `$product` with -sanitize=fuzzer,address under -D FUZZING in `$scratch` (`$config`), its log in `$1`;
# sets `binary`. (As Benchmarks/fuzz.sh: `--defsym main=<Product>_main` calls libFuzzer's driver.)
fuzz_build() {
    local build_log="$1"
    say "building $product ($config, -sanitize=fuzzer,address) in $scratch ..."
    mkdir -p "$scratch"
    if ! swift build -c "$config" --scratch-path "$scratch" --product "$product" -j 2 \
            -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library -Xswiftc -DFUZZING > "$build_log" 2>&1; then
        grep -v 'Cannot export local symbol' "$build_log" | tail -40 >&2
        die "build failed (full log: $build_log)"
    fi
    binary="$(swift build -c "$config" --scratch-path "$scratch" --show-bin-path)/$product"
    [[ -x "$binary" ]] || die "no fuzzer binary at $binary"
}

# Runs `$binary` for `$seconds` over `$corpus` and `$seeds` (inputs up to `$max_len` bytes; extra arguments go to
# libFuzzer), its output in `$log`. A crash, sanitizer report or timeout saves the input under `$crashes` and
# exits 1; otherwise says OK.
fuzz_run() {
    local status found=()
    fuzz_marker="$(mktemp)"
    trap 'rm -f "$fuzz_marker"' EXIT
    export SWIFT_BACKTRACE=enable=no
    export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}"
    set +e
    "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -max_len="$max_len" \
        -artifact_prefix="$crashes/" -print_final_stats=1 "$@" "$corpus" "$seeds" > "$log" 2>&1
    status=$?
    set -e
    grep -Eo '^Done [0-9]+ runs in [0-9]+ second' "$log" | tail -1 >&2 || true
    mapfile -t found < <(find "$crashes" -type f -newer "$fuzz_marker" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
    if (( status != 0 )) || (( ${#found[@]} > 0 )); then
        say "FAILED: libFuzzer exited with $status"
        for input in "${found[@]}"; do say "crash input: $input (replay: swift run $product $input)"; done
        grep -m1 -A25 -E 'Fatal error|ERROR: (AddressSanitizer|libFuzzer)' "$log" >&2 || say "see $log"
        exit 1
    fi
    say "OK: no crash in ${seconds}s"
}
