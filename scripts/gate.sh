#!/usr/bin/env bash
# The conformance gate for a codec in someone else's CI: the one script behind action.yml
# (docs/ci.md), run here by scripts/tests/test_gate.py. It builds and installs this checkout's
# smc (or takes --smc), runs `smc conformance` against the caller's runner with the vectors
# installed beside that smc, writes the reports, and exits by the gate policy.
#
# Usage: bash scripts/gate.sh --runner COMMAND [options] [-- SMC-CONFORMANCE-ARGS...]
#   --runner COMMAND           how to start your runner (runners/PROTOCOL.md); run with /bin/sh
#                              from the current directory
#   --name NAME                its name in the reports (default: mine)
#   --expected-failures FILE   your expected-failure list (judge/README.md, "Gate")
#   --gate POLICY              required | recommended | all (default: recommended)
#   --reports DIR              where conformance.{txt,json,xml,html} go (default: smc-reports)
#   --smc PATH                 the smc to use, instead of building this checkout's
#   --build-dir DIR            where this checkout's smc is built and installed
#                              (default: $RUNNER_TEMP/smc-gate, else ${TMPDIR:-/tmp}/smc-gate)
#   --vectors DIR              another vector set (default: the one installed with smc)
#   --sandbox MODE             auto | bwrap | none: the runner in bubblewrap (judge/README.md,
#                              "Sandbox"; default auto: where bwrap runs, and the reports say
#                              whether it did)
#
# Exit status (the table in docs/ci.md): 0 gate passed; 1 gate failed; 2 setup error (bad
# usage, smc could not be built, the runner could not start, bad vectors or expected-failure
# list, a report not written, the judge killed). Under GitHub Actions it also writes the step
# outputs exit-code, reports, summary and vectors ($GITHUB_OUTPUT) and a job summary.
set -uo pipefail

# The whole script is one function, called on its last line and left only by `exit`: bash has
# read and parsed all of it before the runner starts, and never reads this file again, so a
# runner that rewrites or appends to it changes nothing (issue 26).
gate_main() {
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() { sed -n '/^# Usage:/,/^# Exit status/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//' >&2; }
die() { echo "gate: $*" >&2; exit 2; }  # a setup error

runner="" name="mine" xfail="" policy="recommended" reports="smc-reports" smc="" vectors=""
sandbox="auto"
build_dir="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/smc-gate"
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runner|--name|--expected-failures|--gate|--reports|--smc|--build-dir|--vectors|--sandbox)
      [ $# -ge 2 ] || { usage; die "$1 needs a value"; }
      case "$1" in
        --runner) runner="$2" ;; --name) name="$2" ;; --expected-failures) xfail="$2" ;;
        --gate) policy="$2" ;; --reports) reports="$2" ;; --smc) smc="$2" ;;
        --build-dir) build_dir="$2" ;; --vectors) vectors="$2" ;; --sandbox) sandbox="$2" ;;
      esac
      shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage; exit 0 ;;
    *) usage; die "unknown argument '$1'" ;;
  esac
done

# A newline in a value would let a later line of $GITHUB_OUTPUT win (exit-code=0).
for value in "$runner" "$name" "$xfail" "$policy" "$reports" "$smc" "$build_dir" "$vectors" "$sandbox" \
             ${extra[@]+"${extra[@]}"}; do
  case "$value" in *$'\n'*|*$'\r'*) die "an input holds a newline or carriage return" ;; esac
done

status=2 summary="" version=""
# The job's command files as they were before the runner ran: whatever was added to them while
# it ran is not the gate's, and is cut off before the gate writes its own lines (a runner can
# find their paths in the environment of its ancestors, /proc/PID/environ).
command_files=(GITHUB_OUTPUT GITHUB_ENV GITHUB_PATH GITHUB_STATE GITHUB_STEP_SUMMARY)
command_sizes=()
take_command_files() {
  local v f
  for v in "${command_files[@]}"; do
    f="${!v:-}"
    if [ -n "$f" ] && [ -f "$f" ] && [ ! -L "$f" ]; then command_sizes+=("$v=$(wc -c <"$f" | tr -d ' ')")
    elif [ -n "$f" ] && [ ! -e "$f" ]; then command_sizes+=("$v=none"); fi  # made by the runner, if at all
  done
}
restore_command_files() {
  local kv v size f
  for kv in ${command_sizes[@]+"${command_sizes[@]}"}; do
    v="${kv%%=*}" size="${kv#*=}" f="${!v}"
    # a link or a directory put in its place goes; a read-only file is made writable again
    if [ -L "$f" ] || [ -d "$f" ]; then rm -rf "$f"; fi
    if [ "$size" = none ]; then rm -f "$f"; continue; fi
    [ ! -e "$f" ] || chmod u+w "$f" 2>/dev/null || true
    if [ -e "$f" ]; then head -c "$size" "$f" >"$f.smc-gate" 2>/dev/null; else : >"$f.smc-gate"; fi
    mv -f "$f.smc-gate" "$f" 2>/dev/null || true
  done
}
# The outputs are written however the script ends, so the action's later steps (upload, the
# final exit) always see an exit code.
finish() {
  restore_command_files
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    { echo "exit-code=$status"; echo "reports=$reports_abs"; echo "summary=$summary"
      echo "vectors=$version"; } >>"$GITHUB_OUTPUT"
  fi
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ "$status" -ne 2 ]; then
    { echo "### smc conformance: $name"; echo '```'
      sed -n '1,/^Matrix:/p' "$reports_abs/conformance.txt" | sed '$d'
      tail -n 1 "$reports_abs/conformance.txt"; echo '```'; } >>"$GITHUB_STEP_SUMMARY"
  elif [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    echo "### smc conformance: $name: setup error (exit 2), the gate did not run; see the log" \
      >>"$GITHUB_STEP_SUMMARY"
  fi
  exit "$status"
}
reports_abs="$reports"
trap finish EXIT

[ -n "$runner" ] || { usage; die "--runner COMMAND is required"; }
mkdir -p "$reports" || die "cannot create the reports directory '$reports'"
reports_abs="$(cd "$reports" && pwd)"
# Reports of an earlier run must not pass for this run's when this one writes none.
rm -f "$reports_abs"/conformance.{txt,json,xml,html}
case "$policy" in required|recommended|all) ;; *) die "--gate must be required, recommended or all, not '$policy'" ;; esac
case "$sandbox" in auto|bwrap|none) ;; *) die "--sandbox must be auto, bwrap or none, not '$sandbox'" ;; esac

if [ -z "$smc" ]; then
  # This checkout's smc, installed into a prefix so the judge uses the vectors installed with
  # it (share/smc/vectors), exactly as a user's `cmake --install` would.
  command -v cmake >/dev/null || die "cmake not found (needed to build smc; or give --smc)"
  generator=()
  if command -v ninja >/dev/null; then generator=(-G Ninja); fi
  log="$build_dir/build.log"
  mkdir -p "$build_dir" || die "cannot create the build directory '$build_dir'"
  echo "gate: building smc from $here in $build_dir" >&2
  if ! { cmake -S "$here" -B "$build_dir/build" ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=Release \
           -DSMC_BUILD_TESTS=OFF -DSMC_BUILD_FUZZERS=OFF -DSMC_BUILD_BENCH=OFF &&
         cmake --build "$build_dir/build" -j "${SMC_JOBS:-2}" &&
         cmake --install "$build_dir/build" --prefix "$build_dir/prefix"; } >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    die "building smc failed (log: $log)"
  fi
  smc="$build_dir/prefix/bin/smc"
  # The judge finds the vectors installed beside it through /proc/self/exe; where there is no
  # /proc (macOS), name them.
  if [ -z "$vectors" ] && [ ! -e /proc/self/exe ]; then vectors="$build_dir/prefix/share/smc/vectors"; fi
fi
[ -x "$smc" ] || die "no smc at '$smc'"
"$smc" --version >&2 || die "'$smc --version' failed"

args=(--runner "$name=$runner" --gate "$policy" --no-progress
      --json "$reports_abs/conformance.json" --junit "$reports_abs/conformance.xml"
      --html "$reports_abs/conformance.html" --text "$reports_abs/conformance.txt")
[ -z "$xfail" ] || args+=(--xfail "$name=$xfail")
[ -z "$vectors" ] || args+=(--vectors "$vectors")
# In the sandbox the runner cannot write anything of the job's; this script and the command
# files are hidden from it besides (the judge hides its own reports, list and vectors).
args+=(--sandbox "$sandbox" --sandbox-hide "$here/scripts/gate.sh")
for v in "${command_files[@]}"; do
  if [ -n "${!v:-}" ] && [ -e "${!v}" ]; then args+=(--sandbox-hide "${!v}"); fi
done

# Nothing of the gate's own files or of the job's command files reaches the runner: it could
# rewrite them (docs/ci.md, threat model). The judge kills the runner's whole process tree
# before it exits, so the outputs below are written after no process of the runner is left;
# what the runner added to the command files meanwhile is cut off (restore_command_files). The
# text report is written as a file when the runner is gone, like the others: the judge's stdout
# is reachable through /proc/JUDGE/fd/1 while the runner runs.
take_command_files
env -u SMC_GATE_SCRIPT -u SMC_GATE_RUNNER -u SMC_GATE_NAME -u SMC_GATE_XFAIL \
    -u SMC_GATE_POLICY -u SMC_GATE_REPORTS -u SMC_GATE_ARGS -u SMC_GATE_SMC -u SMC_GATE_SANDBOX \
    -u GITHUB_OUTPUT -u GITHUB_ENV -u GITHUB_PATH -u GITHUB_STATE -u GITHUB_STEP_SUMMARY \
    -u BASH_ENV -u ENV \
    "$smc" conformance "${args[@]}" ${extra[@]+"${extra[@]}"} </dev/null >/dev/null
judged=$?
[ -f "$reports_abs/conformance.txt" ] || : >"$reports_abs/conformance.txt"  # a setup error wrote none
cat "$reports_abs/conformance.txt"
summary="$(awk -v p="$name: " 'index($0, p) == 1 { print; exit }' "$reports_abs/conformance.txt")"
version="$(sed -n '1s/^smc conformance: vectors \([^ ]*\) from .*/\1/p' "$reports_abs/conformance.txt")"
case "$judged" in
  0|1|2) status=$judged ;;
  *) echo "gate: smc conformance ended with status $judged (killed?): a setup error" >&2; status=2 ;;
esac
exit "$status"  # (finish) never back to the script file
}
gate_main "$@"; exit 2
