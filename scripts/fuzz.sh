#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ in the ASan + UBSan build build-asan/ (clang; the
# one scripts/test.sh --sanitize builds, common.sh tb_sanitizer_build) and runs each for SECONDS
# (default 60) on a copy of its committed seed corpus (docs/fuzzing.md).
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]      targets: tests/fuzz/fuzz_TARGET.cpp (default all)
#
# Environment: TB_FUZZ_TARGETS (targets when none are given), TB_FUZZ_OUT (run folder, default
# build-asan/fuzz-runs/<date-time>/),
# TB_FUZZ_KEEP_GOING=1 (libFuzzer's fork mode: keep fuzzing past a crash, timeout or OOM and
# keep every such input; for long campaigns while a known bug is unfixed).
# The committed corpus is only read: each run grows its own copy in the run folder, which also
# keeps every target's log and any crash, leak, timeout or OOM input.  Prints one line per
# target and exits 1 if any target found a problem.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

TB_PACKAGES+=(libclang-rt-14-dev)   # clang's libFuzzer and sanitizer runtimes
# Every tests/fuzz/fuzz_NAME.cpp is a target, with its seed corpus in tests/fuzz/corpus/NAME/.
all_targets=()
for f in "$TB_ROOT"/tests/fuzz/fuzz_*.cpp; do
  f=${f##*/fuzz_}
  all_targets+=("${f%.cpp}")
done
# Longest input: above the real files' sizes, small enough to stay fast.  64 KiB unless set here.
declare -A max_len=([policy]=16384 [config]=16384)

seconds=${1:-60}
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: SECONDS must be a positive integer, not '$seconds'" >&2; exit 2; }
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && read -r -a targets <<<"${TB_FUZZ_TARGETS:-${all_targets[*]}}"
for t in "${targets[@]}"; do
  [ -f "$TB_ROOT/tests/fuzz/fuzz_$t.cpp" ] || { echo "fuzz.sh: unknown target '$t' (${all_targets[*]})" >&2; exit 2; }
  [ -n "${max_len[$t]:-}" ] || max_len[$t]=65536
done

fuzz_dir=$TB_ROOT/tests/fuzz

tb_install_missing
tb_sanitizer_build asan "${targets[@]/#/fuzz_}"
build=$TB_BUILD/tests/fuzz
out=${TB_FUZZ_OUT:-$TB_BUILD/fuzz-runs/$(date +%Y%m%d-%H%M%S)}

# Symbolized stacks in reports.
symbolizer=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
[ -n "$symbolizer" ] && export ASAN_SYMBOLIZER_PATH=$symbolizer
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

mkdir -p "$out"
failed=0
summary=()
for t in "${targets[@]}"; do
  dir=$out/$t
  mkdir -p "$dir/corpus"
  [ -d "$fuzz_dir/corpus/$t" ] && cp "$fuzz_dir/corpus/$t/"* "$dir/corpus/"
  args=(-max_total_time="$seconds" -max_len="${max_len[$t]}" -timeout=10 -rss_limit_mb=2048
        -print_final_stats=1 -artifact_prefix="$dir/")
  [ -f "$fuzz_dir/$t.dict" ] && args+=(-dict="$fuzz_dir/$t.dict")
  [ "${TB_FUZZ_KEEP_GOING:-0}" = 1 ] && args+=(-fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  echo "fuzz.sh: $t for ${seconds}s ($dir/log)" >&2
  rc=0
  "$build/fuzz_$t" "${args[@]}" "$dir/corpus" >"$dir/log" 2>&1 || rc=$?

  # libFuzzer's final stats, else (fork mode) its last status line: "#N: cov: C ft: F corp: K
  # exec/s E ..." (a clean finish without fork ends on "#N DONE cov: C ft: F corp: K/S ...").
  execs=$(awk '/^stat::number_of_executed_units:/ {s = $NF} /^#[0-9]/ {n = $1} END {
    if (s == "") { gsub(/[#:]/, "", n); s = n } print s }' "$dir/log")
  rate=$(awk '/^stat::average_exec_per_sec:/ {s = $NF} /^#[0-9]/ {for (i = 1; i < NF; ++i)
    if ($i == "exec/s" || $i == "exec/s:") r = $(i + 1)} END {print (s == "" ? r : s)}' "$dir/log")
  field() { awk -v k="$1" '/^#[0-9]/ {for (i = 1; i < NF; ++i) if ($i == k) v = $(i + 1)} END {print v}' "$dir/log"; }
  cov=$(field cov:)
  ft=$(field ft:)
  corp=$(field corp:)
  artifacts=$(find "$dir" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' \
    -o -name 'oom-*' \) | sort)
  status=ok
  if [ "$rc" -ne 0 ] || [ -n "$artifacts" ]; then
    status="FAILED (exit $rc, $(printf '%s' "$artifacts" | grep -c .) inputs kept)"
    failed=1
  fi
  line=$(printf '%-13s %5ss  execs %-10s exec/s %-7s cov %-6s ft %-7s corpus %-10s %s' \
    "$t" "$seconds" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$status")
  summary+=("$line")
  echo "$line" >&2
  if [ "$status" != ok ] && [ -z "$artifacts" ]; then
    while IFS= read -r why; do summary+=("    $why"); done < <(
      grep -a -m 4 -E 'ERROR: |fuzz check failed|runtime error|terminate called|what\(\)' "$dir/log" || true)
  fi
  for a in $artifacts; do
    summary+=("    input kept: $a")
    # Why, from running the target on it once more (fork mode's log does not say).
    why=$("$build/fuzz_$t" -timeout=10 -rss_limit_mb=2048 "$a" 2>&1 | grep -a -m 1 -E \
      'fuzz check failed|runtime error|ERROR: AddressSanitizer|ERROR: LeakSanitizer|terminate called|ERROR: libFuzzer' || true)
    summary+=("      ${why:-no report on a second run}" "      reproduce: $build/fuzz_$t $a")
    # Small inputs are also printed, so a CI log alone reproduces them.
    [ "$(stat -c %s "$a")" -le 4096 ] && summary+=("      base64: $(base64 -w0 "$a")")
  done
done

echo
echo "fuzz results ($out):"
printf '%s\n' "${summary[@]}"
exit $failed
