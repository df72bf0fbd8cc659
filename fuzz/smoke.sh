#!/bin/sh
# CI fuzz smoke step (fuzz/README.md): build the libFuzzer targets, run each one for a short,
# bounded time on its seed corpus, and replay fuzz/corpus/ and fuzz/regressions/.
# Prints execs/s, total execs and coverage per target; exits non-zero on any finding.
# Bounded to about a minute and a half on two cores (7 targets x SMOKE_SECONDS + build).
#
#   fuzz/smoke.sh                     # defaults: 7 s per target, build in build-fuzz-smoke/
#   SMOKE_SECONDS=5 BUILD_DIR=/tmp/b fuzz/smoke.sh
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FUZZ="$ROOT/fuzz"
# Each target's dictionary: fuzz/<target>.dict for the text targets, else the wire format's.
dict_for() { if [ -f "$FUZZ/$1.dict" ]; then echo "$FUZZ/$1.dict"; else echo "$FUZZ/smc.dict"; fi; }
BUILD_DIR=${BUILD_DIR:-$ROOT/build-fuzz-smoke}
SMOKE_SECONDS=${SMOKE_SECONDS:-7}
CLANG=${CLANG:-/usr/bin/clang}   # Debian's clang: /opt/swift's clang comes first on PATH
TARGETS="decode roundtrip call envelope reader_vs_tree notation vectors"
JOBS=${JOBS:-2}

start=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/smc-fuzz-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT

have_libfuzzer() {
    [ -x "$CLANG" ] || { echo "no $CLANG"; return 1; }
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' > "$work/probe.c"
    if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$work/probe.c" -o "$work/probe" 2> "$work/probe.log"; then
        echo "$CLANG cannot link -fsanitize=fuzzer,address,undefined: $(head -1 "$work/probe.log")"
        return 1
    fi
    return 0
}

if reason=$(have_libfuzzer); then
    engine=libfuzzer
    cc=$CLANG
else
    echo "smoke: SKIPPING the libFuzzer runs: $reason"
    echo "smoke: building the replay drivers only, with the default compiler"
    engine=none
    cc=${CC:-cc}
fi

echo "smoke: configuring $BUILD_DIR (engine=$engine, CC=$cc)"
CC=$cc cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSMC_FUZZ_ENGINE=$engine -DSMC_BUILD_FUZZERS=ON -DSMC_BUILD_TESTS=OFF \
    -DSMC_BUILD_CLI=ON -DSMC_BUILD_BENCH=OFF > "$work/configure.log" 2>&1 \
    || { cat "$work/configure.log"; exit 1; }
build_targets=""
for t in $TARGETS; do
    build_targets="$build_targets ${t}_replay"
    [ "$engine" = libfuzzer ] && build_targets="$build_targets ${t}_fuzzer"
done
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" -j "$JOBS" --target $build_targets > "$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; exit 1; }
echo "smoke: built in $(( $(date +%s) - start )) s"

status=0

# 1. Replay: every regression through every target, every corpus file through its target.
for t in $TARGETS; do
    if ! "$BUILD_DIR/fuzz/${t}_replay" "$FUZZ/regressions" "$FUZZ/corpus/$t" > "$work/replay.log" 2>&1; then
        echo "smoke: REPLAY FAILED for $t:"; tail -20 "$work/replay.log"; status=1
    else
        echo "smoke: replay $t: $(tail -1 "$work/replay.log" | sed 's/.*: //')"
    fi
done

# 2. Short libFuzzer runs. New inputs go to a scratch directory listed first, so the
# committed corpus is only read; crashes land in $work/artifacts and are reported.
if [ "$engine" = libfuzzer ]; then
    total=0
    printf '%-16s %10s %12s %8s %8s  %s\n' target execs/s execs cov ft result
    for t in $TARGETS; do
        mkdir -p "$work/new/$t" "$work/artifacts/$t"
        log="$work/$t.log"
        if "$BUILD_DIR/fuzz/${t}_fuzzer" -max_total_time="$SMOKE_SECONDS" -rss_limit_mb=1024 \
            -max_len=4096 -timeout=10 -print_final_stats=1 -dict="$(dict_for "$t")" \
            -artifact_prefix="$work/artifacts/$t/" "$work/new/$t" "$FUZZ/corpus/$t" > "$log" 2>&1; then
            result=ok
        else
            result=FINDING
            status=1
        fi
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
        cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
        ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
        printf '%-16s %10s %12s %8s %8s  %s\n' "$t" "${rate:-?}" "${execs:-?}" "${cov:-?}" "${ft:-?}" "$result"
        total=$((total + ${execs:-0}))
        if [ "$result" != ok ]; then
            grep -E 'FUZZ_ASSERT|ERROR: |SUMMARY|runtime error' "$log" | head -10
            for a in "$work/artifacts/$t/"*; do
                [ -f "$a" ] || continue
                keep="$BUILD_DIR/smoke-findings/$t-$(basename "$a")"
                mkdir -p "$BUILD_DIR/smoke-findings"; cp "$a" "$keep"
                echo "smoke: finding saved as $keep (see fuzz/README.md, 'Filing a regression')"
            done
        fi
    done
    echo "smoke: total executions: $total"
fi

echo "smoke: finished in $(( $(date +%s) - start )) s, $( [ $status -eq 0 ] && echo PASS || echo FAIL )"
exit $status
