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
#   fuzz/afl.sh campaign SECONDS [TARGET...]  one target after another (no UI, never two at
#                                          once), then a summary line per target from fuzzer_stats
#   fuzz/afl.sh corpus [TARGET...]         refresh fuzz/campaign-corpus/TARGET: afl-cmin of the
#                                          seeds + campaign corpus + queue, minus the seeds
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
    # -G: inputs up to 4 KiB, as the libFuzzer runs (-max_len=4096)
    args="-i $(seed_dir "$1") -o $OUT_DIR/$1 -x $dict -m none -t 1000+ -G 4096"
    [ -x "$BUILD_DIR-cmplog/fuzz/$1_afl" ] && args="$args -c $BUILD_DIR-cmplog/fuzz/$1_afl"
    [ -n "$2" ] && args="$args -V $2"
    echo "$args"
}

# "target execs execs/s edges/total crashes hangs" from a finished campaign's fuzzer_stats.
summary_line() { # TARGET
    f="$OUT_DIR/$1/default/fuzzer_stats"
    [ -f "$f" ] || { echo "$1 (no fuzzer_stats)"; return 0; }
    v() { sed -n "s/^$1 *: *//p" "$f"; }
    printf '%-16s %8s s %12s execs %8s/s  edges %s/%s  crashes %s  hangs %s\n' "$1" "$(v run_time)" \
        "$(v execs_done)" "$(v execs_per_sec)" "$(v edges_found)" "$(v total_edges)" \
        "$(v saved_crashes)" "$(v saved_hangs)"
}

# Seeds for afl-fuzz -i: the generated corpus plus the committed campaign corpus.
seed_dir() { # TARGET
    d="$OUT_DIR/seeds/$1"
    rm -rf "$d"; mkdir -p "$d"
    cp "$FUZZ/corpus/$1/"* "$d/" 2>/dev/null || true
    [ -d "$FUZZ/campaign-corpus/$1" ] && cp "$FUZZ/campaign-corpus/$1/"* "$d/" 2>/dev/null
    echo "$d"
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
campaign)
    [ $# -ge 2 ] || die "usage: afl.sh campaign SECONDS [TARGET...]"
    secs=$2; shift 2
    mkdir -p "$OUT_DIR"
    for t in ${*:-$TARGETS}; do
        check_target "$t"; b=$(binary "$t")
        echo "afl.sh: $t for $secs s (log $OUT_DIR/$t.log)"
        # shellcheck disable=SC2046
        (export AFL_AUTORESUME=1 AFL_NO_UI=1; mutator_env "$t"
         afl-fuzz $(fuzz_args "$t" "$secs") -- "$b" > "$OUT_DIR/$t.log" 2>&1) || echo "afl.sh: afl-fuzz $t exited with $?"
        summary_line "$t" | tee -a "$OUT_DIR/summary.txt"
    done ;;
corpus)
    shift
    for t in ${*:-$TARGETS}; do
        check_target "$t"; b=$(binary "$t")
        q="$OUT_DIR/$t/default/queue"
        [ -d "$q" ] || { echo "afl.sh: no queue for $t in $q, skipped"; continue; }
        all="$OUT_DIR/cmin-in/$t"; min="$OUT_DIR/cmin-out/$t"
        rm -rf "$all" "$min"; mkdir -p "$all"
        cp "$FUZZ/corpus/$t/"* "$all/" 2>/dev/null || true
        [ -d "$FUZZ/campaign-corpus/$t" ] && cp "$FUZZ/campaign-corpus/$t/"* "$all/" 2>/dev/null
        for f in "$q"/id:*; do
            [ -f "$f" ] && [ "$(wc -c < "$f")" -le 4096 ] && cp "$f" "$all/$(sha1sum "$f" | cut -c1-40)"
        done
        afl-cmin -m none -i "$all" -o "$min" -- "$b" > "$OUT_DIR/cmin-$t.log" 2>&1 ||
            { tail -5 "$OUT_DIR/cmin-$t.log"; die "afl-cmin failed for $t"; }
        # Keep what the seeds do not already hold, named by content (sha1), as in fuzz/corpus.
        out="$FUZZ/campaign-corpus/$t"; rm -rf "$out"; mkdir -p "$out"
        for f in "$min"/*; do
            h=$(sha1sum "$f" | cut -c1-40)
            [ -f "$FUZZ/corpus/$t/$h" ] || cp "$f" "$out/$h"
        done
        echo "afl.sh: $t: $(ls "$min" | wc -l) files cover the queue; $(ls "$out" | wc -l) new ones in $out"
    done ;;
*)
    sed -n '2,22p' "$0"; exit 2 ;;
esac
