#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build script for the smc fuzz targets (fuzz/README.md).
#
# Uses only the variables the fuzzing infrastructure sets: $CC, $CFLAGS, $LIB_FUZZING_ENGINE,
# $OUT and $SRC. Builds the library `smc` with $CC/$CFLAGS (CMake, library target only),
# links every fuzz/<name>_fuzzer.c with $LIB_FUZZING_ENGINE into $OUT/<name>_fuzzer, and
# ships fuzz/smc.dict as <name>.dict, fuzz/corpus/<name> as <name>_seed_corpus.zip and a
# <name>.options file.
#
# Local check (libFuzzer):
#   CC=/usr/bin/clang CFLAGS="-fsanitize=address,undefined -fsanitize=fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out SRC=/work fuzz/oss-fuzz/build.sh

# The checkout: $SRC/smc-conformance under OSS-Fuzz, else the tree this script sits in.
SMC_ROOT=""
for candidate in "$SRC/smc-conformance" "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"; do
  if [ -f "$candidate/fuzz/fuzz_helpers.h" ] && [ -d "$candidate/ref-decoder" ]; then
    SMC_ROOT=$candidate
    break
  fi
done
[ -n "$SMC_ROOT" ] || { echo "build.sh: no smc checkout under $SRC/smc-conformance" >&2; exit 1; }

WIRE_TARGETS="decode roundtrip call envelope reader_vs_tree"
TEXT_TARGETS="notation vectors" # the JSON/notation reader and the judge's vector loader
TARGETS="$WIRE_TARGETS $TEXT_TARGETS"
BUILD=$(mktemp -d "${TMPDIR:-/tmp}/smc-oss-fuzz.XXXXXX")
trap 'rm -rf "$BUILD"' EXIT

# 1. The library, instrumented by $CFLAGS (CMAKE_BUILD_TYPE None: no extra optimisation flags).
cmake -S "$SMC_ROOT" -B "$BUILD" -DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$CFLAGS" \
  -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=OFF -DSMC_BUILD_TESTS=OFF -DSMC_BUILD_CLI=ON \
  -DSMC_BUILD_FUZZERS=OFF -DSMC_BUILD_BENCH=OFF
cmake --build "$BUILD" --target smc smc_notation smc_judge -j "$(nproc)"
LIB=$(find "$BUILD" -name libsmc.a | head -1)
NOTATION_LIB=$(find "$BUILD" -name libsmc_notation.a | head -1)
JUDGE_LIB=$(find "$BUILD" -name libsmc_judge.a | head -1)
[ -f "$LIB" ] && [ -f "$NOTATION_LIB" ] && [ -f "$JUDGE_LIB" ] ||
  { echo "build.sh: libsmc.a, libsmc_notation.a or libsmc_judge.a was not built" >&2; exit 1; }

# 2. The targets: the shared helpers and one LLVMFuzzerTestOneInput file each.
INCLUDES="-I$SMC_ROOT/ref-decoder/include -I$BUILD/ref-decoder/include -I$SMC_ROOT/fuzz"
INCLUDES="$INCLUDES -I$SMC_ROOT/notation -I$SMC_ROOT/judge"
HELPERS="$SMC_ROOT/fuzz/fuzz_helpers.c $SMC_ROOT/fuzz/fuzz_entry.c $SMC_ROOT/fuzz/fuzz_properties.c"
# The structure-aware mutator's libFuzzer front end needs libFuzzer's LLVMFuzzerMutate.
MUTATOR=""
if [ "${FUZZING_ENGINE:-libfuzzer}" = libfuzzer ]; then
  MUTATOR="$SMC_ROOT/fuzz/smc_mutator.c $SMC_ROOT/fuzz/mutator_libfuzzer.c"
fi
for t in $TARGETS; do
  case " $WIRE_TARGETS " in *" $t "*) extra="$MUTATOR" ;; *) extra="" ;; esac
  # shellcheck disable=SC2086
  $CC $CFLAGS -std=c11 -DSMC_STATIC_DEFINE $INCLUDES "$SMC_ROOT/fuzz/${t}_fuzzer.c" $HELPERS $extra \
    "$JUDGE_LIB" "$NOTATION_LIB" "$LIB" $LIB_FUZZING_ENGINE -o "$OUT/${t}_fuzzer"

  # 3. Dictionary, seed corpus and options next to each binary.
  if [ -f "$SMC_ROOT/fuzz/${t}.dict" ]; then
    cp "$SMC_ROOT/fuzz/${t}.dict" "$OUT/${t}.dict"
  else
    cp "$SMC_ROOT/fuzz/smc.dict" "$OUT/${t}.dict"
  fi
  rm -f "$OUT/${t}_seed_corpus.zip"
  if [ -d "$SMC_ROOT/fuzz/corpus/$t" ]; then
    if command -v zip >/dev/null; then
      (cd "$SMC_ROOT/fuzz/corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
    else
      (cd "$SMC_ROOT/fuzz/corpus/$t" && python3 -c 'import os, sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    for n in sorted(os.listdir(".")): z.write(n)' "$OUT/${t}_seed_corpus.zip")
    fi
  fi
  cat > "$OUT/${t}.options" <<OPTIONS
[libfuzzer]
dict = ${t}.dict
max_len = 8192
OPTIONS
done
echo "build.sh: built $(for t in $TARGETS; do printf '%s_fuzzer ' "$t"; done)into $OUT"
