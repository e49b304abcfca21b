#!/usr/bin/env bash
# MPI end to end (docs/cluster.md), with `mpirun -np 2 --oversubscribe` on this machine:
# - `play` gives the same games as one process (every field but timing and `ranks`);
# - `compare` gives the same report numbers and run files as one process;
# - a compare whose rank 1 is killed with SIGKILL mid-run resumes on one process with the
#   numbers of the uninterrupted run, and one killed on one process resumes on 2 ranks;
# - the program does not link Open MPI, and stops with a clear error under mpirun if its
#   backend, tetrisbench-mpi.so, is not beside it.
# Usage: mpi_test.sh PATH/TO/tetrisbench PATH/TO/tiny-compare.toml
set -u
bin=$1 config=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# CI runs as root; Open MPI refuses that unless told twice.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Loopback only, no daemons left behind, no warnings about the missing network fabrics.
export OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo
export OMPI_MCA_btl_base_warn_component_unused=0
mpi() { mpirun --oversubscribe -np "$1" "${@:2}"; }

# A JSON or CSV file without what may differ between process counts: timing, dates, ranks.
normalized() {
  /usr/bin/python3 - "$1" <<'PY'
import csv, io, json, sys
path = sys.argv[1]
if path.endswith(".csv"):
    rows = list(csv.reader(open(path)))
    keep = [i for i, name in enumerate(rows[0]) if "second" not in name]
    print("\n".join(",".join(r[i] for i in keep) for r in rows))
    sys.exit(0)
def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items()
                if not any(t in k for t in ("second", "date", "ranks", "rate"))}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x
print(json.dumps(strip(json.load(open(path))), sort_keys=True))
PY
}

# --- play: 200 games of BCTS on 10x12, the issue's example.
"$bin" play --policy bcts --board 10x12 --games 200 --seed 1 --threads 1 --format json >"$work/one.json" ||
  fail "play on one process failed"
mpi 2 "$bin" play --policy bcts --board 10x12 --games 200 --seed 1 --threads 1 --format json \
  >"$work/two.json" 2>"$work/two.log" || { fail "mpirun play failed"; cat "$work/two.log"; }
grep -q '"ranks": 2' "$work/two.json" || fail "the 2-rank play report has no ranks field"
if [ "$(normalized "$work/one.json")" = "$(normalized "$work/two.json")" ]; then
  echo "ok: play on 2 ranks gives the games of one process"
else
  fail "play on 2 ranks differs from one process"
fi
# The table output too (line for line but the timing line), and 3 ranks with 2 threads each.
mpi 3 "$bin" play --policy dellacherie --board 8x10 --games 37 --seed 4 --threads 2 --format csv \
  >"$work/three.csv" 2>"$work/three.log" || { fail "mpirun -np 3 play failed"; cat "$work/three.log"; }
"$bin" play --policy dellacherie --board 8x10 --games 37 --seed 4 --threads 1 --format csv >"$work/one.csv"
cmp -s "$work/one.csv" "$work/three.csv" && echo "ok: 3 ranks x 2 threads, same per-game CSV" ||
  fail "per-game CSV differs on 3 ranks"

# --- compare: every file of the results folder, numbers only.
same_folders() {
  local a=$1 b=$2 f bad=0
  for f in $(cd "$a" && find . -name '*.json' -o -name '*.csv' | sort); do
    [ -f "$b/$f" ] || { fail "$b lacks $f"; bad=1; continue; }
    [ "$(normalized "$a/$f")" = "$(normalized "$b/$f")" ] || { fail "$f differs"; bad=1; }
  done
  cmp -s "$a/runs/ce/run-0/final.policy" "$b/runs/ce/run-0/final.policy" || { fail "final.policy differs"; bad=1; }
  return $bad
}
"$bin" compare "$config" --out "$work/c1" --threads 1 >/dev/null 2>"$work/c1.log" ||
  { fail "compare on one process failed"; cat "$work/c1.log"; }
mpi 2 "$bin" compare "$config" --out "$work/c2" --threads 1 >/dev/null 2>"$work/c2.log" ||
  { fail "mpirun compare failed"; cat "$work/c2.log"; }
same_folders "$work/c1" "$work/c2" && echo "ok: compare on 2 ranks gives the numbers of one process"

# --- kill one rank with SIGKILL once a checkpoint exists, resume with another rank count.
# Rank 1 of the 2-rank job is the process whose environment says so.
rank_pid() {
  local pid
  for pid in $(pgrep -f -- "--out $1"); do
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2" && { echo "$pid"; return; }
  done
}
wait_for_checkpoint() {
  for _ in $(seq 1 600); do
    [ -f "$1/runs/pso-article1/run-0/checkpoint.json" ] && return 0
    [ -f "$1/report.json" ] && return 0
    sleep 0.05
  done
  return 1
}
mpi 2 "$bin" compare "$config" --out "$work/k2" --threads 1 >/dev/null 2>&1 &
job=$!
wait_for_checkpoint "$work/k2" || fail "no checkpoint appeared"
victim=$(rank_pid "$work/k2" 1)
if [ -n "$victim" ]; then
  kill -9 "$victim"
  wait "$job" && fail "mpirun exited 0 after a rank was killed"
else
  wait "$job"
  echo "note: the 2-rank run finished before the kill; resume still checked"
fi
[ -f "$work/k2/report.json" ] && echo "note: the killed run had already written its report"
"$bin" compare --resume "$work/k2" --threads 1 >/dev/null 2>"$work/k2.log" ||
  { fail "resume on one process failed"; cat "$work/k2.log"; }
same_folders "$work/c1" "$work/k2" && echo "ok: killed on 2 ranks, resumed on 1: same numbers"

"$bin" compare "$config" --out "$work/k1" --threads 1 >/dev/null 2>&1 &
job=$!
wait_for_checkpoint "$work/k1" || fail "no checkpoint appeared"
kill -9 "$job" 2>/dev/null
wait "$job" 2>/dev/null
mpi 2 "$bin" compare --resume "$work/k1" --threads 1 >/dev/null 2>"$work/k1.log" ||
  { fail "resume on 2 ranks failed"; cat "$work/k1.log"; }
same_folders "$work/c1" "$work/k1" && echo "ok: killed on 1 process, resumed on 2 ranks: same numbers"

# --- learn --learner cbmpi: rank 0 learns, the other ranks serve; the weights are the same.
cb_opts='{"states": 150, "rollout_length": 3, "cmaes_generations": 4}'
"$bin" learn --learner cbmpi --board 6x8 --seed 3 --pieces 60000 --cbmpi-options "$cb_opts" \
  --out "$work/cb1.policy" --threads 1 >/dev/null 2>&1 || fail "cbmpi on one process failed"
mpi 2 "$bin" learn --learner cbmpi --board 6x8 --seed 3 --pieces 60000 --cbmpi-options "$cb_opts" \
  --out "$work/cb2.policy" --threads 1 >/dev/null 2>"$work/cb2.log" || { fail "cbmpi on 2 ranks failed"; cat "$work/cb2.log"; }
if [ -s "$work/cb1.policy" ] && cmp -s "$work/cb1.policy" "$work/cb2.policy"; then
  echo "ok: cbmpi learns the same weights on 1 process and 2 ranks"
else
  fail "cbmpi weights differ between 1 process and 2 ranks"
fi

# --- no MPI launcher: rank 0 alone, no ranks field, as before.
grep -q '"ranks"' "$work/one.json" && fail "a single process reports ranks"

# --- Open MPI only under a launcher: the program does not link it (the backend, a module beside
# it, does), and without that module a launched run stops with a clear error.
ldd "$bin" | grep -q 'libmpi' && fail "tetrisbench links Open MPI itself"
[ -f "$(dirname "$bin")/tetrisbench-mpi.so" ] || fail "no tetrisbench-mpi.so beside $bin"
mkdir -p "$work/alone"
cp "$bin" "$work/alone/tetrisbench"
if mpi 1 "$work/alone/tetrisbench" play --policy bcts --board 10x12 --games 2 --seed 1 >"$work/alone.out" \
  2>"$work/alone.log"; then
  fail "mpirun of a tetrisbench without its backend exited 0"
else
  grep -q "started by an MPI launcher, but the MPI backend did not load" "$work/alone.log" ||
    { fail "no clear error without the backend"; cat "$work/alone.log"; }
fi

[ "$failures" -eq 0 ] && echo "mpi_test: all passed"
exit $((failures > 0))
