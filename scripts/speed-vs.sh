#!/usr/bin/env bash
# Check a speed claim of the current tree against an older commit, on this machine.  Builds
# commit REV (git archive into a mktemp -d folder, never a worktree; Release, no tests), then
# runs fixed workloads alternately on the old and the current build (old, new, old, new, ...)
# and prints, per workload, every run's speed and the median of the per-pair ratios new/old
# (>1: the current tree is faster).  Speed is work per CPU-second (user+sys) of the process,
# except ntuple-learn-2t (per wall-second) and bm-decide (BM_Decide_bcts_greedy/20 real time
# per decision, ratio old/new).  Play workloads must give the same games on both sides and the
# learn workloads the same weights, else MISMATCH (exit 1): speed claims only count then.
#
#   scripts/speed-vs.sh [options] REV
#     --build DIR       current build (default build/): cli/tetrisbench, bench/bench_decide
#     --pairs N         old/new pairs per workload, 3..50 (default 3)
#     --workloads LIST  comma list (default all): greedy-dellacherie, greedy-bcts,
#                       greedy-bcts-avx2, greedy-bcts-avx512, 2ply-bcts, guideline-2ply-bcts,
#                       ntuple-learn, ntuple-learn-2t, bm-decide
#     --quick           about 20x less work per run: a smoke test, ratios are noise
#     --keep            keep the temporary folder (its path is printed)
#     --jobs N          parallel build jobs, 1..64 (default 2)
#     --old-cxx CXX     the C++ compiler that builds REV (default: the current build's,
#                       CMAKE_CXX_COMPILER of its CMakeCache.txt), so that by default only the
#                       code differs; the header names both builds' compilers.  REV is built
#                       without a profile or ThinLTO, which scripts/common.sh's build has: to
#                       compare two such builds, give --old-build a build that REV's
#                       scripts/run.sh made (docs/performance.md "Profile-guided build")
#     --old-build DIR   developers: use this existing build of REV instead of building one
#                       (not checked to be REV beyond the commit that tetrisbench --version shows)
#     -h, --help        this text
# Runs use --threads 1 (ntuple-learn-2t: 2, on every online CPU even if the script is pinned)
# and the default kernel unless the name says; TETRISBENCH_KERNEL is unset.  A learn side
# that prints no "trained on N pieces" puts the row in runs per second.  The binaries are
# copied at the start (a rebuild meanwhile does not mix builds); the current build is not
# rebuilt: a warning names a source newer than it, and the table names the commit the build's
# `tetrisbench --version` shows when that is not HEAD.
# A workload that REV's build rejects prints n/a.  Under the ntuple-learn-2t row, the current
# build's bench/bench_handoff (if built) gives a cache line's round trip between CPUs 0 and 1,
# before and after the row's runs.  At the end, the current build's medians give two ratios
# within it: greedy-bcts-avx2 over greedy-bcts-avx512, and ntuple-learn-2t over ntuple-learn.
# With both learn rows (ntuple-learn first, as in the default order), right after
# ntuple-learn-2t it runs ntuple-learn-x2, N times: two copies of ntuple-learn at once, one
# pinned to each of the first two online CPUs (the pieces of both per wall-second until both
# end), and gives it over ntuple-learn's median too: what the host gives two CPUs' independent
# work at that moment; and ntuple-learn-2t's median over its median.  It is a reference for the
# 2-thread ratio, not a bound either way: the two processes share no line, but each has its own
# copy of every array (the learner shares its traces), and each starts and exits in parallel
# with the other.  The one-thread rows run where the script runs: pinned, they measure that
# CPU, which a virtual machine's host may run slower than the other for minutes (that flatters
# the 2-thread ratios); scripts/learn-scaling.py measures one thread on each CPU, round by round.
# Exit status: 0 done, 1 MISMATCH or a failed run, 2 bad usage or REV does not build.
# Example: scripts/speed-vs.sh --workloads greedy-bcts,bm-decide --pairs 5 HEAD~3
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
me=speed-vs
py=/usr/bin/python3

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "$me: $*" >&2; exit 2; }

all_workloads=(greedy-dellacherie greedy-bcts greedy-bcts-avx2 greedy-bcts-avx512 2ply-bcts
  guideline-2ply-bcts ntuple-learn ntuple-learn-2t bm-decide)

# A whole number in [lo, hi], digits only (at most 4, so no overflow).
check_int() {
  local name=$1 value=$2 lo=$3 hi=$4
  [[ $value =~ ^[0-9]{1,4}$ ]] || die "$name must be a whole number in $lo..$hi, not '$value'"
  ((10#$value >= lo && 10#$value <= hi)) || die "$name must be in $lo..$hi, not $value"
}

build=$root/build pairs=3 jobs=2 quick=0 keep=0 old_build="" old_cxx="" workloads_opt="" rev=""
while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --build=* | --pairs=* | --workloads=* | --jobs=* | --old-build=* | --old-cxx=*)
      set -- "${opt%%=*}" "${opt#*=}" "${@:2}"; continue ;;
    -h | --help) usage; exit 0 ;;
    --quick) quick=1 ;;
    --keep) keep=1 ;;
    --build | --pairs | --workloads | --jobs | --old-build | --old-cxx)
      [ $# -ge 2 ] || die "$opt needs a value (see --help)"
      case $opt in
        --build) build=$2 ;;
        --pairs) pairs=$2 ;;
        --workloads) workloads_opt=$2 ;;
        --jobs) jobs=$2 ;;
        --old-build) old_build=$2 ;;
        --old-cxx) old_cxx=$2 ;;
      esac
      shift ;;
    --) shift; [ $# -eq 1 ] || die "expected one REV after --"; rev=$1; shift; break ;;
    -*) die "unknown option $opt (see --help)" ;;
    *) [ -z "$rev" ] || die "more than one REV ('$rev', '$opt')"; rev=$opt ;;
  esac
  shift
done
[ -n "$rev" ] || { usage >&2; exit 2; }
[[ $rev != -* ]] || die "REV must not start with '-'"
check_int --pairs "$pairs" 3 50
check_int --jobs "$jobs" 1 64
pairs=$((10#$pairs)) jobs=$((10#$jobs))

workloads=()
if [ -z "$workloads_opt" ]; then
  workloads=("${all_workloads[@]}")
else
  IFS=, read -r -a requested <<<"$workloads_opt"
  [ ${#requested[@]} -gt 0 ] || die "--workloads is empty"
  for w in "${requested[@]}"; do
    known=0
    for k in "${all_workloads[@]}"; do [ "$w" = "$k" ] && known=1; done
    [ "$known" -eq 1 ] || die "unknown workload '$w'; known: ${all_workloads[*]}"
    dup=0
    for k in "${workloads[@]}"; do [ "$w" = "$k" ] && dup=1; done
    [ "$dup" -eq 1 ] || workloads+=("$w")
  done
fi
wants() { local k; for k in "${workloads[@]}"; do [ "$k" = "$1" ] && return 0; done; return 1; }

[ -x "$py" ] || die "$py (Debian's python3) is needed to read JSON and CPU times"
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git repository"
old_sha=$(git -C "$root" rev-parse --verify --quiet "$rev^{commit}") || die "'$rev' is not a commit of $root"
old_short=$(git -C "$root" rev-parse --short "$old_sha")
new_short=$(git -C "$root" rev-parse --short HEAD)
git -C "$root" diff --quiet HEAD -- 2>/dev/null || new_short="$new_short+uncommitted"

dir=$(cd "$build" 2>/dev/null && pwd) ||
  die "no build folder $build; make one: cmake -S $root -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build $build --target tetrisbench"
build=$dir
new_bin=$build/cli/tetrisbench
if [ ! -x "$new_bin" ]; then
  [ -f "$build/CMakeCache.txt" ] || die "$new_bin is not built; build it: cmake -S $root -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build $build --target tetrisbench"
  die "$new_bin is not built; build it: cmake --build $build --target tetrisbench"
fi
new_bench=$build/bench/bench_decide
# The table names the commit the current build says it was made from (`tetrisbench --version`)
# when that is not HEAD: a build of an older commit measured from a newer checkout.
shown=$("$new_bin" --version 2>/dev/null || true)
if [[ $shown =~ \(([0-9a-f]{7,40})(-dirty)?\) ]] && [[ $(git -C "$root" rev-parse HEAD) != "${BASH_REMATCH[1]}"* ]]; then
  built="${BASH_REMATCH[1]:0:7}${BASH_REMATCH[2]}"
  echo "$me: warning: $new_bin says it was built from $built, not HEAD ($new_short); the table names $built" >&2
  new_short=$built
fi
if [ -z "$old_cxx" ]; then
  old_cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null | head -n 1)
  old_cxx=${old_cxx:-c++}
fi
[[ $old_cxx != -* ]] || die "--old-cxx must not start with '-'"
[ -n "$old_build" ] || command -v -- "$old_cxx" >/dev/null || die "no C++ compiler '$old_cxx' (--old-cxx)"
if wants bm-decide && [ ! -x "$new_bench" ]; then
  echo "$me: note: $new_bench is not built (cmake --build $build --target bench_decide); bm-decide will be n/a" >&2
fi
stale=$(find "$root" \( -path "$root/.git" -o -path "$root/build*" -o -path "$build" \) -prune -o \
  -newer "$new_bin" \( -name '*.cpp' -o -name '*.h' -o -name CMakeLists.txt \) -print -quit 2>/dev/null || true)
[ -z "$stale" ] || echo "$me: warning: $stale is newer than $new_bin; is $build up to date?" >&2
if [ -n "${TETRISBENCH_KERNEL:-}" ]; then
  echo "$me: note: TETRISBENCH_KERNEL=$TETRISBENCH_KERNEL is ignored (unset for the runs)" >&2
  unset TETRISBENCH_KERNEL
fi

# --- the temporary folder: only this one is ever removed --------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/speed-vs.XXXXXX")
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() {
  if [ "$keep" -eq 1 ]; then
    echo "$me: kept $tmp" >&2
  else
    rm -rf -- "$tmp"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p "$tmp/run"
[ "$keep" -eq 0 ] || echo "$me: temporary folder $tmp (kept at the end)" >&2

# The runs use copies of the binaries taken now, so a rebuild of a build folder during the
# run cannot mix two builds into one table.  Sets bin/bench to the copies (bench stays the
# missing original path if there is none).
snapshot() {  # SIDE BIN BENCH
  mkdir -p "$tmp/$1"
  cp -- "$2" "$tmp/$1/tetrisbench"
  bin=$tmp/$1/tetrisbench bench=$3
  if [ -x "$3" ]; then cp -- "$3" "$tmp/$1/bench_decide"; bench=$tmp/$1/bench_decide; fi
}
new_src=$new_bin
snapshot new "$new_bin" "$new_bench"
new_bin=$bin new_bench=$bench
# The cache-line round trip between CPUs 0 and 1 (bench/bench_handoff), measured around the
# 2-thread learn rows: whether two threads can gain depends on it on a virtual machine.
new_handoff=""
if [ -x "$build/bench/bench_handoff" ]; then
  cp -- "$build/bench/bench_handoff" "$tmp/new/bench_handoff"
  new_handoff=$tmp/new/bench_handoff
fi

# --- the old build ------------------------------------------------------------------------
t_start=$SECONDS
if [ -n "$old_build" ]; then
  dir=$(cd "$old_build" 2>/dev/null && pwd) || die "no folder $old_build"
  old_build=$dir
  old_bin=$old_build/cli/tetrisbench
  old_bench=$old_build/bench/bench_decide
  [ -x "$old_bin" ] || die "$old_bin is not built"
  shown=$("$old_bin" --version 2>/dev/null || true)
  if [[ $shown =~ \(([0-9a-f]{7,40})(-dirty)?\) ]]; then
    if [[ $old_sha != "${BASH_REMATCH[1]}"* ]]; then
      echo "$me: warning: $old_bin says it is ${BASH_REMATCH[1]}, not $old_short" >&2
    elif [ -n "${BASH_REMATCH[2]}" ]; then
      echo "$me: warning: $old_bin was built from $old_short with edits (-dirty)" >&2
    fi
  fi
  old_label="$old_short (prebuilt $old_build)"
  old_src=$old_bin
  snapshot old "$old_bin" "$old_bench"
  old_bin=$bin old_bench=$bench
else
  echo "$me: building $old_short in $tmp (log: $tmp/build.log)" >&2
  mkdir -p "$tmp/src"
  git -C "$root" archive --format=tar "$old_sha" | tar -x -C "$tmp/src"
  cmake -S "$tmp/src" -B "$tmp/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$old_cxx" \
    -DTETRISBENCH_BUILD_TESTS=OFF >"$tmp/build.log" 2>&1 ||
    { tail -n 20 "$tmp/build.log" >&2; die "configuring $old_short failed (log above)"; }
  targets=(tetrisbench)
  if wants bm-decide; then
    help=$(cmake --build "$tmp/build" --target help 2>/dev/null || true)
    if grep -q '^bench_decide:' <<<"$help"; then
      targets+=(bench_decide)
    else
      echo "$me: note: $old_short has no bench_decide target; bm-decide will be n/a" >&2
    fi
  fi
  cmake --build "$tmp/build" --target "${targets[@]}" -j "$jobs" >>"$tmp/build.log" 2>&1 ||
    { tail -n 20 "$tmp/build.log" >&2; die "building $old_short failed (log above)"; }
  old_bin=$tmp/build/cli/tetrisbench
  old_bench=$tmp/build/bench/bench_decide
  [ -x "$old_bin" ] || die "$old_short built no cli/tetrisbench"
  old_label=$old_short old_src=$old_bin
  echo "$me: built $old_short in $((SECONDS - t_start)) s" >&2
fi
t_built=$SECONDS

# --- workloads ----------------------------------------------------------------------------
cpu_flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
# The 2-thread learn row runs on every online CPU even when this script is pinned to one
# (`taskset -c 1 scripts/speed-vs.sh ...`, which the one-thread rows want): two threads pinned
# to one vCPU would measure nothing but the pin.
all_cpus=$(cat /sys/devices/system/cpu/online 2>/dev/null || true)
[[ $all_cpus =~ ^[0-9,-]+$ ]] && command -v taskset >/dev/null || all_cpus=""
my_cpus=$(taskset -pc $$ 2>/dev/null | sed -n 's/.*: *//p' || true)
has_flag() { [[ "$cpu_flags " == *" $1 "* ]]; }
# The CPU as the current build's `tetrisbench info` names it (model name, family, model and
# stepping, and AMD's core: "AMD EPYC" alone does not tell a Zen 4 from a Zen 5).
cpu_model=$("$new_bin" info 2>/dev/null | sed -n 's/^cpu  *//p' | sed 's/, [0-9]* hardware threads$//' || true)

# Pieces per run, chosen so a run of the current tree takes about 1 s of CPU on a 2 GHz
# Zen 4 (the default kernel is AVX-512 there); --quick divides the work by about 20.
declare -A cap
if [ "$quick" -eq 0 ]; then
  cap=([dellacherie]=1000000 [bcts]=1200000 [avx2]=800000 [2ply]=50000 [guideline]=2500
    [learn]=500000 [learn2t]=500000)
  bench_min_time=0.5
else
  cap=([dellacherie]=50000 [bcts]=60000 [avx2]=40000 [2ply]=2500 [guideline]=150
    [learn]=25000 [learn2t]=25000)
  bench_min_time=0.05
fi
bench_case='BM_Decide_bcts_greedy/20'
weights=$tmp/run/weights.policy

# Sets: kind (play, learn, learn-wall, bench), args (after the binary), skip (a reason, or "").
set_workload() {
  local greedy=(--board 10x20 --games 1 --threads 1 --seed 1 --format json)
  kind=play skip=""
  case $1 in
    greedy-dellacherie) args=(play --policy dellacherie "${greedy[@]}" --max-pieces "${cap[dellacherie]}") ;;
    greedy-bcts) args=(play --policy bcts "${greedy[@]}" --max-pieces "${cap[bcts]}") ;;
    greedy-bcts-avx2)
      args=(play --policy bcts "${greedy[@]}" --max-pieces "${cap[avx2]}" --kernel avx2)
      has_flag avx2 || skip="this CPU lacks avx2" ;;
    greedy-bcts-avx512)
      args=(play --policy bcts "${greedy[@]}" --max-pieces "${cap[bcts]}" --kernel avx512)
      { has_flag avx512f && has_flag avx512bw && has_flag avx512vl; } ||
        skip="this CPU lacks avx512f/avx512bw/avx512vl" ;;
    2ply-bcts) args=(play --policy bcts "${greedy[@]}" --max-pieces "${cap[2ply]}" --lookahead 1) ;;
    guideline-2ply-bcts)
      args=(play --policy bcts --rules guideline --lookahead 1 --games 2 --threads 1 --seed 1
        --format json --max-pieces "${cap[guideline]}") ;;
    ntuple-learn)
      kind=learn
      args=(learn --learner ntuple --pieces "${cap[learn]}" --seed 1 --eval-games 0 --threads 1
        --out "$weights") ;;
    ntuple-learn-2t)
      kind=learn-wall
      args=(learn --learner ntuple --pieces "${cap[learn2t]}" --seed 1 --eval-games 0 --threads 2
        --out "$weights") ;;
    bm-decide)
      kind=bench
      args=("--benchmark_filter=^${bench_case}\$" --benchmark_format=json
        "--benchmark_min_time=$bench_min_time") ;;
  esac
}

# Runs argv with stdout and stderr to files; prints "exit_status cpu_seconds wall_seconds",
# the CPU time being user+sys of the child (all its threads) from wait4.
py_run='
import os, subprocess, sys, time
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
with open(out, "wb") as fo, open(err, "wb") as fe:
    t0 = time.perf_counter()
    try:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=fo, stderr=fe)
    except OSError as e:
        fe.write(str(e).encode()); print("127 0 0"); sys.exit(0)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
p.returncode = os.waitstatus_to_exitcode(status)
print(p.returncode, "%.6f" % (ru.ru_utime + ru.ru_stime), "%.6f" % wall)
'
# play JSON -> "pieces kernel signature": the signature is the summary and the per-game
# records less their timings (mean_lines, lines, pieces, points, holes, ...), compact JSON.
py_play='
import json, sys
d = json.load(open(sys.argv[1]))
timing = lambda k: k == "seconds" or k.endswith("_seconds") or "per_second" in k
s = {k: v for k, v in d.get("summary", {}).items() if not timing(k)}
games = [{k: v for k, v in g.items() if not timing(k)} for g in d.get("games", [])]
pieces = s.get("pieces")
if pieces is None:
    pieces = sum(g.get("pieces", 0) for g in games)
if not pieces:
    sys.exit("no piece count in the JSON")
if "mean_lines" not in s and "lines" not in s:
    sys.exit("no mean_lines or lines in the JSON")
sig = json.dumps({"summary": s, "games": games}, separators=(",", ":"))
print(pieces, d.get("run", {}).get("kernel", "-"), sig)
'
# Two play signatures -> nothing if they agree on every field both have, else the first
# difference (fields that only one revision reports are not compared, nor a null on one side:
# since dd24771 one game's spread statistics are null where older revisions wrote 0).
py_same='
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
def diff(x, y, where):
    if x is None or y is None:
        return ""
    if isinstance(x, dict) and isinstance(y, dict):
        for k in x:
            if k in y:
                d = diff(x[k], y[k], where + "." + k if where else k)
                if d: return d
        return ""
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y)):
            d = diff(u, v, "%s[%d]" % (where, i))
            if d: return d
        return ""
    return "" if x == y else "%s: %s vs %s" % (where, json.dumps(x), json.dumps(y))
print(diff(a, b, ""))
'
# Google Benchmark JSON -> "ok NS" (real time per iteration), "missing" or "error MESSAGE".
py_bench='
import json, sys
d = json.load(open(sys.argv[1]))
unit = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
for b in d.get("benchmarks", []):
    if b.get("run_name", b.get("name")) != sys.argv[2] or b.get("run_type", "iteration") != "iteration":
        continue
    if b.get("error_occurred"):
        print("error", b.get("error_message", "")); sys.exit(0)
    print("ok", "%.6f" % (b["real_time"] * unit[b.get("time_unit", "ns")])); sys.exit(0)
print("missing")
'

# ntuple-learn-x2: two one-thread runs at once, one pinned to each of the first two CPUs of the
# list argv[1] ("0-1,4").  argv: CPUS OUT_A ERR_A OUT_B ERR_B CMD_A... ::pair:: CMD_B...
# Prints "status_a status_b wall_seconds", or "skip" with fewer than two CPUs.
py_pair='
import subprocess, sys, time
cpus = []
for part in sys.argv[1].split(","):
    lo, _, hi = part.partition("-")
    cpus += range(int(lo), int(hi or lo) + 1)
if len(cpus) < 2:
    print("skip"); sys.exit(0)
rest = sys.argv[6:]
cut = rest.index("::pair::")
cmds = [rest[:cut], rest[cut + 1:]]
files = [(sys.argv[2], sys.argv[3]), (sys.argv[4], sys.argv[5])]
t0 = time.perf_counter()
procs = []
for cpu, cmd, (out, err) in zip(cpus[:2], cmds, files):
    with open(out, "wb") as fo, open(err, "wb") as fe:
        try:
            procs.append(subprocess.Popen(["taskset", "-c", str(cpu)] + cmd, stdin=subprocess.DEVNULL, stdout=fo, stderr=fe))
        except OSError as e:
            fe.write(str(e).encode())
            for p in procs:
                p.kill(); p.wait()
            print("127 127 0"); sys.exit(0)
codes = [p.wait() for p in procs]
print(codes[0], codes[1], "%.6f" % (time.perf_counter() - t0))
'

first_line() { head -n 1 "$1" | cut -c 1-100; }
# The N of a learn run's "trained on N pieces" line in file $1, or nothing.
trained_pieces() {
  local line
  line=$(grep -m1 -E '^trained on [0-9]+ pieces' "$1" || true)
  [[ $line =~ ^trained\ on\ ([0-9]+)\ pieces ]] && echo "${BASH_REMATCH[1]}"
  return 0
}
# Thousands of PIECES per SECONDS, 6 decimals.
kpieces_per() { awk -v p="$1" -v s="$2" 'BEGIN { printf "%.6f", p / (s > 1e-6 ? s : 1e-6) / 1000 }'; }

# One run of the current workload on side old|new.  Sets: r_value (the measured number),
# r_alt (learn only: runs per second of the same clock, for when a side prints no piece
# count), r_counted (1 if it printed one), r_sig (what must agree between the sides),
# r_kernel, r_err (why it failed).  Returns 1 on failure.
run_once() {
  local side=$1 bin bench measure status cpu wall line pieces secs
  r_value="" r_alt="" r_counted=1 r_sig="-" r_kernel="-" r_err=""
  if [ "$side" = old ]; then bin=$old_bin bench=$old_bench; else bin=$new_bin bench=$new_bench; fi
  local out=$tmp/run/$side.out err=$tmp/run/$side.err
  rm -f -- "$weights"
  if [ "$kind" = bench ]; then
    [ -x "$bench" ] || { r_err="no $bench"; return 1; }
    measure=$("$py" -c "$py_run" "$out" "$err" "$bench" "${args[@]}")
  elif [ "$kind" = learn-wall ] && [ -n "$all_cpus" ]; then  # every CPU, whatever the pin
    measure=$("$py" -c "$py_run" "$out" "$err" taskset -c "$all_cpus" "$bin" "${args[@]}")
  else
    measure=$("$py" -c "$py_run" "$out" "$err" "$bin" "${args[@]}")
  fi
  read -r status cpu wall <<<"$measure"
  [ "$status" = 0 ] || { r_err="exit $status: $(first_line "$err")"; return 1; }
  case $kind in
    play)
      line=$("$py" -c "$py_play" "$out" 2>"$tmp/run/parse.err") ||
        { r_err="unreadable JSON: $(first_line "$tmp/run/parse.err")"; return 1; }
      read -r pieces r_kernel r_sig <<<"$line"
      r_value=$(awk -v p="$pieces" -v c="$cpu" 'BEGIN { printf "%.6f", p / (c > 1e-6 ? c : 1e-6) / 1000 }') ;;
    learn | learn-wall)
      [ -f "$weights" ] || { r_err="wrote no weights"; return 1; }
      r_sig="weights=$(sha256sum <"$weights" | cut -c 1-16)"
      if [ "$kind" = learn ]; then secs=$cpu; else secs=$wall; fi
      r_alt=$(awk -v s="$secs" 'BEGIN { printf "%.6f", 1 / (s > 1e-6 ? s : 1e-6) }')
      pieces=$(trained_pieces "$out")
      if [ -n "$pieces" ]; then
        r_value=$(kpieces_per "$pieces" "$secs")
      else
        r_counted=0
      fi ;;
    bench)
      line=$("$py" -c "$py_bench" "$out" "$bench_case" 2>"$tmp/run/parse.err") ||
        { r_err="unreadable JSON: $(first_line "$tmp/run/parse.err")"; return 1; }
      case $line in
        ok\ *) r_value=${line#ok } ;;
        missing) r_err="no $bench_case"; return 1 ;;
        *) r_err="benchmark ${line}"; return 1 ;;
      esac ;;
  esac
  return 0
}

# Succeeds, printing the difference, if two signatures of the current workload disagree.
differs() {
  local d
  if [ "$kind" = play ]; then
    d=$("$py" -c "$py_same" "$1" "$2") || d="signatures unreadable"
  else
    [ "$1" = "$2" ] && d="" || d="$1 vs $2"
  fi
  [ -n "$d" ] && printf '%s' "$d"
}

# BM_Handoff's time per round trip ("435 ns"), or n/a without the current build's bench_handoff.
handoff_ns() {
  [ -n "$new_handoff" ] || { echo n/a; return; }
  taskset -c 0,1 "$new_handoff" --benchmark_min_time=0.2 2>/dev/null |
    awk '/^BM_Handoff/ { printf "%.0f %s", $2, $3; found = 1 } END { if (!found) printf "n/a" }'
}

fmt_values() { local decimals=$1 v; shift; for v in "$@"; do printf ' %7.*f' "$decimals" "$v"; done; }

median_of() {  # VALUES...: their median, 6 decimals
  printf '%s\n' "$@" | sort -g | awk '
    { v[NR] = $1 } END { printf "%.6f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

unit_of() {  # KIND COUNTED
  case $1:$2 in
    play:* | learn:1) echo "kpieces/cpu-s" ;;
    learn-wall:1) echo "kpieces/wall-s" ;;
    learn:0) echo "runs/cpu-s" ;;
    learn-wall:0) echo "runs/wall-s" ;;
    bench:*) echo "ns/decision" ;;
  esac
}

# --- header ---------------------------------------------------------------------------------
colw=$((pairs * 8 + 1))
echo "$me: $(date -u '+%Y-%m-%d %H:%M UTC'); host CPU: ${cpu_model:-unknown} ($(nproc --all) logical CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'))"
echo "CPUs: the runs use ${my_cpus:-unknown}$([ -z "$all_cpus" ] || echo ", ntuple-learn-2t every online CPU ($all_cpus)")"
# The compiler each binary was built with, as its `tetrisbench info` says (older builds: unknown).
# With the flags `info` shows, a build made with a profile and ThinLTO (scripts/common.sh) says so.
compiler_of() {
  local line
  line=$("$1" info 2>/dev/null | grep -m 1 '^compiler ' || true)
  [ -n "$line" ] || return 0
  local name
  name=$(sed -n 's/^compiler  *\([^,]*\),.*/\1/p' <<<"$line")
  case $line in *-fprofile-instr-use=*) name+=", profile-guided" ;; esac
  case $line in *-flto=thin*) name+=", ThinLTO" ;; esac
  echo "$name"
}
old_compiler=$(compiler_of "$old_bin") new_compiler=$(compiler_of "$new_bin")
echo "old: $old_label  $old_src (compiler: ${old_compiler:-unknown})"
echo "new: $new_short (build $build)  $new_src (copied at the start; compiler: ${new_compiler:-unknown})"
echo "runs alternate old, new, old, new, ...: $pairs pairs per workload$([ "$quick" -eq 0 ] || echo '; --quick (smoke test: ratios are noise)')"
echo "commands (BIN = old or new tetrisbench, BENCH = its bench/bench_decide):"
for w in "${workloads[@]}"; do
  set_workload "$w"
  if [ "$kind" = bench ]; then printf '  %-20s BENCH' "$w"; else printf '  %-20s BIN' "$w"; fi
  printf ' %q' "${args[@]}"
  printf '\n'
done
echo "speed: work per CPU-second (user+sys) of the process; -2t: per wall-second; bm-decide: real ns per decision, ratio old/new"
echo "ratio: median over the pairs of new speed / old speed (>1: new is faster); range: min-max of the pair ratios"
echo
printf '%-20s %-14s %-*s %-*s %7s  %s\n' workload unit "$colw" "old $old_short" "$colw" "new $new_short" ratio range

# ntuple-learn-x2 (see the header), run right after the ntuple-learn-2t row: `pairs` runs of
# two one-thread learners at once, each of which must learn ntuple-learn's weights.
learn_x2() {
  local saved_weights=$weights pair_speeds=() pair_note="" args_a args_b measure st_a st_b wall
  local pieces_both pieces side sig_a sig_b p
  for ((p = 1; p <= pairs; p++)); do
    echo "$me: ntuple-learn-x2 run $p/$pairs" >&2
    weights=$tmp/run/pair-a.policy; set_workload ntuple-learn; args_a=("${args[@]}")
    weights=$tmp/run/pair-b.policy; set_workload ntuple-learn; args_b=("${args[@]}")
    rm -f -- "$tmp/run/pair-a.policy" "$tmp/run/pair-b.policy"
    measure=$("$py" -c "$py_pair" "$all_cpus" "$tmp/run/pair-a.out" "$tmp/run/pair-a.err" \
      "$tmp/run/pair-b.out" "$tmp/run/pair-b.err" "$new_bin" "${args_a[@]}" ::pair:: "$new_bin" "${args_b[@]}")
    if [ "$measure" = skip ]; then pair_note="skipped: fewer than two online CPUs"; break; fi
    read -r st_a st_b wall <<<"$measure"
    if [ "$st_a" != 0 ] || [ "$st_b" != 0 ]; then
      pair_note="FAILED: exit $st_a and $st_b"; status=1; break
    fi
    pieces_both=0
    for side in a b; do
      pieces=$(trained_pieces "$tmp/run/pair-$side.out")
      pieces_both=$((pieces_both + ${pieces:-0}))
    done
    sig_a=weights=$(sha256sum <"$tmp/run/pair-a.policy" 2>/dev/null | cut -c 1-16 || true)
    sig_b=weights=$(sha256sum <"$tmp/run/pair-b.policy" 2>/dev/null | cut -c 1-16 || true)
    if [ "$sig_a" != "$learn_ref" ] || [ "$sig_b" != "$learn_ref" ] || [ "$pieces_both" -eq 0 ]; then
      pair_note="MISMATCH: the two runs did not learn ntuple-learn's weights (or printed no piece count)"
      mismatches+=(ntuple-learn-x2) status=1; break
    fi
    pair_speeds+=("$(kpieces_per "$pieces_both" "$wall")")
  done
  weights=$saved_weights
  if [ -n "$pair_note" ]; then
    printf '%-20s %s\n' ntuple-learn-x2 "$pair_note"
  else
    new_median[ntuple-learn-x2]=$(median_of "${pair_speeds[@]}")
    printf '%-20s %-14s %-*s %s\n' ntuple-learn-x2 kpieces/wall-s "$colw" "$(fmt_values 1 "${pair_speeds[@]}")" \
      "(new build only: two ntuple-learn runs at once, one per CPU; both learned the same weights)"
  fi
}

# --- the runs ---------------------------------------------------------------------------------
# Warm the page cache for both binaries.
"$old_bin" --version >/dev/null 2>&1 || true
"$new_bin" --version >/dev/null 2>&1 || true
status=0 mismatches=() index=0 learn_ref=""
declare -A new_median=()
for w in "${workloads[@]}"; do
  index=$((index + 1))
  set_workload "$w"
  if [ "$kind" = bench ] && [ ! -x "$new_bench" ]; then
    skip="the current build has no bench/bench_decide: cmake --build $build --target bench_decide"
  fi
  if [ -n "$skip" ]; then
    printf '%-20s n/a (%s)\n' "$w" "$skip"; continue
  fi
  olds=() news=() olds_alt=() news_alt=() counted=1 row_note="" ref_sig="" bad_sig="" okernel="" nkernel=""
  handoff_before=""
  [ "$kind" != learn-wall ] || handoff_before=$(handoff_ns)
  for ((p = 1; p <= pairs; p++)); do
    echo "$me: [$index/${#workloads[@]}] $w pair $p/$pairs" >&2
    if ! run_once old; then
      if [ "$p" -eq 1 ]; then row_note="n/a ($old_short lacks it: $r_err)"
      else row_note="FAILED on old run $p: $r_err"; status=1; fi
      break
    fi
    o_value=$r_value o_alt=$r_alt o_sig=$r_sig okernel=$r_kernel
    [ "$r_counted" -eq 1 ] || counted=0
    if ! run_once new; then
      row_note="FAILED on the current build: $r_err"; status=1; break
    fi
    n_value=$r_value n_alt=$r_alt n_sig=$r_sig nkernel=$r_kernel
    [ "$r_counted" -eq 1 ] || counted=0
    olds+=("$o_value") news+=("$n_value") olds_alt+=("$o_alt") news_alt+=("$n_alt")
    [ -n "$ref_sig" ] || ref_sig=$o_sig
    if [ -z "$bad_sig" ]; then
      d=$(differs "$ref_sig" "$o_sig") && bad_sig="old run 1 vs old run $p: $d"
    fi
    if [ -z "$bad_sig" ]; then
      d=$(differs "$ref_sig" "$n_sig") && bad_sig="old run 1 vs new run $p: $d"
    fi
  done
  if [ -n "$row_note" ]; then
    printf '%-20s %s\n' "$w" "$row_note"; continue
  fi
  # A learn side without a piece count: both sides in runs per second instead.
  decimals=1
  if [ "$counted" -eq 0 ]; then olds=("${olds_alt[@]}") news=("${news_alt[@]}") decimals=3; fi
  unit=$(unit_of "$kind" "$counted")
  ratios=()
  for ((i = 0; i < ${#olds[@]}; i++)); do
    if [ "$kind" = bench ]; then  # times: old/new
      ratios+=("$(awk -v a="${news[i]}" -v b="${olds[i]}" 'BEGIN { printf "%.6f", b / (a > 0 ? a : 1e-9) }')")
    else  # speeds: new/old
      ratios+=("$(awk -v a="${olds[i]}" -v b="${news[i]}" 'BEGIN { printf "%.6f", b / (a > 0 ? a : 1e-9) }')")
    fi
  done
  summary=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '
    { r[NR] = $1 } END {
      m = (NR % 2) ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
      printf "%7.3f  %.3f-%.3f", m, r[1], r[NR] }')
  printf '%-20s %-14s %-*s %-*s %s\n' "$w" "$unit" "$colw" "$(fmt_values "$decimals" "${olds[@]}")" \
    "$colw" "$(fmt_values "$decimals" "${news[@]}")" "$summary"
  if [ "$okernel" != "$nkernel" ]; then
    printf '%-20s note: kernels differ (old %s, new %s)\n' "" "$okernel" "$nkernel"
  fi
  [ "$w" != ntuple-learn ] || learn_ref=$ref_sig
  [ "$counted" -eq 0 ] || new_median[$w]=$(median_of "${news[@]}")
  if [ "$kind" = learn-wall ]; then
    printf '%-20s BM_Handoff (a cache line'"'"'s round trip between CPUs 0 and 1): %s before, %s after\n' "" \
      "${handoff_before:-n/a}" "$(handoff_ns)"
  fi
  if [ "$w" = ntuple-learn-2t ] && [ -z "$bad_sig" ] && [ -n "${new_median[ntuple-learn]:-}" ] &&
    [ -n "${new_median[ntuple-learn-2t]:-}" ] && [ -n "$all_cpus" ]; then
    learn_x2
  fi
  if [ -n "$bad_sig" ]; then
    printf '%-20s MISMATCH!!! the runs did different work, the ratio does not count: %s\n' "" "$bad_sig"
    mismatches+=("$w") status=1
  fi
done

# Two of issue 12's targets compare workloads of the current build with each other.
same_build() {  # LABEL A B TARGET: the current build's median speed on A over its median on B
  [ -n "${new_median[$2]:-}" ] && [ -n "${new_median[$3]:-}" ] || return 0
  printf '  %-58s %6.3f  (%s)\n' "$1" \
    "$(awk -v a="${new_median[$2]}" -v b="${new_median[$3]}" 'BEGIN { printf "%.6f", a / (b > 0 ? b : 1e-9) }')" "$4"
}
if [ ${#new_median[@]} -gt 0 ]; then
  echo
  echo "the current build against itself (medians of its runs above; the rows of a ratio ran one after the other, not alternately):"
  same_build "greedy-bcts-avx2 / greedy-bcts-avx512" greedy-bcts-avx2 greedy-bcts-avx512 "target >= 0.75"
  same_build "ntuple-learn-2t (per wall-s) / ntuple-learn (per CPU-s)" ntuple-learn-2t ntuple-learn \
    "target >= 1.6; see BM_Handoff above"
  same_build "ntuple-learn-x2 (per wall-s) / ntuple-learn (per CPU-s)" ntuple-learn-x2 ntuple-learn \
    "two independent runs: what the host gives two CPUs now"
  same_build "ntuple-learn-2t / ntuple-learn-x2 (both per wall-s)" ntuple-learn-2t ntuple-learn-x2 \
    "the 2-thread learner's share of what the two runs got"
fi

echo
if [ ${#mismatches[@]} -gt 0 ]; then
  echo "$me: MISMATCH in ${mismatches[*]}: $old_short and $new_short did not play the same games (or learn the same weights)"
fi
echo "$me: $((t_built - t_start)) s building, $((SECONDS - t_built)) s running; exit status $status"
exit "$status"
