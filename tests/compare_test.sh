#!/usr/bin/env bash
# `tetrisbench compare` end to end: a tiny comparison writes every file of its results folder
# (report.md and plots included); a run killed with SIGKILL mid-way and resumed gives the same
# report numbers as an uninterrupted one; an existing folder is never overwritten.
# Usage: compare_test.sh PATH/TO/tetrisbench PATH/TO/tiny-compare.toml [LABEL-TO-KILL-IN [BOARD]]
set -u
bin=$1 config=$2 victim=${3:-pso-article1} board=${4:-6x8}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Report numbers without timing, dates or machine fields.
numbers() {
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("metadata")
for o in r["optimizers"]:
    o.pop("seconds")
print(json.dumps(r, sort_keys=True))
PY
}

"$bin" compare "$config" --out "$work/whole" --threads 2 2>"$work/whole.log" >/dev/null ||
  { fail "uninterrupted compare failed"; cat "$work/whole.log"; }
for f in config.toml metadata.json report.json report.md plots/convergence.png plots/ecdf.png \
         runs/ce/run-0/generations.csv runs/ce/run-0/final.policy runs/ce/run-0/result.json; do
  [ -s "$work/whole/$f" ] || fail "missing $f"
done
grep -q '"held_out"' "$work/whole/report.json" || fail "report.json has no held_out"
grep -q 'Mann-Whitney' "$work/whole/report.md" || fail "report.md has no U test"
for policy in "$work"/whole/runs/*/run-0/final.policy; do
  "$bin" play --policy "$policy" --board "$board" --games 2 >/dev/null || fail "$policy does not play"
done
echo "ok: results folder complete"

# Never overwrite: the same --out again is a usage error.
"$bin" compare "$config" --out "$work/whole" 2>/dev/null >/dev/null
[ $? -eq 2 ] || fail "an existing results folder was not refused"

# Kill -9 once the first checkpoint of $victim exists, then resume.
"$bin" compare "$config" --out "$work/killed" --threads 1 2>/dev/null >/dev/null &
pid=$!
for _ in $(seq 1 400); do
  [ -f "$work/killed/runs/$victim/run-0/checkpoint.json" ] && break
  sleep 0.01
done
kill -9 "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -f "$work/killed/report.json" ] && echo "note: the run finished before the kill; resume still checked"
"$bin" compare --resume "$work/killed" --threads 2 2>"$work/resume.log" >/dev/null ||
  { fail "resume failed"; cat "$work/resume.log"; }
if [ "$(numbers "$work/whole/report.json")" = "$(numbers "$work/killed/report.json")" ]; then
  echo "ok: killed and resumed run reports the same numbers"
else
  fail "resumed report differs from the uninterrupted one"
fi

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all compare checks passed"
