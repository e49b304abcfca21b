#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite through ctest.
#
#   scripts/test.sh [CTEST_ARGS...]             Release build in build/ (or $TB_BUILD), all tests
#   scripts/test.sh --sanitize [CTEST_ARGS...]  ASan+UBSan build (clang) in build-asan/, all tests
#   scripts/test.sh --tsan [CTEST_ARGS...]      TSan build (g++) in build-tsan/, tests labelled `threads`
#
# Remaining arguments go to ctest.  Times and coverage of each mode: docs/testing.md.
mode=normal
case "${1:-}" in
  --sanitize) mode=asan; shift ;;
  --tsan) mode=tsan; shift ;;
esac
# The test build is plain (no profile): see TB_PGO in common.sh.
TB_PGO=${TB_PGO:-0}
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
case $mode in
  asan) TB_PACKAGES+=(libclang-rt-14-dev) ;;  # clang's sanitizer and libFuzzer runtimes
  tsan) TB_PACKAGES+=(dpkg-dev) ;;            # dpkg-source, for scripts/tbb-tsan.sh
esac
tb_install_missing

if [ "$mode" = normal ]; then
  tb_build -DTETRISBENCH_BUILD_TESTS=ON
  ctest --test-dir "$TB_BUILD" -j "$(nproc)" --output-on-failure "$@"
  exit
fi

# Sanitizer builds (common.sh tb_sanitizer_build): ASan + UBSan with clang in build-asan/ (the
# fuzz pass, scripts/fuzz.sh, reuses it), TSan with g++ in build-tsan/.
labels=()
[ "$mode" = tsan ] && labels=(-L threads)   # only the tests that run more than one thread (tests/CMakeLists.txt)
tb_sanitizer_build "$mode"

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
