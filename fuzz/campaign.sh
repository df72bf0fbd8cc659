#!/bin/sh
# Long libFuzzer campaign (fuzz/README.md): one target at a time, so a shared machine never
# runs more than one fuzzer process. Each target keeps its growing corpus between runs.
#
#   fuzz/campaign.sh [SECONDS_PER_TARGET] [TARGET...]      # default: 300 s, all targets
#   BUILD_DIR=build-fuzz-lf fuzz/campaign.sh 3600 roundtrip
#
# Output in $BUILD_DIR/campaign/: <target>.log, corpus/<target>/ (new inputs; the committed
# fuzz/corpus is only read), artifacts/<target>/ (crashes, leaks, timeouts), summary.txt.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FUZZ="$ROOT/fuzz"
# Each target's dictionary: fuzz/<target>.dict for the text targets, else the wire format's.
dict_for() { if [ -f "$FUZZ/$1.dict" ]; then echo "$FUZZ/$1.dict"; else echo "$FUZZ/smc.dict"; fi; }
BUILD_DIR=${BUILD_DIR:-$ROOT/build-fuzz-lf}
CLANG=${CLANG:-/usr/bin/clang}
SECONDS_PER_TARGET=${1:-300}
[ $# -gt 0 ] && shift
TARGETS=${*:-decode roundtrip call envelope reader_vs_tree notation vectors}
OUT="$BUILD_DIR/campaign"

CC=$CLANG cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSMC_FUZZ_ENGINE=libfuzzer -DSMC_BUILD_FUZZERS=ON -DSMC_BUILD_TESTS=OFF \
    -DSMC_BUILD_CLI=ON -DSMC_BUILD_BENCH=OFF > /dev/null
targets=""
for t in $TARGETS; do targets="$targets ${t}_fuzzer"; done
# shellcheck disable=SC2086
cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target $targets > /dev/null

mkdir -p "$OUT"
summary="$OUT/summary.txt"
printf '%-16s %8s %10s %12s %8s %8s %8s  %s\n' target seconds execs/s execs cov ft corpus result | tee "$summary"
status=0
for t in $TARGETS; do
    mkdir -p "$OUT/corpus/$t" "$OUT/artifacts/$t"
    log="$OUT/$t.log"
    if "$BUILD_DIR/fuzz/${t}_fuzzer" -max_total_time="$SECONDS_PER_TARGET" -rss_limit_mb=2048 \
        -max_len=4096 -timeout=10 -use_value_profile=1 -print_final_stats=1 \
        -dict="$(dict_for "$t")" -artifact_prefix="$OUT/artifacts/$t/" \
        "$OUT/corpus/$t" "$FUZZ/corpus/$t" $([ -d "$FUZZ/campaign-corpus/$t" ] && echo "$FUZZ/campaign-corpus/$t") \
        > "$log" 2>&1; then
        result=ok
    else
        result=FINDING
        status=1
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    corp=$(grep -o 'corp: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    printf '%-16s %8s %10s %12s %8s %8s %8s  %s\n' "$t" "$SECONDS_PER_TARGET" "${rate:-?}" \
        "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result" | tee -a "$summary"
    if [ "$result" != ok ]; then
        grep -E 'FUZZ_ASSERT|ERROR: |SUMMARY|runtime error|Test unit written' "$log" | head -8 | tee -a "$summary"
    fi
done
exit $status
