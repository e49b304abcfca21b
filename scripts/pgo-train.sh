#!/usr/bin/env bash
# The training runs of the profile-guided build (scripts/common.sh `tb_build`; docs/performance.md
# "Profile-guided build"): fixed workloads of an instrumented tetrisbench, one thread each, so
# that the profile is the same on every run of one machine.  Every kernel this CPU runs is
# trained (a kernel left out would be laid out as cold code; the AVX2 files are compiled
# without the profile, CMakeLists.txt, but their runs train the code around them); the
# reference kernel is not (it is the oracle, never a fast path).  A workload the mix
# underweights can come out slower than a plain build (docs/performance.md: the n-tuple
# learner at 100,000 pieces), so a new hot path needs a run here.  About 8 s on a 2-vCPU AMD
# EPYC host.
#
#   LLVM_PROFILE_FILE=DIR/%p.profraw scripts/pgo-train.sh BIN
# BIN: a tetrisbench built with -DTETRISBENCH_PGO_GENERATE=ON.  Exit status: 0, or the first
# failing run's (each run's output goes to /dev/null, its errors to stderr).
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: LLVM_PROFILE_FILE=DIR/%p.profraw $0 BIN" >&2; exit 2; }
bin=$1
[ -x "$bin" ] || { echo "pgo-train: $bin is not an executable" >&2; exit 2; }
[ -n "${LLVM_PROFILE_FILE:-}" ] || { echo "pgo-train: set LLVM_PROFILE_FILE (where the profile goes)" >&2; exit 2; }
unset TETRISBENCH_KERNEL

run() { "$bin" "$@" >/dev/null; }

# The kernels `info` lists as available, best first.
mapfile -t kernels < <("$bin" info | awk '$2 == "available" && $1 != "reference" {print $1}')
[ ${#kernels[@]} -gt 0 ] || { echo "pgo-train: $bin info lists no kernel" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
one=(--games 1 --threads 1 --seed 1)
for k in "${kernels[@]}"; do
  for p in bcts dellacherie dt20; do
    run play --policy "$p" --board 10x20 "${one[@]}" --max-pieces 100000 --kernel "$k"
  done
  run play --policy bcts --board 10x20 "${one[@]}" --max-pieces 3000 --lookahead 1 --kernel "$k"
done
run play --policy bcts --rules guideline --lookahead 1 "${one[@]}" --max-pieces 200
run play --policy lee --rules lee "${one[@]}" --max-pieces 200
run play --policy bcts --board 10x10 --games 100 --threads 1 --seed 1
run learn --learner ntuple --pieces 1000000 --seed 1 --eval-games 0 --threads 1 --out "$work/ntuple.json"
run learn --learner tdlambda --pieces 200000 --seed 1 --eval-games 0 --threads 1 --out "$work/td.json"
