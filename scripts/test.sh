#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
#
#   scripts/test.sh [CTEST_ARGS...]             Release build in build/ (or $TB_BUILD), all tests
#   scripts/test.sh --sanitize [CTEST_ARGS...]  ASan+UBSan build in build-asan/, all tests
#   scripts/test.sh --tsan [CTEST_ARGS...]      TSan build in build-tsan/, tests labelled `threads`
#
# Remaining arguments go to ctest.  Times and coverage of each mode: docs/testing.md.
mode=normal
case "${1:-}" in
  --sanitize) mode=asan; shift ;;
  --tsan) mode=tsan; shift ;;
esac
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
[ "$mode" = tsan ] && TB_PACKAGES+=(dpkg-dev)   # dpkg-source, for scripts/tbb-tsan.sh
tb_install_missing

if [ "$mode" = normal ]; then
  tb_build -DTETRISBENCH_BUILD_TESTS=ON
  ctest --test-dir "$TB_BUILD" -j "$(nproc)" --output-on-failure "$@"
  exit
fi

# Sanitizer builds: their own folder (never the Release build/, which the perf gate reads),
# no benchmarks, RelWithDebInfo with the asserts left on (-O2 -g without -DNDEBUG), and g++
# (scripts/tbb-tsan.sh builds the instrumented libtbb with g++'s TSan runtime; the fuzz pass,
# scripts/fuzz.sh, runs clang's sanitizers).
TB_BUILD=$TB_ROOT/build-$mode
TB_CXX=g++
sanitize=address
labels=()
extra=()
if [ "$mode" = tsan ]; then
  sanitize=thread
  labels=(-L threads)   # only the tests that run more than one thread (tests/CMakeLists.txt)
  # TSan sees oneTBB's synchronization only if libtbb is instrumented too: without it, every
  # parallel_for result is a false race in our code (scripts/tbb-tsan.sh).  No suppressions.
  bash "$TB_ROOT/scripts/tbb-tsan.sh" "$TB_BUILD/tbb-tsan"
  extra=(-DTBB_DIR="$TB_BUILD/tbb-tsan/lib/cmake/TBB")
fi
# Without the MPI backend: Open MPI's own allocations at exit are leaks to LeakSanitizer, and
# its progress engine is not TSan-instrumented (docs/cluster.md says what that leaves untested).
# Without the Python module: an instrumented extension cannot load into Debian's python3.
tb_build -DTETRISBENCH_BUILD_TESTS=ON -DTETRISBENCH_BUILD_BENCH=OFF -DTETRISBENCH_MPI=OFF -DTETRISBENCH_PYTHON=OFF \
  -DTETRISBENCH_SANITIZE=$sanitize \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g" "${extra[@]}"

# Every report stops the program with a nonzero exit code.  ASan, LeakSanitizer and TSan
# reports go to files in $reports rather than stderr, and any such file fails this script
# after ctest: a test script that expects a failing exit code (bad input), or kills a run,
# cannot hide one.  (UBSan inside the ASan runtime ignores log_path and prints to stderr; its
# reports fail through the exit code.)  User-set *SAN_OPTIONS come last and so win.
reports=$TB_BUILD/sanitizer-reports
rm -rf "$reports"
mkdir -p "$reports"
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:log_path=$reports/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$reports/tsan${TSAN_OPTIONS:+:$TSAN_OPTIONS}"

status=0
ctest --test-dir "$TB_BUILD" -j "$(nproc)" --output-on-failure "${labels[@]}" "$@" || status=$?
if compgen -G "$reports/*" >/dev/null; then
  for f in "$reports"/*; do
    echo "==== sanitizer report $f" >&2
    head -n 80 "$f" >&2
  done
  echo "test.sh: sanitizer reports in $reports" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
