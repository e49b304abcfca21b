#!/usr/bin/env bash
# The behaviour signature of `tetrisbench bench` must equal the committed one for every
# kernel this CPU has, at 1 and 2 threads.  A change of behaviour must update
# results/baselines/bench-signature.txt in the same commit, and say why.
# Usage: signature_test.sh PATH/TO/tetrisbench PATH/TO/bench-signature.txt
set -u
bin=$1
want=$(tr -d '[:space:]' <"$2")
kernels=$("$bin" info | awk '$2 == "available" {print $1}')
[ -n "$kernels" ] || { echo "FAIL: no kernels listed by tetrisbench info"; exit 1; }
failures=0
for k in $kernels; do
  for t in 1 2; do
    got=$("$bin" bench --kernel "$k" --threads "$t" 2>/dev/null | awk '$1 == "signature" {print $2}')
    if [ "$got" = "$want" ]; then
      echo "ok: kernel $k, $t thread(s): $got"
    else
      echo "FAIL: kernel $k, $t thread(s): signature '$got', committed '$want'"
      failures=$((failures + 1))
    fi
  done
done
exit $((failures > 0))
