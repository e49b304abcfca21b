#!/usr/bin/env bash
# `tetrisbench learn` end to end: the weights it writes play under `play --policy`; the result
# does not depend on the thread count; a run resumed from its checkpoint (after a stop or a
# kill -9) writes the same weights as an uninterrupted one; bad input exits 2 with one line
# and writes nothing.
# Usage: learn_test.sh PATH/TO/tetrisbench
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
learn() { "$bin" learn --board 6x8 --eval-games 4 --eval-max-pieces 500 "$@"; }

for learner in td0 tdlambda ntuple; do
  learn --learner "$learner" --pieces 40000 --out "$work/$learner-1.policy" --threads 1 >"$work/$learner.out" ||
    fail "$learner: learn failed"
  learn --learner "$learner" --pieces 40000 --out "$work/$learner-2.policy" --threads 2 >/dev/null
  cmp -s "$work/$learner-1.policy" "$work/$learner-2.policy" || fail "$learner: 1 and 2 threads differ"
  grep -q "^held-out: 4 games" "$work/$learner.out" || fail "$learner: no held-out line"
  "$bin" play --policy "$work/$learner-1.policy" --board 6x8 --games 3 --max-pieces 500 >/dev/null ||
    fail "$learner: its weights do not play"
done
"$bin" learn --preset article2 --board 6x8 --pieces 20000 --eval-games 0 --out "$work/a2.policy" >"$work/a2.out" ||
  fail "article2 preset failed"
grep -q "alpha 0.001, gamma 0.9, lambda 0, epsilon 0, 1 games x 1 pieces per step" "$work/a2.out" ||
  fail "article2 preset does not use article 2's settings"
echo "ok: learners write playable weights, independent of threads"

# Resume: stop at 30,000 pieces, continue to 60,000; and kill -9 mid-way, then resume.
learn --learner ntuple --pieces 60000 --record-every 3000 --out "$work/straight.policy" >/dev/null
learn --learner ntuple --pieces 30000 --record-every 3000 --checkpoint "$work/ck.json" --out "$work/half.policy" >/dev/null
learn --learner ntuple --pieces 60000 --record-every 3000 --checkpoint "$work/ck.json" --out "$work/resumed.policy" \
  >"$work/resumed.out"
grep -q "resumed from checkpoint" "$work/resumed.out" || fail "the second run did not resume"
cmp -s "$work/straight.policy" "$work/resumed.policy" || fail "stopped and resumed weights differ"
"$bin" learn --board 6x8 --eval-games 0 --learner tdlambda --pieces 1000000 --record-every 3000 \
  --checkpoint "$work/k.json" --out "$work/k.policy" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 500); do [ -f "$work/k.json" ] && break; sleep 0.01; done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -f "$work/k.policy" ] && fail "a killed run left a weights file"
[ -f "$work/k.json" ] || fail "no checkpoint before the kill"
learn --learner tdlambda --pieces 1000000 --record-every 3000 --out "$work/k-straight.policy" >/dev/null
learn --learner tdlambda --pieces 1000000 --record-every 3000 --checkpoint "$work/k.json" --out "$work/k.policy" >/dev/null ||
  fail "resume after kill failed"
cmp -s "$work/k-straight.policy" "$work/k.policy" || fail "killed and resumed weights differ"

# CBMPI: the same weights at 1 and 2 threads; killed with -9 after a checkpoint, the resumed run
# writes the weights of an uninterrupted one.
cb() { "$bin" learn --learner cbmpi --board 6x8 --eval-games 0 --cbmpi-options '{"states": 200, "cmaes_generations": 10}' "$@"; }
cb --pieces 300000 --threads 1 --out "$work/cb-1.policy" >/dev/null 2>&1 || fail "cbmpi: learn failed"
cb --pieces 300000 --threads 2 --out "$work/cb-2.policy" >/dev/null 2>&1
cmp -s "$work/cb-1.policy" "$work/cb-2.policy" || fail "cbmpi: 1 and 2 threads differ"
"$bin" play --policy "$work/cb-1.policy" --board 6x8 --games 3 --max-pieces 500 >/dev/null || fail "cbmpi: its weights do not play"
cb --pieces 600000 --checkpoint "$work/cbk.json" --out "$work/cbk.policy" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 500); do [ -f "$work/cbk.json" ] && break; sleep 0.01; done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -f "$work/cbk.policy" ] && fail "cbmpi: a killed run left a weights file"
[ -f "$work/cbk.json" ] || fail "cbmpi: no checkpoint before the kill"
cb --pieces 600000 --out "$work/cbk-straight.policy" >/dev/null 2>&1
cb --pieces 600000 --checkpoint "$work/cbk.json" --out "$work/cbk.policy" >"$work/cbk.out" 2>/dev/null ||
  fail "cbmpi: resume after kill failed"
grep -q "resumed from checkpoint" "$work/cbk.out" || fail "cbmpi: the second run did not resume"
cmp -s "$work/cbk-straight.policy" "$work/cbk.policy" || fail "cbmpi: killed and resumed weights differ"
echo "ok: resume gives the same weights"

# Bad input: exit 2, one line on stderr naming the problem, no weights file.
bad() {
  local why=$1 needle=$2
  shift 2
  "$bin" learn --out "$work/bad.policy" "$@" 2>"$work/err" >/dev/null
  local rc=$?
  [ $rc -eq 2 ] || fail "$why: exit $rc, not 2"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "$why: stderr is not one line: $(cat "$work/err")"
  grep -qF -- "$needle" "$work/err" || fail "$why: message does not say '$needle': $(cat "$work/err")"
  [ -e "$work/bad.policy" ] && fail "$why: wrote a weights file"
  rm -f "$work/bad.policy"
}
small=(--board 6x8 --pieces 1000)
bad "unknown learner" "unknown learner 'sarsa'" "${small[@]}" --learner sarsa
bad "unknown features" "--features must be td44 or bertsekas" "${small[@]}" --features bcts
bad "preset with ntuple" "preset article2 is TD(0)" "${small[@]}" --preset article2 --learner ntuple
bad "unknown preset" "unknown preset 'article9'" "${small[@]}" --preset article9
bad "bad alpha" "--alpha must be a finite number in [0, 1000000]" "${small[@]}" --alpha -1
bad "bad lambda" "--lambda must be a finite number in [0, 1]" "${small[@]}" --learner tdlambda --lambda 2
bad "td0 with lambda" "use tdlambda" "${small[@]}" --learner td0 --lambda 0.5
bad "bad board" "board width 3 is out of range" --board 3x8 --pieces 1000
bad "zero budget" "--pieces must be an integer in [1, " --board 6x8 --pieces 0
bad "budget below one step" "less than one training step" --board 6x8 --pieces 100
bad "cbmpi budget below one iteration" "less than one cbmpi iteration" "${small[@]}" --learner cbmpi
bad "cbmpi bad option" "cbmpi option 'states' must be an integer in [1, " "${small[@]}" --learner cbmpi \
  --cbmpi-options '{"states": 0}'
bad "cbmpi unknown option" "unknown cbmpi option 'gamma'" "${small[@]}" --learner cbmpi --cbmpi-options '{"gamma": 1}'
bad "cbmpi with a TD flag" "--alpha is a TD option" "${small[@]}" --learner cbmpi --alpha 0.1
bad "cbmpi options for td" "--cbmpi-options applies to --learner cbmpi only" "${small[@]}" --cbmpi-options '{}'
"$bin" learn --board 6x8 --pieces 1000 2>"$work/err" >/dev/null
[ $? -eq 2 ] || fail "missing --out was not a usage error"
echo '{"version": 1, "config": {}}' >"$work/corrupt.json"
"$bin" learn --board 6x8 --pieces 1000 --checkpoint "$work/corrupt.json" --out "$work/c.policy" 2>"$work/err" >/dev/null
[ $? -ne 0 ] && grep -q "cannot resume" "$work/err" || fail "a foreign checkpoint was not refused"
[ -e "$work/c.policy" ] && fail "a refused resume wrote weights"
echo "ok: bad input"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all learn checks passed"
