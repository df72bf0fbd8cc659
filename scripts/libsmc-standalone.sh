#!/usr/bin/env bash
# ref-decoder/ is libsmc alone: configure that folder by itself, build it with warnings as
# errors, install it into a fresh prefix, then build and run a consumer that knows only the
# installed package (ref-decoder/examples/find-package). Fails if libsmc needs anything
# outside its folder or installs an unusable package.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cmake -S "$SMC_ROOT/ref-decoder" -B "$work/build" -G Ninja -DSMC_WERROR=ON >/dev/null
cmake --build "$work/build" -j "$SMC_JOBS" >/dev/null
cmake --install "$work/build" --prefix "$work/prefix" >/dev/null
cmake -S "$SMC_ROOT/ref-decoder/examples/find-package" -B "$work/consumer" -G Ninja \
      -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/consumer" >/dev/null
"$work/consumer/smc-consumer"
echo "libsmc-standalone: ref-decoder/ configured alone, installed, and used by a consumer"
