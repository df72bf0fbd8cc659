# Shared helpers for the project's scripts (sourced, not run).
# Paths are absolute so the scripts work from any current directory.
SMC_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SMC_BUILD="${SMC_BUILD:-$SMC_ROOT/build}"
SMC_JOBS="${SMC_JOBS:-2}"

# smc_configure_build DIR [cmake args...]: configure once, then build incrementally.
smc_configure_build() {
  local dir="$1"; shift
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$SMC_ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSMC_WERROR=ON "$@" >/dev/null
  fi
  cmake --build "$dir" -j "$SMC_JOBS"
}

# The Swift toolchain lives in /opt/swift on this kind of machine; find it even when a
# non-login shell did not put it on PATH.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  PATH="$PATH:/opt/swift/usr/bin"
fi
