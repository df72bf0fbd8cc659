#!/usr/bin/env bash
# Runs the benchmark of every codec on the same payloads, then prints one combined table
# (bench/combine.py) and writes out/bench.json and out/bench.md. See bench/README.md.
#
# Usage: bash bench/run.sh [--smoke] [--conformance] [--no-swift] [--no-kotlin] [--no-dart]
#                          [--samples N] [--payload NAME]...
#   --smoke        the CI step: few samples, a couple of payloads; fails only on errors
#                  (a build, a codec or a payload failing), never on timing
#   --conformance  also time `bash scripts/conformance.sh` (once warm, then timed) for the
#                  "conformance run under 10 s" target
#   --payload NAME restrict to these payloads (file name from bench/payloads.json)
# Environment: SMC_BENCH_BUILD (C release build dir, default build-bench), SMC_JOBS (2).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
build="${SMC_BENCH_BUILD:-$root/build-bench}"
jobs="${SMC_JOBS:-2}"
out="$root/out"
raw="$out/bench-raw"

smoke=0 conformance=0 swift=1 kotlin=1 dart=1 samples=""
payloads=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) smoke=1 ;;
    --conformance) conformance=1 ;;
    --no-swift) swift=0 ;;
    --no-kotlin) kotlin=0 ;;
    --no-dart) dart=0 ;;
    --samples) samples="$2"; shift ;;
    --payload) payloads+=("$2"); shift ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done

if [ "$smoke" -eq 1 ]; then
  [ ${#payloads[@]} -gt 0 ] || payloads=(b_anr_1.bin a_list1000_i32.bin g_call_records.bin)
  samples="${samples:-5}"
  c_timing=(--samples "$samples" --warmup-ms 1 --min-sample-us 10)
  swift_timing=(--samples "$samples")
  kotlin_timing=(--samples "$samples" --warmup-ms 100 --min-sample-us 10)
  dart_timing=(--samples "$samples" --warmup-ms 100 --min-sample-us 10)
else
  samples="${samples:-200}"
  c_timing=(--samples "$samples")
  swift_timing=(--samples "$samples")
  kotlin_timing=(--samples "$samples")
  dart_timing=(--samples "$samples")
fi

if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  PATH="$PATH:/opt/swift/usr/bin"
fi

mkdir -p "$raw"
rm -f "$raw"/*.jsonl "$raw/load.txt" "$raw/conformance.json"
note_load() { echo "$1: $(uptime | sed 's/^ *//')" >> "$raw/load.txt"; }

# ---- payloads: the committed files must be what the generator writes ----
python3 bench/gen_payloads.py --check >&2

# Payload files per entry point, from the manifest (Swift and Kotlin take --entry per run).
files_for_entry() { # entry -> absolute paths, one per line
  python3 - "$1" "${payloads[@]+"${payloads[@]}"}" <<'PY'
import json, sys
entry, wanted = sys.argv[1], set(sys.argv[2:])
wanted |= {w + ".bin" for w in wanted}
for p in json.load(open("bench/payloads.json"))["payloads"]:
    if p["entry"] == entry and (not wanted or p["file"] in wanted):
        print("bench/payloads/" + p["file"])
PY
}

# ---- builds ----
echo "building the C reference (release) in $build..." >&2
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSMC_BUILD_BENCH=ON >&2
fi
cmake --build "$build" -j "$jobs" --target smc_cli >&2
smc="$build/cli/smc"

skipped=()
if [ "$swift" -eq 1 ] && command -v swift >/dev/null 2>&1; then
  echo "building smc-swift-bench (release)..." >&2
  (cd runners/swift && swift build -c release -j "$jobs" --product smc-swift-bench >&2)
  swift_bench="$root/runners/swift/.build/release/smc-swift-bench"
else
  swift=0
  skipped+=(--skipped "swift=$(command -v swift >/dev/null 2>&1 && echo 'disabled with --no-swift' || echo 'no Swift toolchain')")
fi
if [ "$kotlin" -eq 1 ] && command -v kotlinc >/dev/null 2>&1 && command -v java >/dev/null 2>&1; then
  echo "building smc-kotlin-bench..." >&2
  bash runners/kotlin/build.sh >&2
  kotlin_bench="$root/runners/kotlin/out/smc-kotlin-bench"
else
  kotlin=0
  skipped+=(--skipped "kotlin=$( [ "$kotlin" -eq 0 ] && echo 'disabled with --no-kotlin' || echo 'kotlinc or java not found')")
fi

# Dart (issue 17): the pure-Dart codec on the VM runners/dart/tool/dart-vm.sh finds.
if [ "$dart" -eq 1 ] && dart_vm=$(bash runners/dart/tool/dart-vm.sh path 2>/dev/null); then
  echo "building the Dart bench snapshot..." >&2
  bash runners/dart/build.sh >&2
else
  skipped+=(--skipped "dart=$( [ "$dart" -eq 0 ] && echo 'disabled with --no-dart' || echo 'no Dart >= 2.16 (scripts/install-deps.sh)')")
  dart=0
fi

# ---- runs: one codec at a time, on the same payload files ----
payload_args=()
for p in "${payloads[@]+"${payloads[@]}"}"; do payload_args+=(--payload "$p"); done

note_load "before C"
echo "running smc bench..." >&2
"$smc" bench --json "${c_timing[@]}" "${payload_args[@]+"${payload_args[@]}"}" > "$raw/c.jsonl"
note_load "after C"

for entry in message call envelope; do
  mapfile -t files < <(files_for_entry "$entry")
  [ ${#files[@]} -gt 0 ] || continue
  if [ "$swift" -eq 1 ]; then
    echo "running smc-swift-bench ($entry: ${#files[@]} payloads)..." >&2
    "$swift_bench" "${swift_timing[@]}" --entry "$entry" "${files[@]}" >> "$raw/swift.jsonl"
  fi
  if [ "$kotlin" -eq 1 ]; then
    echo "running smc-kotlin-bench ($entry: ${#files[@]} payloads)..." >&2
    "$kotlin_bench" "${kotlin_timing[@]}" --entry "$entry" "${files[@]}" >> "$raw/kotlin.jsonl"
  fi
  if [ "$dart" -eq 1 ]; then
    echo "running the Dart bench ($entry: ${#files[@]} payloads)..." >&2
    "$dart_vm" runners/dart/out/bench.dill "${dart_timing[@]}" --entry "$entry" "${files[@]}" >> "$raw/dart.jsonl"
  fi
done
note_load "after Swift and Kotlin"

conf_args=()
if [ "$conformance" -eq 1 ]; then
  # The judge builds into $SMC_BUILD (default build/); use the bench's build directory.
  export SMC_BUILD="${SMC_BUILD:-$build}"
  echo "conformance run (warm-up, untimed)..." >&2
  bash scripts/conformance.sh >/dev/null 2>&1 || true
  echo "conformance run (timed)..." >&2
  note_load "before conformance"
  start=$(date +%s.%N)
  status=0
  bash scripts/conformance.sh > "$raw/conformance.txt" 2>&1 || status=$?
  end=$(date +%s.%N)
  note_load "after conformance"
  python3 -c "import json,sys; json.dump({'seconds': float(sys.argv[2]) - float(sys.argv[1]), 'status': int(sys.argv[3])}, open(sys.argv[4], 'w'))" \
    "$start" "$end" "$status" "$raw/conformance.json"
  conf_args=(--conformance-time "$raw/conformance.json")
fi

c_args=(--c "$raw/c.jsonl")
[ "$swift" -eq 1 ] && c_args+=(--swift "$raw/swift.jsonl")
[ "$kotlin" -eq 1 ] && c_args+=(--kotlin "$raw/kotlin.jsonl")
[ "$dart" -eq 1 ] && c_args+=(--dart "$raw/dart.jsonl")
python3 bench/combine.py "${c_args[@]}" "${skipped[@]+"${skipped[@]}"}" "${conf_args[@]+"${conf_args[@]}"}" \
  --load "$raw/load.txt" --out "$out" $( [ "$smoke" -eq 1 ] && echo --label smoke )
