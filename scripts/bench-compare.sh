#!/usr/bin/env bash
# For developers: compare two builds' Google Benchmark results with Debian's compare.py
# (Mann-Whitney U test over the repetitions).  It reports and never fails; the CI gate is
# scripts/perf-gate.sh.
#
#   scripts/bench-compare.sh OLD_BUILD_DIR NEW_BUILD_DIR [BENCH [FILTER]]
#     BENCH   one of bench_decide, bench_features, bench_play (default bench_decide)
#     FILTER  a --benchmark_filter regex (default: all)
# Example: git worktree add /tmp/old HEAD~1 && cmake -S /tmp/old -B /tmp/old/build -G Ninja &&
#          ninja -C /tmp/old/build && scripts/bench-compare.sh /tmp/old/build build
set -euo pipefail
[ $# -ge 2 ] || { sed -n 2,11p "$0"; exit 2; }
old=$1 new=$2 bench=${3:-bench_decide} filter=${4:-.}
compare=/usr/share/benchmark/compare.py
[ -f "$compare" ] || { echo "bench-compare: $compare missing (apt-get install libbenchmark-tools)" >&2; exit 2; }
out=$(mktemp -d)
for side in old new; do
  dir=${!side}
  "$dir/bench/$bench" --benchmark_filter="$filter" --benchmark_repetitions=9 \
    --benchmark_min_time=0.2 --benchmark_out="$out/$side.json" --benchmark_out_format=json >&2
done
/usr/bin/python3 "$compare" benchmarks "$out/old.json" "$out/new.json"
echo "raw results: $out/old.json $out/new.json"
