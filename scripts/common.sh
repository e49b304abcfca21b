# Shared by run.sh and test.sh: install what is missing from Debian's apt, then configure and
# build.  Source it; do not run it.
set -euo pipefail

TB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TB_BUILD=${TB_BUILD:-$TB_ROOT/build}

TB_PACKAGES=(cmake ninja-build g++ clang git libtbb-dev libxsimd-dev xtl-dev libeigen3-dev
  libbenchmark-dev libbenchmark-tools libgtest-dev libgmock-dev libcli11-dev
  nlohmann-json3-dev libtomlplusplus-dev libpng-dev valgrind python3-matplotlib python3-numpy python3-scipy
  libopenmpi-dev openmpi-bin pybind11-dev python3-dev python3-pytest python3-optuna)

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

tb_build() {
  cmake -S "$TB_ROOT" -B "$TB_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER="$TB_CXX" "$@" >&2
  cmake --build "$TB_BUILD" >&2
}
