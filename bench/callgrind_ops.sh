#!/usr/bin/env bash
# Instructions per operation under valgrind's callgrind (machine-load independent), for
# finding hot spots: Ir(11 samples) - Ir(1 sample), divided by 10, so set-up cost cancels.
# Usage: bench/callgrind_ops.sh SMC_BINARY PAYLOAD OP [OP...]
# Keeps the 11-sample profile in /tmp/smc-cg.<payload>.<op> for callgrind_annotate.
set -euo pipefail
smc="$1" payload="$2"; shift 2
for op in "$@"; do
  irs=()
  for n in 1 11; do
    f="/tmp/smc-cg.$payload.$op.$n"
    valgrind --tool=callgrind --callgrind-out-file="$f" "$smc" bench --samples "$n" --warmup-ms 0 \
      --min-sample-us 0 --payload "$payload" --ops "$op" >/dev/null 2>&1
    irs+=("$(callgrind_annotate "$f" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')")
  done
  mv "/tmp/smc-cg.$payload.$op.11" "/tmp/smc-cg.$payload.$op"; rm -f "/tmp/smc-cg.$payload.$op.1"
  echo "$payload $op: $(( (irs[1] - irs[0]) / 10 )) instructions per op"
done
