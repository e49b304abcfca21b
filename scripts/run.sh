#!/usr/bin/env bash
# Installs what is missing, builds, and runs the main job with a small default:
# BCTS on 10x10, 200 games (about 10 s on 2 cores).  Extra arguments go to `tetrisbench play`.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tb_install_missing
tb_build
exec "$TB_BUILD/cli/tetrisbench" play --policy bcts --board 10x10 --games 200 --seed 1 "$@"
