# Shared by run.sh and test.sh: install what is missing from Debian's apt, then configure and
# build.  Source it; do not run it.
set -euo pipefail

TB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TB_BUILD=${TB_BUILD:-$TB_ROOT/build}

TB_PACKAGES=(cmake ninja-build g++ git libtbb-dev libxsimd-dev xtl-dev libeigen3-dev
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

tb_build() {
  cmake -S "$TB_ROOT" -B "$TB_BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >&2
  cmake --build "$TB_BUILD" >&2
}
