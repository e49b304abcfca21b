#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tb_install_missing
tb_build -DTETRISBENCH_BUILD_TESTS=ON
ctest --test-dir "$TB_BUILD" -j "$(nproc)" --output-on-failure "$@"
