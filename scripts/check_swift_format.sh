#!/usr/bin/env bash
# Layout and lint check of every Swift source of the project against the root .swift-format:
# fails, naming each finding, when `swift-format lint --strict` reports one. `--fix` formats
# the files instead (what format cannot fix, such as a trailing closure beside a closure
# argument, stays a lint finding to fix by hand). Pinned to the swift-format of the Swift 6.3
# toolchain (6.3.x): other releases lay out some constructs differently, and a check that
# fails on a tool upgrade is noise. test-all asks --have-tool first and prints a skip line
# without it (or outside a git checkout: the file list is git's: tracked files and untracked
# ones that are not ignored). scripts/tests/test_format_checks.py proves it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-check}   # check | --fix | --have-tool (exit 0 when swift-format 6.3 is here)
sf=""
for c in "${SWIFT_FORMAT:-}" swift-format /opt/swift/usr/bin/swift-format; do
  if [ -n "$c" ] && command -v "$c" >/dev/null && "$c" --version 2>/dev/null | grep -q '^6\.3\.'; then
    sf=$c; break
  fi
done
if [ "$mode" = "--have-tool" ]; then
  [ -n "$sf" ] && git rev-parse --git-dir >/dev/null 2>&1
  exit
fi
if [ -z "$sf" ]; then
  echo "check_swift_format: swift-format 6.3 not found (it ships with the Swift 6.3 toolchain)" >&2
  exit 2
fi
# Tracked files and the untracked ones git does not ignore (a new file is checked before it is
# committed, not after); a tracked file deleted in the working tree is not there to check.
mapfile -t listed < <(git ls-files --cached --others --exclude-standard -- '*.swift')
files=()
for f in "${listed[@]}"; do
  [ -f "$f" ] && files+=("$f")
done
if [ ${#files[@]} -eq 0 ]; then  # the tool given no file would read its standard input
  echo "check_swift_format: no Swift files"
  exit 0
fi
if [ "$mode" = "--fix" ]; then
  "$sf" format -i --configuration .swift-format "${files[@]}"
  echo "check_swift_format: formatted ${#files[@]} files"
  exit 0
fi
if ! "$sf" lint --strict --configuration .swift-format "${files[@]}"; then
  echo "check_swift_format: findings above (bash scripts/check_swift_format.sh --fix lays files out)" >&2
  exit 1
fi
echo "check_swift_format: ${#files[@]} Swift files formatted and lint-clean"
