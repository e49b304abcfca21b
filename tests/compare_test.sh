#!/usr/bin/env bash
# `tetrisbench compare` end to end: a tiny comparison writes every file of its results folder
# (report.md and plots included); its held-out and per-target verdicts read right; a run killed
# with SIGKILL mid-way and resumed gives the same report numbers as an uninterrupted one; an
# existing folder is never overwritten; a tiny comparison under the lee rule set.
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
for f in config.toml metadata.json report.json report.md plots/progress.png plots/ecdf.png \
         runs/ce/run-0/generations.csv runs/ce/run-0/final.policy runs/ce/run-0/result.json; do
  [ -s "$work/whole/$f" ] || fail "missing $f"
done
grep -q '"held_out"' "$work/whole/report.json" || fail "report.json has no held_out"
grep -q 'Mann-Whitney' "$work/whole/report.md" || fail "report.md has no U test"
# 2 runs against 2 cannot reach p < 1/3: compare warns when it reads the config, the report names
# no best and states the smallest p the design allows.
grep -q "warning: with 2 run(s) per entry the smallest p a comparison can reach is 0.333" "$work/whole.log" ||
  fail "compare did not warn that 2 runs cannot reach significance"
grep -q "No significant difference" "$work/whole/report.md" || fail "report.md does not say: no significant difference"
grep -q "the smallest two-sided p some comparison could give is 0.333" "$work/whole/report.md" ||
  fail "report.md does not state the smallest p of the design"
# The verdict's three cases, from a copy of report.json with the tests' outcomes set by hand:
# every comparison significant names the best; some significant names both groups; none, none.
verdict() {  # SIGNIFICANT... (one 0/1 per non-top entry, in order)
  rm -rf "$work/verdict" && mkdir "$work/verdict" && cp "$work/whole/report.json" "$work/verdict/"
  /usr/bin/python3 - "$work/verdict/report.json" "$@" <<'PY'
import json, sys
path, flags = sys.argv[1], [f == "1" for f in sys.argv[2:]]
r = json.load(open(path))
others = [o for o in r["optimizers"] if o["vs_top"] is not None]
for o, f in zip(others, flags):
    o["vs_top"]["significant"] = f
r["comparison"]["best"] = r["comparison"]["top"] if all(flags) else None
json.dump(r, open(path, "w"))
PY
  /usr/bin/python3 "$(dirname "$0")/../scripts/report.py" "$work/verdict" && cat "$work/verdict/report.md"
}
verdict 1 | grep -q '^\*\*Best: ' || fail "an all-significant verdict does not name the best"
verdict 0 | grep -q '^\*\*No significant difference\*\* between the highest mean' ||
  fail "a non-significant verdict does not say no significant difference"
others=$(/usr/bin/python3 -c 'import json, sys; print(sum(o["vs_top"] is not None for o in json.load(open(sys.argv[1]))["optimizers"]))' "$work/whole/report.json")
if [ "$others" -ge 2 ]; then
  verdict 1 0 | grep -q 'No significant difference.* is separated from ' ||
    fail "a partly significant verdict does not name both groups"
fi
# The targets' log-rank verdicts, one line per target, from a copy of report.json edited by hand:
# a named fastest, a target no entry reached, and (as computed) no significant difference.
target_verdicts() {  # CASE: fastest, unreached or as-is
  rm -rf "$work/targets" && mkdir "$work/targets" && cp "$work/whole/report.json" "$work/targets/"
  /usr/bin/python3 - "$work/targets/report.json" "$1" <<'PY'
import json, sys
path, case = sys.argv[1], sys.argv[2]
r = json.load(open(path))
v = r["target_comparisons"][0]
if case == "fastest":
    v["leader"] = v["fastest"] = v["leader"] or r["optimizers"][0]["label"]
    v["comparisons"] = max(1, v["comparisons"])
elif case == "unreached":
    v["leader"], v["comparisons"] = None, 0
    for o in r["optimizers"]:
        o["targets"][0]["vs_fastest"] = None
json.dump(r, open(path, "w"))
PY
  /usr/bin/python3 "$(dirname "$0")/../scripts/report.py" "$work/targets" && cat "$work/targets/report.md"
}
grep -q '| log-rank p | Holm p |$' "$work/whole/report.md" || fail "report.md has no log-rank columns"
grep -q 'two-sided log-rank test (Mantel 1966; Peto & Peto 1972)' "$work/whole/report.md" ||
  fail "report.md does not name the log-rank test with its source"
[ "$(grep -c '^- Target [0-9,]*: ' "$work/whole/report.md")" -eq 2 ] ||
  fail "report.md does not give one verdict per target"
target_verdicts fastest | grep -q '^- Target 5: \*\*fastest: ' || fail "a separated target does not name the fastest"
target_verdicts unreached | grep -q '^- Target 5: no entry reached it' || fail "an unreached target is not said so"
/usr/bin/python3 - "$work/whole/report.json" <<'PY' || fail "report.json's target comparisons are malformed"
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r["target_comparisons"]) == len(r["experiment"]["heldout"]["targets"])
for i, v in enumerate(r["target_comparisons"]):
    compared = [o["targets"][i]["vs_fastest"] for o in r["optimizers"] if o["targets"][i]["vs_fastest"]]
    assert len(compared) == v["comparisons"], v
    for c in compared:
        assert c["against"] == v["leader"] and 0 <= c["p"] <= c["p_holm"] <= 1 and c["chi2"] >= 0, c
PY
# Progress games on one schedule for every entry: a TD learner evaluates at every record (each 1%
# of the budget), a black-box optimizer at the first generation past each 1% mark.
/usr/bin/python3 - "$work/whole" <<'PY' || fail "progress evaluations missing from the runs"
import glob, json, sys
for path in glob.glob(sys.argv[1] + "/runs/*/run-*/result.json"):
    r = json.load(open(path))
    recs = r["records"]
    with_progress = [x for x in recs if "progress" in x]
    assert with_progress, path
    if r["optimizer"] in ("td0", "tdlambda", "ntuple"):
        assert len(with_progress) == len(recs), path
    for x in with_progress:
        assert x["progress"]["mean_lines"] >= 0 and x["progress"]["pieces"] > 0, (path, x)
    for h in r["held_out"].values():
        assert len(h["lines"]) == h["games"] and len(h["capped"]) == h["capped_games"], path
PY
for policy in "$work"/whole/runs/*/run-0/final.policy; do
  "$bin" play --policy "$policy" --board "$board" --games 2 >/dev/null || fail "$policy does not play"
done
echo "ok: results folder complete"

# Never overwrite: the same --out again is a usage error.
"$bin" compare "$config" --out "$work/whole" 2>/dev/null >/dev/null
[ $? -eq 2 ] || fail "an existing results folder was not refused"

# A folder started by a version without progress games is refused on resume, with the reason.
cp -r "$work/whole" "$work/old"
/usr/bin/python3 - "$work/old/metadata.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
del m["experiment"]["progress"]
json.dump(m, open(sys.argv[1], "w"))
PY
"$bin" compare --resume "$work/old" 2>"$work/stderr" >/dev/null
[ $? -eq 2 ] && grep -q "started by an older tetrisbench" "$work/stderr" ||
  fail "a results folder without progress games was not refused clearly: $(cat "$work/stderr")"

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

# A tiny comparison under article 4's rules (`rules = "lee"`): every game is a lee game, the
# rule set is named in metadata.json, report.json and report.md, the learned weights play
# under --rules lee, and a resume with the rule set edited is refused.
cat >"$work/lee.toml" <<'EOF'
name = "tiny-lee"
features = "lee"
runs = 2
seed = 4
[rules]
rules = "lee"
[fitness]
games = 2
max_pieces = 150
[budget]
pieces = 8000
[heldout]
games = 3
max_pieces = 300
[[optimizer]]
optimizer = "ga-lee"
options = { population = 10 }
[[optimizer]]
optimizer = "cmaes"
EOF
"$bin" compare "$work/lee.toml" --out "$work/lee" --threads 2 2>"$work/lee.log" >/dev/null ||
  { fail "lee compare failed"; cat "$work/lee.log"; }
/usr/bin/python3 - "$work/lee" <<'PY' || fail "the lee rule set is not recorded in the results"
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/report.json"))
assert r["experiment"]["rules"] == "lee" and r["experiment"]["board"] == "10x22", r["experiment"]
assert json.load(open(d + "/metadata.json"))["experiment"]["rules"] == "lee"
for o in r["optimizers"]:
    assert o["held_out"]["board"] == "10x22" and o["held_out"]["ci95_games"]["low"] is not None, o["held_out"]
PY
grep -q 'rules `lee` on 10x22' "$work/lee/report.md" || fail "report.md does not name the lee rules"
grep -q '^rules lee$' "$work/lee/runs/cmaes/run-0/final.policy" || fail "final.policy does not name the lee rules"
"$bin" play --rules lee --policy "$work/lee/runs/cmaes/run-0/final.policy" --games 1 --max-pieces 50 >/dev/null ||
  fail "the lee weights do not play under --rules lee"
sed -i 's/^rules = "lee"/rules = "guideline"/' "$work/lee/config.toml"
"$bin" compare --resume "$work/lee" 2>"$work/stderr" >/dev/null
[ $? -eq 2 ] && grep -q "was changed" "$work/stderr" || fail "a resume with the rule set edited was not refused"
sed 's/^\[heldout\]$/[heldout]\nboards = ["10x12"]/' "$work/lee.toml" >"$work/boards.toml"
"$bin" compare "$work/boards.toml" --out "$work/lee-boards" 2>"$work/stderr" >/dev/null
[ $? -eq 2 ] && grep -q "heldout.boards" "$work/stderr" || fail "lee with held-out boards was not refused"
echo "ok: a comparison under the lee rule set"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all compare checks passed"
