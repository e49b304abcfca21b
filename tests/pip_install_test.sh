#!/usr/bin/env bash
# `pip install .` end to end (docs/python.md "Install"): a fresh venv of Debian's python3 gets
# the module from this source tree, reusing the ctest build tree (TETRISBENCH_BUILD_DIR, so
# nothing is compiled again), and never downloads anything (--no-index).  From another folder
# and without PYTHONPATH, the installed copy then imports, has the project's version, plays, and
# passes tests/python.  pip must leave the source tree as it was.
#
#   pip_install_test.sh SOURCE_DIR BUILD_DIR VERSION TETRISBENCH TINY_CONFIG
set -euo pipefail
src=$1 build=$2 version=$3 cli=$4 tiny=$5
unset PYTHONPATH
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "pip_install_test: $*" >&2; exit 1; }

# What pip could leave in the source tree: top-level files and folders (an egg-info, setuptools'
# build folder) and changes git sees.
snapshot() { (cd "$src" && ls -A && git status --porcelain 2>/dev/null || true); }
before=$(snapshot)

/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
py=$tmp/venv/bin/python
cd "$tmp"
TETRISBENCH_BUILD_DIR=$build "$py" -m pip install --no-build-isolation --no-index --no-cache-dir \
  --disable-pip-version-check -q "$src" || fail "pip install failed"

[ "$(snapshot)" = "$before" ] || { diff <(echo "$before") <(snapshot) >&2 || true; fail "pip changed the source tree"; }

# The installed copy, by file, version (the module's and pip's record of it) and a short play;
# then tests/python against it.  It is imported before pytest starts, so every test's
# `import tetrisbench` gets this one (the tests' subprocesses run sys.executable, the venv's).
TETRISBENCH=$cli TINY_CONFIG=$tiny "$py" - "$tmp/venv" "$version" "$src/tests/python" <<'EOF'
import importlib.metadata, os, sys
import pytest
import tetrisbench as tb
venv, version, tests = sys.argv[1:]
print("tetrisbench", tb.__version__, "from", tb.__file__)
assert os.path.realpath(tb.__file__).startswith(os.path.realpath(venv) + os.sep), tb.__file__
assert tb.__version__ == version, (tb.__version__, version)
assert importlib.metadata.version("tetrisbench") == version, importlib.metadata.version("tetrisbench")
print(tb.play(games=3)["summary"])
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", tests]))
EOF
