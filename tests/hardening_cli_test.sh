#!/usr/bin/env bash
# Regression tests of the command line's second hardening round (docs/threat-model.md): a
# report that cannot reach stdout, a run out of memory, values that would print as several
# lines or as terminal commands, closed standard descriptors and empty option values.  Each
# case asserts the exit code, ONE stderr line saying why, and that no file outside the run's
# own outputs changed.  Classes of the issue:
#   3 failed writes to stdout (/dev/full, closed, a reader that left)   8 out of memory
#  12 line breaks in echoed values   17a terminal escapes   17b closed descriptors   16 empty values
# Usage: hardening_cli_test.sh PATH/TO/tetrisbench
set -u
bin=$(realpath "$1")
data=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$data")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$data/hardening_lib.sh"  # fail, section, snapshot (its own check below)

# run MODE ARGS...: tetrisbench ARGS (under `timeout 60`), stderr to $work/err, stdout
#   file    to $work/stdout
#   full    to /dev/full (every write fails with ENOSPC)
#   closed  closed (>&-)
#   gone    to a pipe whose reader has left, with SIGPIPE ignored (EPIPE): made by python, so
#           that the reader is gone before the first write, whatever the output's size
# Returns tetrisbench's exit code.
run() {
  local mode=$1
  shift
  case $mode in
    file) timeout 60 "$bin" "$@" >"$work/stdout" 2>"$work/err" ;;
    full) timeout 60 "$bin" "$@" >/dev/full 2>"$work/err" ;;
    closed) timeout 60 "$bin" "$@" >&- 2>"$work/err" ;;
    gone)
      /usr/bin/python3 - "$bin" "$@" 2>"$work/err" <<'PY'
import os, signal, sys
r, w = os.pipe()
os.close(r)
os.dup2(w, 1)
signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # kept across exec: writes fail with EPIPE
os.execv("/usr/bin/timeout", ["timeout", "60"] + sys.argv[1:])
PY
      ;;
  esac
}

# check WHY NEEDLE [--rc N] [--stdout MODE] [--chatty] [--made NAME]... -- ARGS...
# Runs tetrisbench ARGS in an empty folder $work/run (stdout as `run` MODE, default file) and
# asserts: exit code N (default 2), exactly one line on stderr containing NEEDLE, with no
# control character in it, shorter than 400 characters, nothing on stdout (MODE file), the
# inputs in $work/in unchanged, and nothing in $work/run but the --made NAMEs.  --chatty: a
# command that reports progress on stderr; its progress lines may come before that one line,
# which is then the last and the only one that starts with "tetrisbench:".
check() {
  local why=$1 needle=$2
  shift 2
  local want=2 mode=file chatty=0 made=()
  while [ "$1" != "--" ]; do
    case $1 in
      --rc) want=$2; shift 2 ;;
      --stdout) mode=$2; shift 2 ;;
      --chatty) chatty=1; shift ;;
      --made) made+=("$2"); shift 2 ;;
      *) echo "check: bad option $1"; exit 3 ;;
    esac
  done
  shift
  rm -rf "$work/run" && mkdir "$work/run" && cd "$work/run" || exit 3
  : >"$work/stdout"
  run "$mode" "$@"
  local rc=$? bad=()
  cd "$work" || exit 3
  if [ $rc -eq 124 ]; then bad+=("hung (killed after 60 s)")
  elif [ $rc -ne "$want" ]; then bad+=("exit $rc, not $want")
  fi
  local line=$work/err
  if [ $chatty -eq 1 ]; then
    [ "$(grep -c '^tetrisbench:' "$work/err")" -eq 1 ] || bad+=("stderr has not one line from tetrisbench:")
    tail -n 1 "$work/err" >"$work/line"
    line=$work/line
  fi
  [ "$(wc -l <"$line")" -eq 1 ] || bad+=("stderr is $(wc -l <"$line") lines, not one")
  grep -qF -- "$needle" "$line" || bad+=("stderr does not say '$needle'")
  LC_ALL=C grep -q '[[:cntrl:]]' "$work/err" && bad+=("stderr holds a control character")
  [ "$(wc -c <"$line")" -lt 400 ] || bad+=("stderr is $(wc -c <"$line") characters long")
  [ -s "$work/stdout" ] && bad+=("wrote to stdout: $(head -c 100 "$work/stdout")")
  snapshot "$work/in" | cmp -s - "$work/in.snapshot" || bad+=("changed an input in $work/in")
  local left
  left=$(cd "$work/run" && find . -mindepth 1 -maxdepth 1 -printf '%P\n' | LC_ALL=C sort | tr '\n' ' ')
  local expected
  expected=$(printf '%s\n' "${made[@]}" | LC_ALL=C sort | tr '\n' ' ')
  [ ${#made[@]} -eq 0 ] && expected=""
  [ "$left" = "$expected" ] || bad+=("left '$left' in the run's folder, not '$expected'")
  if [ ${#bad[@]} -gt 0 ]; then
    local reasons
    printf -v reasons '%s; ' "${bad[@]}"
    fail "$why: ${reasons}command: tetrisbench $(printf '%q ' "$@" | head -c 300); stderr: $(head -c 600 "$work/err" | cat -v | tr '\n' '|')"
  else
    echo "ok: $why -> $(head -c 200 "$line")"
  fi
}

mkdir "$work/in"
cp "$repo/tests/data/lee-seed1-200.replay" "$work/in/r.replay"
cat >"$work/in/tiny.toml" <<'TOML'
name = "tiny"
features = "lee"
runs = 1
seed = 5

[rules]
board = "6x8"

[fitness]
games = 3
max_pieces = 300

[budget]
pieces = 20000

[heldout]
games = 2
max_pieces = 500

[[optimizer]]
optimizer = "ce"
options = { samples = 20, elite = 0.2 }
TOML
# A policy and a replay whose names hold a terminal escape (17a): both files are valid.
sed "s/^name bcts$/name bcts$(printf '\033')]0;owned$(printf '\007')/" "$repo/results/policies/bcts.policy" >"$work/in/esc.policy"
sed "s/^policy lee$/policy lee$(printf '\033')[2J/" "$work/in/r.replay" >"$work/in/esc.replay"
snapshot "$work/in" >"$work/in.snapshot"

# ---------------------------------------------------------------------------------------
section "3. A report that does not reach stdout is a failed run (exit 1, one line)"
declare -A commands=(
  [play]="play --games 20 --max-pieces 50"
  [info]="info"
  [optimize]="optimize --runs 2 --max-evals 200"
  [bench]="bench --suite noise --threads 2"
  [replay]="replay $work/in/r.replay --frames last"
  [help]="play --help"
)
for name in play info optimize bench replay help; do
  read -r -a args <<<"${commands[$name]}"
  chatty=()
  [ $name = bench ] && chatty=(--chatty)  # a line per workload
  check "$name >/dev/full" "cannot write standard output: No space left on device" --rc 1 --stdout full \
    "${chatty[@]}" -- "${args[@]}"
  check "$name >&-" "cannot write standard output: it is closed" --rc 1 --stdout closed "${chatty[@]}" -- "${args[@]}"
  check "$name into a pipe whose reader left" "cannot write standard output: Broken pipe" --rc 1 --stdout gone \
    "${chatty[@]}" -- "${args[@]}"
done
for mode in full closed gone; do
  check "learn, stdout $mode" "cannot write standard output" --rc 1 --stdout $mode --made w.policy -- \
    learn --board 6x8 --pieces 2000 --eval-games 0 --threads 2 --out w.policy
done
check "compare, report.py's path to /dev/full" "cannot write standard output" --rc 1 --stdout full --chatty \
  --made c -- compare "$work/in/tiny.toml" --out c --threads 2
# A reader that leaves after one byte, as `| head -c 1` does: the report is far larger than a
# pipe holds, so some write comes after the reader left.
rc=$( (trap '' PIPE; "$bin" play --games 20000 --max-pieces 1 --format csv 2>"$work/err" | head -c 1 >/dev/null
       echo "${PIPESTATUS[0]}") )
if [ "$rc" = 1 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF "Broken pipe" "$work/err"; then
  echo "ok: play | head -c 1 with SIGPIPE ignored -> $(cat "$work/err")"
else
  fail "play | head -c 1 with SIGPIPE ignored: exit $rc, stderr: $(head -c 600 "$work/err" | tr '\n' '|')"
fi
# A closed stdout fails only a command that meant to write to it.
check_quiet() {  # check_quiet WHY ARGS...: exit 0, nothing on stderr, with stdout closed
  "$bin" "${@:2}" >&- 2>"$work/err"
  local rc=$?
  if [ $rc -eq 0 ] && [ ! -s "$work/err" ]; then echo "ok: $1"
  else fail "$1: exit $rc, stderr: $(head -c 600 "$work/err" | tr '\n' '|')"; fi
}
check_quiet "play --out with stdout closed" play --games 5 --out "$work/play.txt"

# ---------------------------------------------------------------------------------------
section "8. Out of memory is a failed run, not an abort"
# 600 MB hold the games' results (130 MB) and not their JSON report: the old report, a tree
# of json nodes, aborted in json's destructor (which allocates) when memory ran out.
# A sanitizer build reserves terabytes of shadow address space at start, which any ulimit -v
# forbids: there the case cannot run (the Release build runs it).
rm -rf "$work/run" && mkdir "$work/run"
if grep -qaE "__(asan|tsan)_init" "$bin"; then
  echo "skipped: play under ulimit -v (a sanitizer build cannot start under an address-space limit)"
else
  (cd "$work/run" && ulimit -v 600000 && exec timeout 60 "$bin" play --games 1000000 --max-pieces 1 --format json \
     --threads 2 >/dev/null 2>"$work/err")
  rc=$?
  if [ $rc -eq 1 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -qF "out of memory" "$work/err" &&
     ! grep -q "terminate called" "$work/err"; then
    echo "ok: play under ulimit -v 600000 -> $(cat "$work/err")"
  else
    fail "play under ulimit -v 600000: exit $rc, stderr: $(head -c 600 "$work/err" | tr '\n' '|')"
  fi
fi

# ---------------------------------------------------------------------------------------
section "12, 17a. Values echoed from the input print as one line, with no terminal escape"
nl=$'\n' esc=$'\e'
check "newline in --policy" "unknown policy" -- play --policy "bad${nl}policy"
check "escape in a --policy path" "cannot read policy" -- play --policy "no/such${esc}]0;owned${esc}\\"
check "newline in --out" "--out" -- play --out "no${nl}such/x.json"
check "escape in --out" "--out" -- play --out "no${esc}[2Jsuch/x.json"
check "newline in a config path" "config" -- compare "no${nl}such.toml"
check "newline in a replay path" "replay" -- replay "no${nl}such.replay"
check "escape in an unknown option" 'bogus\x1b[31m' -- play "--bogus${esc}[31m"
check "newline and escape in an unknown value" "unknown format" -- play --format "x${nl}${esc}[2J"
TETRISBENCH_KERNEL="avx${nl}${esc}[31m" check "newline in TETRISBENCH_KERNEL" "kernel" -- play --games 1
# 17a on stdout: names from a policy file or a replay, and a replay's path.
rm -rf "$work/run" && mkdir "$work/run"
# A policy file whose name holds a control character does not parse (policy_lines.cpp: the
# reader refuses what the writer would not write), so its name never reaches the output.
check "a policy file named with an escape" "name has a control character" -- play --policy "$work/in/esc.policy" --games 2
cp "$work/in/esc.replay" "$work/run/r${esc}[2J.replay"
"$bin" replay "$work/run/r${esc}[2J.replay" --frames none --no-policy-check >"$work/stdout" 2>"$work/err"
if [ $? -eq 0 ] && [ "$(grep -c "$esc" "$work/stdout")" -eq 0 ] && grep -qF 'r\x1b[2J.replay' "$work/stdout"; then
  echo "ok: a replay path with an escape is shown escaped on stdout"
else
  fail "replay path with an escape: $(head -c 300 "$work/stdout" | cat -v)"
fi
"$bin" replay "$work/in/esc.replay" --frames none >"$work/stdout" 2>"$work/err"
if [ $? -eq 0 ] && [ "$(grep -c "$esc" "$work/stdout")" -eq 0 ] && grep -qE "lee(\\\\x1b|\\?)\\[2J" "$work/stdout"; then
  echo "ok: a replay's policy field with an escape is shown escaped on stdout"
else
  fail "replay whose policy holds an escape: $(head -c 300 "$work/stdout" | cat -v)"
fi

# ---------------------------------------------------------------------------------------
section "17b. A closed stderr: later files do not take descriptor 2"
rm -rf "$work/run" && mkdir "$work/run"
(cd "$work/run" && exec timeout 60 "$bin" compare "$work/in/tiny.toml" --out c --no-plots --threads 2 2>&-)
rc=$?
if [ $rc -eq 0 ] && [ -f "$work/run/c/.tetrisbench.lock" ] && [ ! -s "$work/run/c/.tetrisbench.lock" ]; then
  echo "ok: compare with stderr closed leaves its lock file empty"
else
  fail "compare with stderr closed: exit $rc, lock file: $(head -c 300 "$work/run/c/.tetrisbench.lock" 2>&1 | tr '\n' '|')"
fi

# ---------------------------------------------------------------------------------------
section "16. Empty values are refused, not taken for the default"
empty="must not be empty"
check "play --out ''" "$empty" -- play --out ''
check "play --record ''" "$empty" -- play --record ''
check "play --policy ''" "$empty" -- play --policy ''
check "play --kernel ''" "$empty" -- play --kernel ''
check "play --board ''" "$empty" -- play --board ''
check "compare --out ''" "$empty" -- compare "$work/in/tiny.toml" --out ''
check "compare ''" "$empty" -- compare ''
check "replay --png ''" "$empty" -- replay "$work/in/r.replay" --png ''
check "replay --gif ''" "$empty" -- replay "$work/in/r.replay" --gif ''
check "learn --log ''" "$empty" -- learn --out w.policy --log ''
check "learn --checkpoint ''" "$empty" -- learn --out w.policy --checkpoint ''
check "optimize --options ''" "$empty" -- optimize --options ''
check "bench --suite ''" "$empty" -- bench --suite ''
check "info --kernel ''" "$empty" -- info --kernel ''
check "learn --learner ntuple --features" "--features does not apply to the ntuple learner" -- \
  learn --learner ntuple --features td44 --out w.policy

elapsed=$(($(date +%s) - started))
echo "CLI hardening checks took ${elapsed} s"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all CLI hardening checks passed"
