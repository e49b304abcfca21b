#!/usr/bin/env bash
# The CMA-ES correctness table of docs/optimizers.md: evaluations to f < 1e-8 over 51 runs
# (x0 uniform in [-5, 5]^n, sigma0 0.5, protocol seed 1) through `tetrisbench optimize`,
# against reference medians measured with libcmaes 0.10.3 / pycma 4.4.0.
#
#   scripts/cmaes-table.sh [PATH/TO/tetrisbench] > table.md
#
# Bars: our median <= 1.2 x the reference in every cell (active against the active
# references), Rosenbrock successes >= 75%, IPOP on Rastrigin >= 49/51 within 1e6 evaluations.
# Prints the markdown table on stdout and exits 1 if a bar is missed.  Raw reports stay in the
# folder named on stderr.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=${1:-$root/build/cli/tetrisbench}
[ -x "$bin" ] || { echo "cmaes-table: no tetrisbench at $bin (build it, or pass its path)" >&2; exit 2; }
raw=$(mktemp -d)
runs=51 budget=1000000

# optimizer objective n reference-median ("-": none)
cells=(
  "cmaes sphere 8 1257"      "cmaes sphere 20 2829"
  "cmaes ellipsoid 8 4228"   "cmaes ellipsoid 20 18459"
  "cmaes rosenbrock 8 4620"  "cmaes rosenbrock 20 20873"
  "cmaes-active ellipsoid 8 3234"   "cmaes-active ellipsoid 20 12973"
  "cmaes-active rosenbrock 8 3950"  "cmaes-active rosenbrock 20 17200"
  "ipop-cmaes rastrigin 8 -" "ipop-cmaes rastrigin 20 -"
)
for cell in "${cells[@]}"; do
  read -r optimizer objective n ref <<<"$cell"
  echo "cmaes-table: $optimizer $objective n=$n" >&2
  "$bin" optimize --optimizer "$optimizer" --objective "$objective" --dim "$n" --runs "$runs" \
    --sigma0 0.5 --target 1e-8 --max-evals "$budget" --seed 1 --format json \
    --out "$raw/$optimizer-$objective-$n.json"
  echo "$optimizer $objective $n $ref $raw/$optimizer-$objective-$n.json" >>"$raw/cells.txt"
done
echo "cmaes-table: raw reports in $raw" >&2

python3 - "$raw/cells.txt" <<'EOF'
import json, sys
print("| optimizer | objective | n | reference median | our median | ratio | successes | aRT | bar |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
missed = 0
for line in open(sys.argv[1]):
    optimizer, objective, n, ref, path = line.split()
    s = json.load(open(path))["summary"]
    med, art, ok = s["median_evals"], s["aRT"], s["successes"]
    checks = []
    if ref != "-":
        ratio = med / float(ref) if med is not None else float("inf")
        checks.append(ratio <= 1.2)
        ref_text, ratio_text = f"{int(ref):,}", f"{ratio:.2f}"
    else:
        ref_text, ratio_text = "-", "-"
    if objective == "rosenbrock":
        checks.append(ok >= 0.75 * s["runs"])
    if objective == "rastrigin":
        checks.append(ok >= 49)
    bar = "ok" if all(checks) else "MISSED"
    missed += bar != "ok"
    med_text = f"{med:,.0f}" if med is not None else "-"
    art_text = f"{art:,.0f}" if art is not None else "-"
    print(f"| {optimizer} | {objective} | {n} | {ref_text} | {med_text} | {ratio_text} | "
          f"{ok}/{s['runs']} | {art_text} | {bar} |")
sys.exit(1 if missed else 0)
EOF
