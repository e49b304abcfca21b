# Shared by run.sh, test.sh and fuzz.sh: install what is missing from Debian's apt, then
# configure and build.  Source it; do not run it.
set -euo pipefail

TB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TB_BUILD=${TB_BUILD:-$TB_ROOT/build}

TB_PACKAGES=(cmake ninja-build g++ clang git libtbb-dev libxsimd-dev xtl-dev libeigen3-dev
  libbenchmark-dev libbenchmark-tools libgtest-dev libgmock-dev libcli11-dev
  nlohmann-json3-dev libtomlplusplus-dev libpng-dev valgrind python3-matplotlib python3-numpy python3-scipy
  libopenmpi-dev openmpi-bin pybind11-dev python3-dev python3-pytest python3-optuna llvm lld
  # `pip install .` (docs/python.md "Install"): venv, pip, and setuptools with wheel to build the wheel
  python3-venv python3-pip python3-setuptools python3-wheel)

tb_install_missing() {
  local missing=()
  for p in "${TB_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "installing: ${missing[*]}" >&2
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get install -y "${missing[@]}" >&2 ||
    { $sudo apt-get update >&2 && $sudo apt-get install -y "${missing[@]}" >&2; }
}

# The C++ compiler of tb_build: clang++ (Debian 12's clang 14) unless TB_CXX names another.
# clang 14 compiles the drop scorer's vector passes faster than g++ 12: greedy play 1.00-1.03x,
# 2-ply 1.15x, BM_Decide 1.05-1.10x (docs/performance.md "Compiler"); g++ gives the same results.
TB_CXX=${TB_CXX:-clang++}

# Profile-guided and link-time optimization (docs/performance.md "Profile-guided build"): with
# clang and TB_PGO=1, tb_build first makes a profile (tb_pgo_profile) and builds with it and
# ThinLTO: the same results, faster decisions.  run.sh, the shipped build, defaults to 1;
# test.sh defaults to 0 (a plain build: the tests check results, which the profile never
# changes, and a profile would cost every test run an instrumented build and training games).
TB_PGO=${TB_PGO:-1}

# The profile for $TB_BUILD: an instrumented tetrisbench in $TB_BUILD-pgo/build runs
# scripts/pgo-train.sh, and llvm-profdata merges what it wrote into
# $TB_BUILD-pgo/tetrisbench-HASH.profdata, HASH a hash of the sources it was made from.  Made
# again only when the sources change; the new name changes the compile flags, so that ninja
# then compiles every file of $TB_BUILD with the new profile.  Prints the profile's path.
tb_pgo_profile() {
  local dir=$TB_BUILD-pgo stamp raw
  stamp=$(cd "$TB_ROOT" && find CMakeLists.txt cli engine kernels experiments results/CMakeLists.txt results/policies \
    scripts/pgo-train.sh -name __pycache__ -prune -o \
    -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
  local profile=$dir/tetrisbench-$stamp.profdata
  if [ -f "$profile" ]; then
    echo "$profile"
    return
  fi
  echo "tb_build: making the profile of the profile-guided build in $dir" >&2
  cmake -S "$TB_ROOT" -B "$dir/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$TB_CXX" \
    -DTETRISBENCH_PGO_GENERATE=ON -DTETRISBENCH_BUILD_TESTS=OFF -DTETRISBENCH_BUILD_BENCH=OFF \
    -DTETRISBENCH_PYTHON=OFF -DTETRISBENCH_MPI=OFF >&2 || return 1
  cmake --build "$dir/build" --target tetrisbench >&2 || return 1
  raw=$(mktemp -d)
  LLVM_PROFILE_FILE="$raw/%p.profraw" bash "$TB_ROOT/scripts/pgo-train.sh" "$dir/build/cli/tetrisbench" >&2 ||
    { rm -rf "$raw"; return 1; }
  llvm-profdata merge -o "$raw/merged.profdata" "$raw"/*.profraw >&2 || { rm -rf "$raw"; return 1; }
  rm -f "$dir"/tetrisbench-*.profdata  # (only this function writes such files)
  mv "$raw/merged.profdata" "$profile"
  rm -rf "$raw"
  echo "$profile"
}

tb_build() {
  local optimize=()
  case $TB_PGO in 0 | 1) ;; *) echo "tb_build: TB_PGO must be 0 or 1, not '$TB_PGO'" >&2; return 2 ;; esac
  if [ "$TB_PGO" = 1 ] && "$TB_CXX" --version 2>/dev/null | grep -q clang; then
    local profile
    profile=$(tb_pgo_profile)
    optimize=(-DTETRISBENCH_PGO_PROFILE="$profile" -DTETRISBENCH_LTO=ON)
  else
    optimize=(-DTETRISBENCH_PGO_PROFILE= -DTETRISBENCH_LTO=OFF)
  fi
  cmake -S "$TB_ROOT" -B "$TB_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$TB_CXX" \
    "${optimize[@]}" "$@" >&2
  cmake --build "$TB_BUILD" >&2
}

# The sanitizer builds, each in its own folder (never build/, which the perf gate reads), with
# the tests and without benchmarks, MPI or the Python module (Open MPI's own allocations at exit
# are leaks to LeakSanitizer and its progress engine is not TSan-instrumented; an instrumented
# extension cannot load into Debian's python3).  RelWithDebInfo with the asserts left on (-O2 -g
# without -DNDEBUG).
#   tb_sanitizer_build asan [TARGET...]  clang, ASan + UBSan, in build-asan/, with the libFuzzer
#                                        targets (TETRISBENCH_FUZZ): test.sh --sanitize runs
#                                        its tests and fuzz.sh its fuzz targets, so CI compiles
#                                        the instrumented tree once
#   tb_sanitizer_build tsan [TARGET...]  g++, TSan, in build-tsan/, against a TSan-instrumented
#                                        oneTBB (scripts/tbb-tsan.sh builds it with g++'s runtime);
#                                        by default only tb_threads_tests (tests/CMakeLists.txt)
# Without TARGETs asan builds everything.  Sets TB_BUILD to the folder.
tb_sanitizer_build() {
  local mode=$1 extra=()
  shift
  TB_BUILD=$TB_ROOT/build-$mode
  case $mode in
    asan)
      TB_CXX=clang++
      extra=(-DTETRISBENCH_SANITIZE=address -DTETRISBENCH_FUZZ=ON) ;;
    tsan)
      TB_CXX=g++
      # TSan sees oneTBB's synchronization only if libtbb is instrumented too: without it,
      # every parallel_for result is a false race in our code (scripts/tbb-tsan.sh).
      bash "$TB_ROOT/scripts/tbb-tsan.sh" "$TB_BUILD/tbb-tsan"
      extra=(-DTETRISBENCH_SANITIZE=thread -DTBB_DIR="$TB_BUILD/tbb-tsan/lib/cmake/TBB")
      # Only the `threads` tests run under TSan (test.sh): build just what they need.
      [ $# -gt 0 ] || set -- tb_threads_tests ;;
    *) echo "tb_sanitizer_build: mode must be asan or tsan, not '$mode'" >&2; return 2 ;;
  esac
  cmake -S "$TB_ROOT" -B "$TB_BUILD" -G Ninja -DCMAKE_CXX_COMPILER="$TB_CXX" \
    -DTETRISBENCH_PGO_PROFILE= -DTETRISBENCH_LTO=OFF \
    -DTETRISBENCH_BUILD_TESTS=ON -DTETRISBENCH_BUILD_BENCH=OFF -DTETRISBENCH_MPI=OFF -DTETRISBENCH_PYTHON=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g" "${extra[@]}" >&2
  if [ $# -gt 0 ]; then
    cmake --build "$TB_BUILD" --target "$@" >&2
  else
    cmake --build "$TB_BUILD" >&2
  fi
}
