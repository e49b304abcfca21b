#!/usr/bin/env bash
# scripts/learn-scaling.py end to end, as a smoke test: one round of small runs with the build,
# two stand-in tetrisbench scripts (weights that differ by thread count; a run that fails), then
# bad arguments.  Checks the exit statuses, the header, the round's row (its figures are noise
# here and are not checked beyond their form), the weights line and the failure messages.
# Usage: learn_scaling_test.sh SOURCE_DIR BUILD_DIR    (exit 77: skipped, fewer than two CPUs)
set -u
root=$1 build=$2
script=$root/scripts/learn-scaling.py
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
check() {  # LABEL REGEX: the output has a line matching REGEX
  grep -qE "$2" <<<"$out" || fail "$1: no line matching '$2'"
}

out=$(/usr/bin/python3 "$script" --build "$build" --pieces 2000 --rounds 1 2>&1)
status=$?
if [ "$status" -eq 2 ] && grep -q "needs two online CPUs" <<<"$out"; then
  echo "skipped: $out"; exit 77
fi
[ "$status" -eq 0 ] || fail "one round: exit status $status: $out"
check "one round" '^learn-scaling: .* UTC; host CPU: .*; runs on CPUs [0-9]+ and [0-9]+$'
check "one round" '^command \(T = 1 or 2\): .*/cli/tetrisbench learn --learner ntuple --pieces 2000 --seed 1 '
check "one round" '^ +1 +[0-9:]{8} +([0-9]+|n/a)( +[0-9]+\.[0-9]){4}( +[0-9]+\.[0-9]{3}){3}$'
check "one round" '^median( +[0-9]+\.[0-9]{3}){3}$'
check "one round" '^learn-scaling: every run wrote the same weights$'

for bad in "--pieces 999" "--pieces 1e6" "--rounds 0" "--rounds 101" "--rounds" "--what" "--build $build/none"; do
  # shellcheck disable=SC2086  # the words of $bad are the arguments
  out=$(/usr/bin/python3 "$script" $bad 2>&1)
  status=$?
  [ "$status" -eq 2 ] || fail "'$bad': exit status $status, not 2"
  check "'$bad'" '^learn-scaling: .* \(see --help\)$'
done
# A stand-in tetrisbench whose weights depend on the thread count: MISMATCH, exit 1; one that
# fails: exit 1 naming the run.
fake=$(mktemp -d)
trap 'rm -rf -- "$fake"' EXIT
mkdir -p "$fake/differs/cli" "$fake/fails/cli"
cat >"$fake/differs/cli/tetrisbench" <<'FAKE'
#!/usr/bin/env bash
out="" threads=""
while [ $# -gt 0 ]; do
  case $1 in --out) out=$2; shift ;; --threads) threads=$2; shift ;; esac
  shift
done
[ -n "$out" ] || exit 0
echo "weights of $threads threads" >"$out"
echo "trained on 2000 pieces, 1 episodes, 0.0 s (1 pieces/s); weights: $out"
FAKE
printf '#!/usr/bin/env bash\necho "bad things" >&2\nexit 3\n' >"$fake/fails/cli/tetrisbench"
chmod +x "$fake/differs/cli/tetrisbench" "$fake/fails/cli/tetrisbench"
out=$(/usr/bin/python3 "$script" --build "$fake/differs" --pieces 2000 --rounds 2 2>&1)
status=$?
[ "$status" -eq 1 ] || fail "weights that differ: exit status $status, not 1"
check "weights that differ" '^learn-scaling: MISMATCH: the runs of round 1 did not all write the same weights$'
out=$(/usr/bin/python3 "$script" --build "$fake/fails" --pieces 2000 --rounds 1 2>&1)
status=$?
[ "$status" -eq 1 ] || fail "a failing run: exit status $status, not 1"
check "a failing run" '^learn-scaling: the 1t \(CPU [0-9]+\) run failed \(exit status 3\): bad things$'

out=$(/usr/bin/python3 "$script" --help 2>&1)
[ $? -eq 0 ] || fail "--help: exit status not 0"
check "--help" '^usage: scripts/learn-scaling.py \[--build DIR\] \[--pieces N\] \[--rounds N\]$'

[ "$failures" -eq 0 ] && echo "learn-scaling smoke test: ok"
exit $((failures > 0))
