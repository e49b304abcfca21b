#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job with a small default: the optimizer
# comparison experiments/configs/small-10x10.toml (CMA-ES, CE, GA and PSO learning BCTS
# weights on 10x10, 3 runs each; a few minutes on 2 cores).  It writes
# results/small-10x10/<UTC time>/report.md with plots.  Extra arguments go to `compare`
# (for example --threads 1 or --out DIR).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tb_install_missing
tb_build
cd "$TB_ROOT"
exec "$TB_BUILD/cli/tetrisbench" compare experiments/configs/small-10x10.toml "$@"
