"""`pip install .`: builds the `tetrisbench` module with CMake and puts it in the wheel.

    python3 -m venv --system-site-packages v && v/bin/pip install --no-build-isolation .

The module is CMake's target tb_python (cli/python/CMakeLists.txt), built for the interpreter
that runs pip.  By default CMake configures its own tree in build-pip/cmake (a full engine
build, several minutes on 2 cores).  TETRISBENCH_BUILD_DIR=DIR instead reuses a configured
build tree with TETRISBENCH_PYTHON=ON (scripts/test.sh's build/): pip then only runs
`cmake --build DIR --target tb_python`, which compiles nothing when DIR is up to date, and
setuptools keeps its own files in DIR/pip, so the source tree is left untouched.
Docs: docs/python.md "Install".
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
TARGET = "tb_python"  # cli/python/CMakeLists.txt


def project_version():
    # One version for the project, the CLI and the module: CMakeLists.txt's project().
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    found = re.search(r"^project\(\s*tetrisbench\s+VERSION\s+([0-9][0-9.]*)", text, re.MULTILINE)
    if not found:
        sys.exit("setup.py: no `project(tetrisbench VERSION ...)` in CMakeLists.txt")
    return found.group(1)


def reused_build_dir():
    """TETRISBENCH_BUILD_DIR as an absolute path, checked, or None when unset."""
    value = os.environ.get("TETRISBENCH_BUILD_DIR", "")
    if not value:
        return None
    build = Path(value).resolve()
    cache = build / "CMakeCache.txt"
    if not cache.is_file():
        sys.exit(f"setup.py: TETRISBENCH_BUILD_DIR={value} is not a configured CMake build tree (no CMakeCache.txt)")
    if not re.search(r"^TETRISBENCH_PYTHON:BOOL=ON$", cache.read_text(encoding="utf-8"), re.MULTILINE):
        sys.exit(f"setup.py: TETRISBENCH_BUILD_DIR={value} was configured without TETRISBENCH_PYTHON=ON")
    return build


def compiler():
    # As scripts/common.sh: clang++ (faster play than g++, the same results) unless CXX names one.
    return os.environ.get("CXX") or shutil.which("clang++") or "c++"


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build = reused_build_dir()
        if build is None:
            build = ROOT / "build-pip" / "cmake"
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja",
                            "-DCMAKE_BUILD_TYPE=Release", f"-DCMAKE_CXX_COMPILER={compiler()}",
                            "-DTETRISBENCH_PYTHON=ON", "-DTETRISBENCH_BUILD_TESTS=OFF",
                            "-DTETRISBENCH_BUILD_BENCH=OFF", "-DTETRISBENCH_MPI=OFF",
                            f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", TARGET], check=True)
        # The file CMake wrote for its Python (LIBRARY_OUTPUT_DIRECTORY build/python); a tree
        # configured for another Python version has another suffix, and is refused here.
        built = build / "python" / ("tetrisbench" + sysconfig.get_config_var("EXT_SUFFIX"))
        if not built.is_file():
            sys.exit(f"setup.py: no {built}: was {build} configured for another Python than {sys.executable}?")
        destination = Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, destination)


# setuptools' own build files (build/lib.*, bdist.*, the egg-info) go to DIR/pip or build-pip/,
# never build/ (scripts/test.sh's CMake tree) nor the top folder.
reused = reused_build_dir()
setuptools_dir = reused / "pip" if reused else ROOT / "build-pip"
setuptools_dir.mkdir(parents=True, exist_ok=True)

setup(
    version=project_version(),
    ext_modules=[Extension("tetrisbench", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    packages=[],
    options={"build": {"build_base": str(setuptools_dir)}, "egg_info": {"egg_base": str(setuptools_dir)}},
    zip_safe=False,
)
