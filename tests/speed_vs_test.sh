#!/usr/bin/env bash
# scripts/speed-vs.sh end to end, as a smoke test: the current build against itself
# (--old-build and --build the same folder, --quick, three workloads), once as it is and once
# pinned to one CPU.  Checks the exit status, the rows, the line naming the CPUs each row runs
# on (the 2-thread learn row on every online CPU, whatever the pin), the BM_Handoff line, the
# ntuple-learn-x2 row (two one-thread runs at once) and the same-build ratios; the ratios themselves
# are noise here and are not checked.
# Usage: speed_vs_test.sh SOURCE_DIR BUILD_DIR    (exit 77: skipped, not a git checkout)
set -u
root=$1 build=$2
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || { echo "skipped: $root is not a git checkout"; exit 77; }
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

run() {  # [taskset -c CPU] : runs the script, output in $out, status in $status
  out=$("$@" bash "$root/scripts/speed-vs.sh" --quick --old-build "$build" --build "$build" \
    --workloads greedy-bcts,ntuple-learn,ntuple-learn-2t HEAD 2>&1)
  status=$?
}
check() {  # LABEL REGEX: the output has a line matching REGEX
  grep -qE "$2" <<<"$out" || fail "$1: no line matching '$2'"
}

online=$(cat /sys/devices/system/cpu/online 2>/dev/null || echo "")
first=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//' | grep -oE '^[0-9]+')  # a CPU this test may use
for pin in none ${first:-}; do
  if [ "$pin" = none ]; then run env; else run taskset -c "$pin"; fi
  label="pin $pin"
  [ "$status" -eq 0 ] || fail "$label: exit status $status"
  check "$label" '^greedy-bcts +kpieces/cpu-s( +[0-9.]+){6} +[0-9.]+ +[0-9.]+-[0-9.]+$'
  check "$label" '^ntuple-learn +kpieces/cpu-s( +[0-9.]+){6} '
  check "$label" '^ntuple-learn-2t +kpieces/wall-s( +[0-9.]+){6} '
  check "$label" "BM_Handoff \(a cache line's round trip between CPUs 0 and 1\): "
  check "$label" '^  ntuple-learn-2t \(per wall-s\) / ntuple-learn \(per CPU-s\) +[0-9]+\.[0-9]{3} '
  if [ -n "$online" ] && [ "$(nproc --all)" -ge 2 ]; then  # ntuple-learn-x2 needs two CPUs
    check "$label" '^ntuple-learn-x2 +kpieces/wall-s( +[0-9.]+){3} +\(new build only: '
    check "$label" '^  ntuple-learn-x2 \(per wall-s\) / ntuple-learn \(per CPU-s\) +[0-9]+\.[0-9]{3} '
    check "$label" '^  ntuple-learn-2t / ntuple-learn-x2 \(both per wall-s\) +[0-9]+\.[0-9]{3} '
  fi
  check "$label" 'exit status 0$'
  grep -q MISMATCH <<<"$out" && fail "$label: MISMATCH between a build and itself"
  if [ -n "$online" ]; then
    [ "$pin" = none ] || check "$label" "^CPUs: the runs use $pin, ntuple-learn-2t every online CPU \($online\)$"
  fi
done

if [ "$failures" -gt 0 ]; then
  echo "$out"
  echo "$failures failure(s)"
  exit 1
fi
echo "speed-vs smoke test passed"
