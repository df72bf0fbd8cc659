#!/usr/bin/env bash
# Instructions per operation of the Swift bench under valgrind's callgrind, the Swift
# counterpart of the C reference's `smc bench --callgrind-runs` (bench/README.md "Measuring
# honestly"). The Swift bench has no valgrind client requests, so each op runs twice,
# untimed, with `--profile-iterations 1` and `11`: the difference of the two programs'
# totals / 10 is the cost of one warm op, with start-up, file reading and the bench's own
# checks cancelled out.
#
# Usage: bench/callgrind_swift.sh BENCH CODEC OPS [BENCH-FLAG...] -- FILE...
#   BENCH   the smc-swift-bench binary (release build)
#   CODEC   the codec id written into each line (smc-swift, smc-swift-flat)
#   OPS     comma-separated ops (decode,encode or typed_decode,typed_encode)
#   flags   passed to the bench (--typed, --flat, --entry call, ...)
# Prints one JSON line per file and op: {"codec", "payload", "op", "instructions"}.
set -euo pipefail
[ $# -ge 5 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
bench="$1" codec="$2" ops="$3"; shift 3
flags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
[ "${1:-}" = "--" ] || { echo "callgrind_swift.sh: missing -- before the files" >&2; exit 2; }
shift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The program's total instructions from a callgrind output file ("summary:" or "totals:").
total_of() { awk '/^(summary|totals):/ { print $2; exit }' "$1"; }

IFS=, read -r -a op_list <<< "$ops"
for file in "$@"; do
  name="$(basename "$file")"
  for op in "${op_list[@]}"; do
    totals=()
    for n in 1 11; do
      out="$work/cg.$n"
      if ! valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" "${flags[@]+"${flags[@]}"}" \
          --ops "$op" --profile-iterations "$n" "$file" > /dev/null 2> "$work/log"; then
        echo "callgrind_swift.sh: $codec $name $op failed under valgrind:" >&2
        tail -5 "$work/log" >&2
        exit 1
      fi
      totals+=("$(total_of "$out")")
    done
    [ -n "${totals[0]}" ] && [ -n "${totals[1]}" ] || { echo "callgrind_swift.sh: no totals for $name $op" >&2; exit 1; }
    printf '{"codec": "%s", "payload": "%s", "op": "%s", "instructions": %s}\n' \
      "$codec" "$name" "$op" "$(( (totals[1] - totals[0]) / 10 ))"
  done
done
