#!/bin/sh
# AFL++ builds and campaigns for the fuzz targets (fuzz/README.md).
#
#   fuzz/afl.sh build                      build <target>_afl with afl-clang-fast (ASan+UBSan),
#                                          plus a CMPLOG build (input-to-state) that `run`/`bg`
#                                          pass with -c when it exists, and the structure-aware
#                                          mutator (smc_mutator.c) as a shared library that they
#                                          load for the wire targets (AFL_CUSTOM_MUTATOR_LIBRARY)
#   fuzz/afl.sh run TARGET [SECONDS]       fuzz in the foreground with afl-fuzz's live UI
#   fuzz/afl.sh bg TARGET [SECONDS]        fuzz in the background (no UI); watch with `status`
#   fuzz/afl.sh status                     afl-whatsup summary of background campaigns
#   fuzz/afl.sh stop                       stop the background campaign started by `bg`
#   fuzz/afl.sh tmin TARGET CRASH OUT      minimize a crashing input with afl-tmin
#   fuzz/afl.sh cmin TARGET                minimize the campaign queue into OUT_DIR/TARGET/cmin
#
# The targets are the engine-neutral LLVMFuzzerTestOneInput files; afl-clang-fast links
# AFL++'s libFuzzer-compatible driver (libAFLDriver), which runs them in persistent mode
# (__AFL_LOOP) with shared-memory test cases. Sanitizers come from AFL_USE_ASAN/AFL_USE_UBSAN.
# Seeds: fuzz/corpus/TARGET; dictionary: fuzz/smc.dict. Output: $OUT_DIR/TARGET (default
# build-fuzz-afl/out/TARGET). Run one campaign at a time on a shared machine.
set -eu

ROOT=$(cd "$(dirname "$0")/.." && pwd)
FUZZ="$ROOT/fuzz"
BUILD_DIR=${BUILD_DIR:-$ROOT/build-fuzz-afl}
OUT_DIR=${OUT_DIR:-$BUILD_DIR/out}
WIRE_TARGETS="decode roundtrip call envelope reader_vs_tree"
TARGETS="$WIRE_TARGETS notation vectors"

# afl-clang-fast wraps a clang; point it at Debian's (/opt/swift's clang comes first on PATH).
export AFL_CC=${AFL_CC:-/usr/bin/clang}
# Containers often lack CPU frequency scaling control and a core_pattern AFL likes.
export AFL_SKIP_CPUFREQ=1
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1

die() { echo "afl.sh: $*" >&2; exit 2; }

check_target() {
    for t in $TARGETS; do [ "$t" = "$1" ] && return 0; done
    die "unknown target '$1' (one of: $TARGETS)"
}

build() {
    command -v afl-clang-fast >/dev/null || die "afl-clang-fast not found (apt-get install afl++)"
    AFL_USE_ASAN=1 AFL_USE_UBSAN=1 CC=afl-clang-fast cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMC_FUZZ_ENGINE=afl -DSMC_FUZZ_SANITIZE=OFF \
        -DSMC_BUILD_FUZZERS=ON -DSMC_BUILD_TESTS=OFF -DSMC_BUILD_CLI=ON -DSMC_BUILD_BENCH=OFF >/dev/null
    targets=""
    for t in $TARGETS; do targets="$targets ${t}_afl"; done
    # shellcheck disable=SC2086
    AFL_USE_ASAN=1 AFL_USE_UBSAN=1 cmake --build "$BUILD_DIR" -j "${JOBS:-2}" --target $targets
    echo "afl.sh: built $(for t in $TARGETS; do printf '%s ' "$BUILD_DIR/fuzz/${t}_afl"; done)"
    # CMPLOG companions (no sanitizers, as AFL++ recommends) solve magic bytes and sizes.
    AFL_LLVM_CMPLOG=1 CC=afl-clang-fast cmake -S "$ROOT" -B "$BUILD_DIR-cmplog" -G Ninja \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMC_FUZZ_ENGINE=afl -DSMC_FUZZ_SANITIZE=OFF \
        -DSMC_BUILD_FUZZERS=ON -DSMC_BUILD_TESTS=OFF -DSMC_BUILD_CLI=ON -DSMC_BUILD_BENCH=OFF >/dev/null
    # shellcheck disable=SC2086
    AFL_LLVM_CMPLOG=1 cmake --build "$BUILD_DIR-cmplog" -j "${JOBS:-2}" --target $targets >/dev/null
    echo "afl.sh: CMPLOG builds in $BUILD_DIR-cmplog/fuzz/"
    # The mutator runs inside afl-fuzz, not in the target: plain clang, no instrumentation.
    "$AFL_CC" -std=c11 -O2 -g -shared -fPIC -o "$BUILD_DIR/fuzz/libsmc_mutator.so" \
        "$FUZZ/smc_mutator.c" "$FUZZ/mutator_afl.c"
    echo "afl.sh: structure-aware mutator $BUILD_DIR/fuzz/libsmc_mutator.so"
}

# The wire targets get the structure-aware mutator (AFL++ mixes it with its own mutations).
mutator_env() { # TARGET
    case " $WIRE_TARGETS " in
    *" $1 "*) [ -f "$BUILD_DIR/fuzz/libsmc_mutator.so" ] &&
        export AFL_CUSTOM_MUTATOR_LIBRARY="$BUILD_DIR/fuzz/libsmc_mutator.so" ;;
    esac
    return 0
}

binary() {
    b="$BUILD_DIR/fuzz/$1_afl"
    [ -x "$b" ] || die "$b missing; run: fuzz/afl.sh build"
    echo "$b"
}

fuzz_args() { # TARGET SECONDS
    set -- "$1" "${2:-}"
    dict="$FUZZ/smc.dict"
    [ -f "$FUZZ/$1.dict" ] && dict="$FUZZ/$1.dict"
    args="-i $FUZZ/corpus/$1 -o $OUT_DIR/$1 -x $dict -m none -t 1000+"
    [ -x "$BUILD_DIR-cmplog/fuzz/$1_afl" ] && args="$args -c $BUILD_DIR-cmplog/fuzz/$1_afl"
    [ -n "$2" ] && args="$args -V $2"
    echo "$args"
}

cmd=${1:-}
case "$cmd" in
build)
    build ;;
run)
    [ $# -ge 2 ] || die "usage: afl.sh run TARGET [SECONDS]"
    check_target "$2"; b=$(binary "$2"); mkdir -p "$OUT_DIR"
    # Resume when output exists, so a stopped campaign continues where it was.
    export AFL_AUTORESUME=1
    mutator_env "$2"
    # shellcheck disable=SC2046
    exec afl-fuzz $(fuzz_args "$2" "${3:-}") -- "$b" ;;
bg)
    [ $# -ge 2 ] || die "usage: afl.sh bg TARGET [SECONDS]"
    check_target "$2"; b=$(binary "$2"); mkdir -p "$OUT_DIR"
    if [ -f "$OUT_DIR/afl.pid" ] && kill -0 "$(cat "$OUT_DIR/afl.pid")" 2>/dev/null; then
        die "a background campaign is running (pid $(cat "$OUT_DIR/afl.pid")); fuzz/afl.sh stop first"
    fi
    export AFL_AUTORESUME=1 AFL_NO_UI=1
    mutator_env "$2"
    # shellcheck disable=SC2046
    nohup afl-fuzz $(fuzz_args "$2" "${3:-}") -- "$b" > "$OUT_DIR/$2.log" 2>&1 &
    echo $! > "$OUT_DIR/afl.pid"
    echo "afl.sh: $2 fuzzing in the background (pid $!, log $OUT_DIR/$2.log)"
    echo "afl.sh: watch it with: fuzz/afl.sh status   (or: watch -n 5 afl-whatsup -s $OUT_DIR)" ;;
status)
    [ -d "$OUT_DIR" ] || die "no campaign output in $OUT_DIR"
    afl-whatsup "$OUT_DIR" ;;
stop)
    [ -f "$OUT_DIR/afl.pid" ] || die "no background campaign recorded in $OUT_DIR/afl.pid"
    pid=$(cat "$OUT_DIR/afl.pid")
    kill -INT "$pid" 2>/dev/null && echo "afl.sh: stopped pid $pid" || echo "afl.sh: pid $pid not running"
    rm -f "$OUT_DIR/afl.pid" ;;
tmin)
    [ $# -eq 4 ] || die "usage: afl.sh tmin TARGET CRASH OUT"
    check_target "$2"; b=$(binary "$2")
    afl-tmin -m none -i "$3" -o "$4" -- "$b" ;;
cmin)
    [ $# -eq 2 ] || die "usage: afl.sh cmin TARGET"
    check_target "$2"; b=$(binary "$2")
    afl-cmin -m none -i "$OUT_DIR/$2/default/queue" -o "$OUT_DIR/$2/cmin" -- "$b" ;;
*)
    sed -n '2,18p' "$0"; exit 2 ;;
esac
