#!/usr/bin/env bash
# Compiles the MPI backend with g++ in build-gcc-mpi/, a combination no other CI step builds:
# the tests build with clang (build/, build-asan/) or without MPI (build-tsan/, g++).  The
# backend is one file, engine/cluster/mpi_backend.cpp, with the engine's headers; everything
# else g++ compiles is already covered by the TSan build.  Run by .ci/run.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
tb_install_missing
build=$TB_ROOT/build-gcc-mpi
cmake -S "$TB_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=g++ \
  -DTETRISBENCH_MPI=ON -DTETRISBENCH_PYTHON=OFF -DTETRISBENCH_BUILD_TESTS=OFF -DTETRISBENCH_BUILD_BENCH=OFF >&2
cmake --build "$build" --target tb_mpi_backend >&2
echo "gcc-mpi-check: g++ compiled the MPI backend ($build/cli/tetrisbench-mpi.so)"
