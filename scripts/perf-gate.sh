#!/usr/bin/env bash
# CI performance gate: instructions per piece placed, counted by callgrind (exactly
# repeatable on a noisy machine), on one thread, for two workload groups of `tetrisbench bench`:
#   research   --suite research: 43,679 pieces, the whole bench before the guideline, lee,
#              n-tuple and tie-noise groups were added, so its counts stay comparable with
#              the baseline's history (rows `scalar`, `avx2`);
#   guideline  --suite guideline: SRS and reachable placements (the flood fill, the bound of
#              pruned 2-ply), 3,382 pieces (rows `guideline-scalar`, `guideline-avx2`).
# Fails if a row's count grows more than 3% over results/baselines/perf-gate.txt.
#
#   scripts/perf-gate.sh [BUILD_DIR]            check (BUILD_DIR defaults to build/)
#   scripts/perf-gate.sh --update [BUILD_DIR]   write the current counts as the new baseline
#
# Kernels gated: scalar (the portable path) and avx2 (valgrind 3.19 cannot run AVX-512 code,
# so the avx512 variant is measured by the Google Benchmark suites instead).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
build=${1:-$root/build}
bin=$build/cli/tetrisbench
baseline=$root/results/baselines/perf-gate.txt
tolerance=1.03
command -v valgrind >/dev/null || { echo "perf-gate: valgrind is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "perf-gate: $bin not built" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
declare -A measured
rows=()
for suite in research guideline; do
  for kernel in scalar avx2; do
    row=$kernel
    [ "$suite" = research ] || row=$suite-$kernel
    rows+=("$row")
    valgrind --tool=callgrind --callgrind-out-file="$work/cg.$row" \
      "$bin" bench --suite "$suite" --threads 1 --kernel "$kernel" >"$work/out.$row" 2>/dev/null
    ir=$(awk '/^summary:/ {print $2}' "$work/cg.$row")
    pieces=$(awk '$1 == "pieces" && $2 ~ /^[0-9]+$/ {print $2}' "$work/out.$row")
    measured[$row]=$((ir / pieces))
    echo "perf-gate: $row: $ir instructions / $pieces pieces = ${measured[$row]} per piece"
  done
done

if [ "$update" -eq 1 ]; then
  {
    echo "# instructions per piece: scripts/perf-gate.sh --update, $(date -u +%Y-%m-%d), $(git -C "$root" rev-parse --short HEAD)"
    for row in "${rows[@]}"; do echo "$row ${measured[$row]}"; done
  } >"$baseline"
  echo "perf-gate: baseline written to $baseline"
  exit 0
fi

[ -f "$baseline" ] || { echo "perf-gate: no baseline $baseline (run with --update)" >&2; exit 2; }
status=0
for row in "${rows[@]}"; do
  base=$(awk -v k="$row" '$1 == k {print $2}' "$baseline")
  [ -n "$base" ] || { echo "perf-gate: $row missing from $baseline" >&2; status=1; continue; }
  verdict=$(awk -v now="${measured[$row]}" -v base="$base" -v tol="$tolerance" 'BEGIN {
    ratio = now / base
    if (ratio > tol) printf "FAIL %.4f", ratio; else printf "ok %.4f", ratio }')
  echo "perf-gate: $row ${measured[$row]} vs baseline $base: $verdict"
  case $verdict in FAIL*) status=1 ;; esac
  case $verdict in ok\ 0.9[0-6]*|ok\ 0.[0-8]*) echo "perf-gate: $row got cheaper; consider --update" ;; esac
done
exit $status
