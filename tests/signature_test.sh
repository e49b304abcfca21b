#!/usr/bin/env bash
# The behaviour signatures of `tetrisbench bench` must equal the committed ones for every
# kernel this CPU has, at 1 and 2 threads: every `GROUP DIGEST` line of the baseline file
# (research, guideline, lee, ntuple, noise, rollout and all) against bench's `signature GROUP
# DIGEST` lines, and bench may print no group the file lacks.  A change of behaviour must update
# results/baselines/bench-signature.txt in the same commit, and say why.
# Usage: signature_test.sh PATH/TO/tetrisbench PATH/TO/bench-signature.txt [THREAD-COUNTS]
# THREAD-COUNTS (default "1 2"): the sanitizer builds pass "2" alone, the parallel path, since
# the bench of every kernel is slow there and the Release build checks 1 against 2.
set -u
bin=$1
threads=${3:-1 2}
want=$(awk '!/^[[:space:]]*(#|$)/ {print $1, $2}' "$2")
[ -n "$want" ] || { echo "FAIL: no digests in $2"; exit 1; }
kernels=$("$bin" info | awk '$2 == "available" {print $1}')
[ -n "$kernels" ] || { echo "FAIL: no kernels listed by tetrisbench info"; exit 1; }
failures=0
for k in $kernels; do
  for t in $threads; do
    got=$("$bin" bench --kernel "$k" --threads "$t" 2>/dev/null | awk '$1 == "signature" {print $2, $3}')
    bad=0
    while read -r group digest; do
      have=$(awk -v g="$group" '$1 == g {print $2}' <<<"$got")
      if [ "$have" != "$digest" ]; then
        echo "FAIL: kernel $k, $t thread(s): $group digest '$have', committed '$digest'"
        bad=1
      fi
    done <<<"$want"
    while read -r group digest; do
      [ -z "$group" ] && continue
      awk -v g="$group" '$1 == g {found = 1} END {exit !found}' <<<"$want" ||
        { echo "FAIL: kernel $k, $t thread(s): bench printed group '$group' ($digest), not in $2"; bad=1; }
    done <<<"$got"
    if [ "$bad" -eq 0 ]; then
      echo "ok: kernel $k, $t thread(s): $(tr '\n' ' ' <<<"$got")"
    fi
    failures=$((failures + bad))
  done
done
exit $((failures > 0))
