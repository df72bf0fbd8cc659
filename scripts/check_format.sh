#!/usr/bin/env bash
# Layout check of every C source of the project against the root .clang-format: fails, naming
# each file, when `clang-format -i` would change one. `--fix` formats them instead.
# Pinned to clang-format 14 (Debian 12's): other versions lay out some constructs differently,
# and a check that fails on a tool upgrade is noise. test-all asks --have-tool first and prints
# a skip line without it (or outside a git checkout: the file list is git's: tracked files and
# untracked ones that are not ignored). scripts/tests/test_format_checks.py proves it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

mode=${1:-check}   # check | --fix | --have-tool (exit 0 when clang-format 14 is here)
cf=""
for c in "${CLANG_FORMAT:-}" clang-format-14 clang-format; do
  if [ -n "$c" ] && command -v "$c" >/dev/null && "$c" --version | grep -q 'version 14\.'; then
    cf=$c; break
  fi
done
if [ "$mode" = "--have-tool" ]; then
  [ -n "$cf" ] && git rev-parse --git-dir >/dev/null 2>&1
  exit
fi
if [ -z "$cf" ]; then
  echo "check_format: clang-format 14 not found (scripts/install-deps.sh installs it)" >&2
  exit 2
fi
# Tracked files and the untracked ones git does not ignore (a new file is checked before it is
# committed, not after); a tracked file deleted in the working tree is not there to check.
mapfile -t listed < <(git ls-files --cached --others --exclude-standard -- '*.c' '*.h')
files=()
for f in "${listed[@]}"; do
  [ -f "$f" ] && files+=("$f")
done
if [ ${#files[@]} -eq 0 ]; then  # the tool given no file would read its standard input
  echo "check_format: no C files"
  exit 0
fi
if [ "$mode" = "--fix" ]; then
  "$cf" -i "${files[@]}"
  echo "check_format: formatted ${#files[@]} files"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$cf" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  printf 'check_format: not formatted (bash scripts/check_format.sh --fix): %s\n' "${bad[@]}"
  exit 1
fi
echo "check_format: ${#files[@]} C files formatted"
