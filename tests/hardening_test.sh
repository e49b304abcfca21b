#!/usr/bin/env bash
# Regression tests of the hardening issue (docs/threat-model.md): bad input exits 2 with ONE
# line on stderr naming the file, key or flag (and the allowed range), before any work, and
# leaves no file behind or changed.  One case or more per class of bug the issue fixed:
#  1 shell injection in compare's report.py call      7 corrupt compare --resume folders
#  2 replacing non-regular outputs (FIFO, link, dir)  8 clamped or wrapped numbers
#  3 escaping the results folder (names, labels)      9 unwritable outputs found late
#  4 crashes (huge strings, counts, checkpoints)     10 two flags naming the same file
#  5 hangs and unbounded reads (FIFO, /dev/zero)     11 races on a results folder, stale temporaries
#  6 late reporting of bad optimizer options         12 a full disk (RLIMIT_FSIZE)
# and of the second round (13-17): links inside a results folder, a failed replay --png,
# a resume without metadata, names near NAME_MAX, the mode of a replaced file.
# Device-like paths are FIFOs and symlinks made in the test's own temporary folder; /dev/zero
# is only ever read (refused before reading), and no real device is written.
# Usage: hardening_test.sh PATH/TO/tetrisbench REPO-ROOT
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$(realpath "$1")
repo=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
source "$tests_dir/hardening_lib.sh"

# cfg FILE [KEY=VALUE]...: a tiny comparison (one CE run on 6x8, a few tenths of a second).
# Keys: name features runs seed extra (top-level lines) pieces optimizer optextra options;
# values are TOML text; LONG in a value becomes 300,000 x's.
cfg() {
  /usr/bin/python3 - "$@" <<'PY'
import sys
kv = dict(a.split("=", 1) for a in sys.argv[2:])
def v(k, d):
    return kv.get(k, d).replace("LONG", "x" * 300000)
text = f"""# tests/data/tiny-compare.toml, smaller
name = {v("name", '"hard"')}
features = {v("features", '"lee"')}
runs = {v("runs", "1")}
seed = {v("seed", "5")}
{v("extra", "")}

[rules]
board = "6x8"

[fitness]
games = 3
max_pieces = 300

[budget]
pieces = {v("pieces", "20000")}

[heldout]
games = 2
max_pieces = 500

[[optimizer]]
optimizer = {v("optimizer", '"ce"')}
{v("optextra", "")}
options = {v("options", "{ samples = 20, elite = 0.2 }")}
"""
open(sys.argv[1], "w").write(text)
PY
}

# jedit FILE PYTHON: edits a JSON file in place; PYTHON runs with `j` the parsed file.
jedit() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
exec(sys.argv[2])
open(sys.argv[1], "w").write(json.dumps(j))
PY
}

mkdir -p "$work/in" "$work/out"
cfg "$work/in/tiny.toml"
cp "$repo/results/policies/bcts.policy" "$work/in/p.policy"
echo "precious" >"$work/in/target.txt"
mkfifo "$work/in/fifo"
ln -s "$work/in/target.txt" "$work/in/link"
mkdir "$work/in/adir"
echo "inside" >"$work/in/adir/file"
replay_src="$repo/tests/data/lee-seed1-200.replay"
cp "$replay_src" "$work/in/r.replay"

# ---------------------------------------------------------------------------------------
# 1. Shell injection: --out is passed to report.py as one argument, never through a shell.
section "1. Shell injection"
f0=$failures
q1="$work/q'; touch $work/PWNED; echo '"
q2="$work/q2'; touch $work/PWNED; echo '\$(touch $work/PWNED)\`touch $work/PWNED\`"
timeout 120 "$bin" compare "$work/in/tiny.toml" --out "$q1" --no-plots --threads 2 >"$work/stdout" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || fail "injection via --out (no plots): exit $rc: $(tail -n 1 "$work/err")"
[ -s "$q1/report.json" ] || fail "injection via --out (no plots): no report.json in the quoted folder"
# report.py runs (needs /usr/bin/python3 with matplotlib, which CI has): exit 0 only.
timeout 120 "$bin" compare "$work/in/tiny.toml" --out "$q2" --threads 2 >"$work/stdout" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || fail "injection via --out (report.py): exit $rc: $(tail -n 1 "$work/err")"
[ -s "$q2/report.md" ] || fail "injection via --out (report.py): no report.md in the quoted folder"
[ -e "$work/PWNED" ] && fail "injection via --out: the shell ran 'touch PWNED'"
timeout 120 "$bin" compare "$work/in/tiny.toml" --out "$work/it's" --threads 2 >"$work/stdout" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || fail "quote in --out: exit $rc: $(tail -n 1 "$work/err")"
for f in report.json report.md plots/progress.png; do
  [ -s "$work/it's/$f" ] || fail "quote in --out: no $f"
done
[ $failures -eq $f0 ] && echo "ok: shell injection through --out (report.py run without a shell)"

# ---------------------------------------------------------------------------------------
# 2. Outputs that are not regular files are refused, and left as they were.
section "2. Outputs that are not regular files are refused, and left as they were"
for kind in fifo link adir; do
  case $kind in fifo) say="is a FIFO" ;; link) say="is a symbolic link" ;; adir) say="is a directory" ;; esac
  t="$work/in/$kind"
  check "play --out $kind" "$say; refusing to replace" --keep "$work/in" -- play --games 1 --out "$t"
  check "play --record $kind" "$say; refusing to replace" --keep "$work/in" -- play --games 1 --record "$t"
  check "learn --out $kind" "$say; refusing to replace" --keep "$work/in" -- \
    learn --board 6x8 --pieces 1000 --out "$t"
  check "learn --log $kind" "$say; refusing to replace" --keep "$work/in" --absent "$work/out/w.policy" -- \
    learn --board 6x8 --pieces 1000 --out "$work/out/w.policy" --log "$t"
  check "learn --checkpoint $kind" "$say; refusing to replace" --keep "$work/in" --absent "$work/out/w.policy" -- \
    learn --board 6x8 --pieces 1000 --out "$work/out/w.policy" --checkpoint "$t"
  check "replay --gif $kind" "$say; refusing to replace" --keep "$work/in" -- replay "$work/in/r.replay" --gif "$t"
  check "optimize --out $kind" "$say; refusing to replace" --keep "$work/in" -- optimize --dim 2 --runs 1 --out "$t"
done
[ -L "$work/in/link" ] && [ "$(cat "$work/in/target.txt")" = precious ] || fail "the symlink or its target changed"
check "replay --png onto a FIFO" "--png" --keep "$work/in" -- replay "$work/in/r.replay" --no-text --png "$work/in/fifo"
check "replay --png onto a symlink" "--png" --keep "$work/in" -- replay "$work/in/r.replay" --no-text --png "$work/in/link"

# ---------------------------------------------------------------------------------------
# 3. Names and labels that would leave the results folder (cwd is $work: nothing in results/).
section "3. Names and labels that would leave the results folder"
for name in '".."' '"."' '"a/b"' '"../x"' '".hidden"'; do
  cfg "$work/in/name.toml" name="$name"
  check "config name $name" "config.name" --absent "$work/results" -- compare "$work/in/name.toml" --no-plots
done
for label in '".."' '"."' '"a/b"' '""'; do
  cfg "$work/in/label.toml" optextra="label = $label"
  check "optimizer label $label" "optimizer[0].label" --absent "$work/results" -- \
    compare "$work/in/label.toml" --no-plots
done

# ---------------------------------------------------------------------------------------
# 4. Crashes: very long strings, huge counts, a tampered learn checkpoint.
section "4. Crashes"
cfg "$work/in/long-name.toml" name='"LONG"'
check "300,000-char name" "config.name" --absent "$work/results" -- compare "$work/in/long-name.toml" --no-plots
cfg "$work/in/long-features.toml" features='"LONG"'
check "300,000-char features" "config.features" --absent "$work/results" -- \
  compare "$work/in/long-features.toml" --no-plots
cfg "$work/in/long-label.toml" optextra='label = "LONG"'
check "300,000-char label" "optimizer[0].label" --absent "$work/results" -- compare "$work/in/long-label.toml" --no-plots
cfg "$work/in/long-key.toml" extra='LONG = 1'
check "300,000-char unknown key" "unknown key" --absent "$work/results" -- compare "$work/in/long-key.toml" --no-plots
cfg "$work/in/long-opt.toml" optimizer='"LONG"'
check "300,000-char optimizer name" "optimizer[0].optimizer" --absent "$work/results" -- \
  compare "$work/in/long-opt.toml" --no-plots
check "--threads 1000000" "--threads must be an integer in [0, 1024]" --absent "$work/out/t.json" -- \
  play --games 1 --threads 1000000 --out "$work/out/t.json"
check "--games 99999999999" "--games must be an integer in [1, 10000000]" --absent "$work/out/t.json" -- \
  play --games 99999999999 --out "$work/out/t.json"
check "compare --threads 1000000" "--threads must be an integer in [0, 1024]" --absent "$work/out/never" -- \
  compare "$work/in/tiny.toml" --threads 1000000 --out "$work/out/never"
check "learn --threads 99999" "--threads must be an integer in [0, 1024]" --absent "$work/out/w.policy" -- \
  learn --board 6x8 --pieces 1000 --threads 99999 --out "$work/out/w.policy"
cfg "$work/in/ce.toml" options='{ samples = 100000000 }'
check "ce samples 1e8" "samples" --absent "$work/out/never" -- compare "$work/in/ce.toml" --no-plots --out "$work/out/never"
cfg "$work/in/ga.toml" optimizer='"ga"' options='{ population = 2000000000 }'
check "ga population 2e9" "population" --absent "$work/out/never" -- \
  compare "$work/in/ga.toml" --no-plots --out "$work/out/never"
cfg "$work/in/cma.toml" optimizer='"cmaes"' options='{ lambda = 4294967297 }'
check "cmaes lambda 2^32+1" "lambda" --absent "$work/out/never" -- \
  compare "$work/in/cma.toml" --no-plots --out "$work/out/never"
cfg "$work/in/pso.toml" optimizer='"pso"' options='{ swarm = 9223372036854775807 }'
check "pso swarm 2^63-1" "swarm" --absent "$work/out/never" -- compare "$work/in/pso.toml" --no-plots --out "$work/out/never"
check "optimize lambda 2^32+1" "lambda" --absent "$work/out/o.json" -- \
  optimize --optimizer cmaes --dim 2 --runs 1 --options '{"lambda": 4294967297}' --out "$work/out/o.json"

# Learn checkpoints: a real one (td44 with TD(lambda), dense traces; and an n-tuple network,
# sparse traces), then one field tampered per copy; a refused copy is left as it was.
mkdir "$work/ck"
"$bin" learn --board 6x8 --pieces 4000 --record-every 1000 --eval-games 0 --threads 2 \
  --checkpoint "$work/ck/td.json" --out "$work/ck/td.policy" >"$work/out/log" 2>&1 || fail "learn td checkpoint"
"$bin" learn --learner ntuple --board 6x8 --pieces 4000 --record-every 1000 --eval-games 0 --threads 2 \
  --checkpoint "$work/ck/nt.json" --out "$work/ck/nt.policy" >"$work/out/log" 2>&1 || fail "learn ntuple checkpoint"
# The untampered checkpoints resume (a larger budget): the tampered ones differ only there.
for m in td nt; do
  cp "$work/ck/$m.json" "$work/ck/$m-ok.json"
  learner=tdlambda; [ $m = nt ] && learner=ntuple
  "$bin" learn --learner $learner --board 6x8 --pieces 8000 --record-every 1000 --eval-games 0 --threads 2 \
    --checkpoint "$work/ck/$m-ok.json" --out "$work/ck/$m-ok.policy" >"$work/out/log" 2>&1 &&
    grep -q "resumed from checkpoint" "$work/out/log" || fail "an untampered $m checkpoint does not resume"
done
n=0
tamper() {  # tamper MODEL WHY PYTHON-EDIT [NEEDLE]
  local m=$1 why=$2 edit=$3 needle=${4:-}
  n=$((n + 1))
  local f="$work/ck/bad-$n.json" learner=tdlambda
  [ "$m" = nt ] && learner=ntuple
  cp "$work/ck/$m.json" "$f"
  jedit "$f" "$edit"
  check "learn checkpoint: $why" "checkpoint '$f'" --absent "$work/out/w.policy" --keep "$work/ck" -- \
    learn --learner $learner --board 6x8 --pieces 8000 --record-every 1000 --eval-games 0 --threads 2 \
    --checkpoint "$f" --out "$work/out/w.policy"
  if [ -n "$needle" ] && ! grep -qF -- "$needle" "$work/err"; then
    fail "learn checkpoint: $why: does not name '$needle': $(cat "$work/err")"
  fi
}
S="j['learner']['slots'][0]"
tamper td "board word 2^32" "$S['board'][0] = 4294967296" "slots.board"
tamper td "board word -1" "$S['board'][0] = -1" "slots.board"
tamper td "board cell outside" "$S['board'][0] = 1 << 20" "slots.board"
tamper td "bag 2^31" "$S['stream'][2] = 2**31" "slots.stream.bag"
tamper td "bag piece code 7" "$S['stream'][2] = 7" "slots.stream.bag"
tamper td "bag_left 99" "$S['stream'][3] = 99" "slots.stream.bag_left"
tamper td "stream key negative" "$S['stream'][0] = -1" "slots.stream"
tamper td "sparse trace in a dense learner" "$S['sparse_trace'] = [[0, 1.0]]" "sparse_trace"
tamper td "dense trace too short" "$S['dense_trace'] = $S['dense_trace'][:-1]" "dense_trace"
tamper td "pieces -5" "j['learner']['pieces'] = -5" "pieces"
tamper td "episodes 2^63-1 (would overflow)" "j['learner']['episodes'] = 2**63 - 1" "episodes"
tamper td "steps 2^62+1" "j['learner']['steps'] = 2**62 + 1" "steps"
tamper td "weights with null" "j['learner']['weights'][3] = None" "weights"
tamper td "weights too long" "j['learner']['weights'].append(1.0)" "weights"
tamper td "game 2^64" "$S['game'] = 2**64" "slots.game"
tamper td "game -1" "$S['game'] = -1" "slots.game"
tamper td "slots missing one" "j['learner']['slots'].pop()" "slots"
tamper td "placed as a string" "$S['placed'] = 'x'" "placed"
tamper td "records not an array" "j['records'] = 5" "records"
tamper td "seconds nan (null)" "j['seconds'] = None" "seconds"
tamper td "version 99" "j['version'] = 99" "version"
tamper td "another config" "j['config']['alpha'] = 0.5" "config"
tamper td "random key negative" "$S['random']['key'] = -1" "random"
tamper nt "sparse index past the table" \
  "s = [x for x in j['learner']['slots'] if x['sparse_trace']][0]; s['sparse_trace'][0][0] = 10**9" "sparse_trace"
tamper nt "sparse index negative" \
  "s = [x for x in j['learner']['slots'] if x['sparse_trace']][0]; s['sparse_trace'][0][0] = -1" "sparse_trace"
tamper nt "sparse index repeated" \
  "s = [x for x in j['learner']['slots'] if x['sparse_trace']][0]; s['sparse_trace'].append(list(s['sparse_trace'][0]))" \
  "sparse_trace"
tamper nt "sparse value null" \
  "s = [x for x in j['learner']['slots'] if x['sparse_trace']][0]; s['sparse_trace'][0][1] = None" "sparse_trace"
for what in empty truncated; do
  f="$work/ck/$what.json"
  if [ $what = empty ]; then : >"$f"; else head -c $(($(wc -c <"$work/ck/td.json") / 2)) "$work/ck/td.json" >"$f"; fi
  check "learn checkpoint: $what" "checkpoint '$f'" --absent "$work/out/w.policy" --keep "$work/ck" -- \
    learn --board 6x8 --pieces 8000 --record-every 1000 --eval-games 0 --checkpoint "$f" --out "$work/out/w.policy"
done

# ---------------------------------------------------------------------------------------
# 5. Hangs and unbounded reads: a FIFO or /dev/zero as an input is refused before reading.
section "5. Hangs and unbounded reads"
check "FIFO as policy" "'$work/in/fifo': it is a FIFO" --absent "$work/out/t.json" -- \
  play --policy "$work/in/fifo" --games 1 --out "$work/out/t.json"
check "FIFO as config" "'$work/in/fifo': it is a FIFO" --absent "$work/out/never" -- \
  compare "$work/in/fifo" --out "$work/out/never"
check "FIFO as replay" "'$work/in/fifo': it is a FIFO" -- replay "$work/in/fifo"
check "FIFO as learn checkpoint" "--checkpoint '$work/in/fifo' is a FIFO" --absent "$work/out/w.policy" -- \
  learn --board 6x8 --pieces 1000 --checkpoint "$work/in/fifo" --out "$work/out/w.policy"
ln -s "$work/in/fifo" "$work/in/fifo-link"
check "symlink to a FIFO as policy" "it is a FIFO" -- play --policy "$work/in/fifo-link" --games 1
check "symlink to a FIFO as config" "it is a FIFO" --absent "$work/out/never" -- \
  compare "$work/in/fifo-link" --out "$work/out/never"
check "/dev/zero as policy" "'/dev/zero': it is a character device" -- play --policy /dev/zero --games 1
check "/dev/zero as config" "'/dev/zero': it is a character device" --absent "$work/out/never" -- \
  compare /dev/zero --out "$work/out/never"
check "/dev/zero as replay" "'/dev/zero': it is a character device" -- replay /dev/zero
check "directory as config" "directory" --absent "$work/out/never" -- compare "$work/in/adir" --out "$work/out/never"
{ cat "$work/in/tiny.toml"; yes '# padding' | head -c $((2 << 20)); } >"$work/in/big.toml"
check "2 MiB config" "larger than" --absent "$work/out/never" -- compare "$work/in/big.toml" --out "$work/out/never"
# One byte over the 64 MiB caps of policies and replays (sparse files: the size is checked first).
printf 'tetrisbench-policy 1\n' >"$work/in/big.policy"
truncate -s $(((64 << 20) + 1)) "$work/in/big.policy"
check "64 MiB + 1 policy" "larger than" -- play --policy "$work/in/big.policy" --games 1
cp "$work/in/r.replay" "$work/in/big.replay"
truncate -s $(((64 << 20) + 1)) "$work/in/big.replay"
check "64 MiB + 1 replay" "larger than" -- replay "$work/in/big.replay"
rm -f "$work/in/big.policy" "$work/in/big.replay"

# ---------------------------------------------------------------------------------------
# 6. Bad optimizer options are found when the config is read, before any folder exists.
section "6. Bad optimizer options are found when the config is read, before any folder exists"
opt_case() {  # opt_case WHY OPTIMIZER OPTIONS
  cfg "$work/in/opt.toml" optimizer="\"$2\"" options="$3"
  check "option: $1" "$work/in/opt.toml: optimizer[0].options" --absent "$work/out/never" -- \
    compare "$work/in/opt.toml" --no-plots --out "$work/out/never"
}
opt_case "ce unknown key" ce '{ sampels = 20 }'
opt_case "ce samples a string" ce '{ samples = "20" }'
opt_case "ce samples 0" ce '{ samples = 0 }'
opt_case "ce elite 0" ce '{ elite = 0.0 }'
opt_case "ce elite nan" ce '{ elite = nan }'
opt_case "ce elite inf" ce '{ elite = inf }'
opt_case "ce variance0 -inf" ce '{ variance0 = -inf }'
opt_case "ce noise_constant nan" ce '{ noise_constant = nan }'
opt_case "cmaes lambda 0" cmaes '{ lambda = 0 }'
opt_case "cmaes lambda 2.5" cmaes '{ lambda = 2.5 }'
opt_case "ga population a string" ga '{ population = "many" }'
opt_case "pso w nan" pso '{ w = nan }'
opt_case "tdlambda alpha inf" tdlambda '{ alpha = inf }'
opt_case "tdlambda unknown key" tdlambda '{ alhpa = 0.1 }'
cfg "$work/in/sigma.toml" optextra='sigma0 = nan'
check "sigma0 nan" "optimizer[0].sigma0" --absent "$work/out/never" -- \
  compare "$work/in/sigma.toml" --no-plots --out "$work/out/never"

# ---------------------------------------------------------------------------------------
# 7. Corrupt compare --resume folders: each copy of a finished folder, with result.json and
# report.json removed for the checkpoint cases, is refused with the file named.
section "7. Corrupt compare --resume folders"
"$bin" compare "$work/in/tiny.toml" --out "$work/base" --no-plots --threads 2 >"$work/out/log" 2>&1 ||
  fail "base compare run: $(cat "$work/out/log")"
run0=runs/ce/run-0
[ -f "$work/base/$run0/checkpoint.json" ] && [ -f "$work/base/$run0/result.json" ] ||
  fail "a finished run folder lacks checkpoint.json or result.json"
cp -a "$work/base" "$work/ck-base"
rm -f "$work/ck-base/$run0/result.json" "$work/ck-base/report.json"
# The copy without result.json resumes (the checkpoint decides).
cp -a "$work/ck-base" "$work/ck-ok"
"$bin" compare --resume "$work/ck-ok" --no-plots --threads 2 >"$work/out/log" 2>&1 ||
  fail "resume from a checkpoint alone failed: $(tail -n 1 "$work/out/log")"
[ -s "$work/ck-ok/report.json" ] || fail "resume from a checkpoint alone wrote no report.json"
m=0
resume_case() {  # resume_case WHY BASE FILE EDIT NEEDLE: EDIT is a shell command run on the copy's FILE
  local why=$1 base=$2 file=$3 edit=$4 needle=$5
  m=$((m + 1))
  local d="$work/resume-$m"
  cp -a "$work/$base" "$d"
  (cd "$d" && eval "$edit") || { fail "$why: the edit failed"; return; }
  check "resume: $why" "$needle" --keep "$d" -- compare --resume "$d" --no-plots --threads 2
  grep -qF -- "$d/$file" "$work/err" || fail "resume: $why: does not name '$d/$file': $(tr '\n' '|' <"$work/err")"
}
C=$run0/checkpoint.json R=$run0/result.json
resume_case "empty checkpoint" ck-base $C ": >$C" "$C"
resume_case "truncated checkpoint" ck-base $C "head -c \$((\$(wc -c <$C) / 2)) $C >x && mv x $C" "$C"
resume_case "checkpoint is a directory" ck-base $C "rm $C && mkdir $C" "$C"
resume_case "checkpoint is a FIFO" ck-base $C "rm $C && mkfifo $C" "$C"
resume_case "checkpoint pieces a string" ck-base $C "jedit $C \"j['pieces'] = 'x'\"" "$C"
resume_case "checkpoint records 5" ck-base $C "jedit $C \"j['records'] = 5\"" "$C"
resume_case "checkpoint pieces -1" ck-base $C "jedit $C \"j['pieces'] = -1\"" "$C"
resume_case "checkpoint games -1" ck-base $C "jedit $C \"j['games'] = -1\"" "$C"
resume_case "checkpoint CE variance null" ck-base $C "jedit $C \"j['optimizer']['variance'][0] = None\"" "$C"
resume_case "checkpoint CE variance not a list" ck-base $C "jedit $C \"j['optimizer']['variance'] = None\"" "$C"
# Optimizer state counts are int64 in [0, 2^62] (optimizer_util.h count_from_json), so
# 2^32+1 is a legal generation; 2^62+1 is not, and a dim of 2^32+4 (4 if wrapped) must not
# pass for 4.
resume_case "checkpoint optimizer generation 2^62+1" ck-base $C \
  "jedit $C \"j['optimizer']['generation'] = 2**62 + 1\"" "$C"
resume_case "checkpoint optimizer dim 2^32+4" ck-base $C "jedit $C \"j['optimizer']['dim'] = 2**32 + 4\"" "$C"
resume_case "checkpoint optimizer evaluations -1" ck-base $C \
  "jedit $C \"j['optimizer']['evaluations'] = -1\"" "$C"
resume_case "checkpoint generation 2^32+1" ck-base $C "jedit $C \"j['generation'] = 4294967297\"" "$C"
resume_case "checkpoint games 2^63-1 (would overflow)" ck-base $C "jedit $C \"j['games'] = 2**63 - 1\"" "$C"
resume_case "checkpoint best_weights too short" ck-base $C "jedit $C \"j['best_weights'].pop()\"" "$C"
resume_case "checkpoint past the budget" ck-base $C "jedit $C \"j['pieces'] = 10**12\"" "$C"
resume_case "checkpoint random counter negative" ck-base $C \
  "jedit $C \"j['optimizer']['random']['counter'] = -1\"" "$C"
resume_case "empty result" base $R ": >$R" "$R"
resume_case "truncated result" base $R "head -c \$((\$(wc -c <$R) / 2)) $R >x && mv x $R" "$R"
resume_case "result is a directory" base $R "rm $R && mkdir $R" "$R"
resume_case "result pieces a string" base $R "jedit $R \"j['pieces'] = 'x'\"" "$R"
resume_case "result records 5" base $R "jedit $R \"j['records'] = 5\"" "$R"
resume_case "result pieces -1" base $R "jedit $R \"j['pieces'] = -1\"" "$R"
resume_case "result generations 2^32+1" base $R "jedit $R \"j['generations'] = 4294967297\"" "$R"
resume_case "result games 2^62+1" base $R "jedit $R \"j['games'] = 2**62 + 1\"" "$R"
resume_case "result held_out missing" base $R "jedit $R \"del j['held_out']\"" "$R"
resume_case "result mean_lines null" base $R \
  "jedit $R \"j['held_out']['6x8']['mean_lines'] = None\"" "$R"
resume_case "result of another run" base $R "jedit $R \"j['run'] = 1\"" "$R"
resume_case "config runs changed" base config.toml "sed -i 's/^runs = 1/runs = 2/' config.toml" "was changed"
resume_case "config seed changed" base config.toml "sed -i 's/^seed = 5/seed = 6/' config.toml" "was changed"
resume_case "config is a FIFO" base config.toml "rm config.toml && mkfifo config.toml" "config.toml"
resume_case "metadata truncated" base metadata.json "head -c 20 metadata.json >x && mv x metadata.json" \
  "metadata.json"

# A corrupt file of a later run is found before an earlier, unfinished run is trained again.
cfg "$work/in/two.toml" runs=2
"$bin" compare "$work/in/two.toml" --out "$work/two" --no-plots --threads 2 >"$work/out/log" 2>&1 ||
  fail "two-run compare: $(tail -n 1 "$work/out/log")"
rm -f "$work/two/report.json" "$work/two/runs/ce/run-0/"{result.json,checkpoint.json,generations.csv,final.policy}
: >"$work/two/runs/ce/run-1/result.json"
check "resume: run-1's result is empty, run-0 unfinished" "runs/ce/run-1/result.json" --keep "$work/two" -- \
  compare --resume "$work/two" --no-plots --threads 2

# ---------------------------------------------------------------------------------------
# 8. Numbers are range-checked, never clamped or wrapped.
section "8. Numbers are range-checked, never clamped or wrapped"
check "--seed -1" "--seed" --absent "$work/out/t.json" -- play --games 1 --seed -1 --out "$work/out/t.json"
check "--seed 2^64" "--seed" --absent "$work/out/t.json" -- \
  play --games 1 --seed 18446744073709551616 --out "$work/out/t.json"
check "--seed 1e3" "--seed" --absent "$work/out/t.json" -- play --games 1 --seed 1e3 --out "$work/out/t.json"
check "learn --seed 2^64" "--seed" --absent "$work/out/w.policy" -- \
  learn --board 6x8 --pieces 1000 --seed 18446744073709551616 --out "$work/out/w.policy"
if "$bin" play --games 1 --seed 18446744073709551615 --format json --out "$work/out/max.json" 2>"$work/err"; then
  grep -q '18446744073709551615' "$work/out/max.json" && echo "ok: --seed 2^64-1 accepted" ||
    fail "--seed 2^64-1: the report does not hold the seed"
else
  fail "--seed 2^64-1 refused: $(cat "$work/err")"
fi
cfg "$work/in/runs.toml" runs=4294967297
check "runs = 2^32+1" "config.runs" --absent "$work/out/never" -- compare "$work/in/runs.toml" --no-plots --out "$work/out/never"
cfg "$work/in/runs.toml" runs=0
check "runs = 0" "config.runs" --absent "$work/out/never" -- compare "$work/in/runs.toml" --no-plots --out "$work/out/never"
cfg "$work/in/seed.toml" seed=-1
check "seed = -1" "config.seed" --absent "$work/out/never" -- compare "$work/in/seed.toml" --no-plots --out "$work/out/never"
cfg "$work/in/pieces.toml" pieces=9223372036854775807
check "budget.pieces = 2^63-1" "budget.pieces" --absent "$work/out/never" -- \
  compare "$work/in/pieces.toml" --no-plots --out "$work/out/never"
for v in inf nan -1 1e400 -inf; do
  check "--tie-noise $v" "--tie-noise" --absent "$work/out/t.json" -- \
    play --games 1 --tie-noise "$v" --out "$work/out/t.json"
done
check "--max-pieces 2^63" "--max-pieces" -- play --games 1 --max-pieces 9223372036854775808
check "--first-game 2^63-1" "--first-game" -- play --games 1 --first-game 9223372036854775807
check "optimize --dim 4294967297" "--dim" -- optimize --dim 4294967297
check "replay --cell 4294967298" "--cell" -- replay "$work/in/r.replay" --cell 4294967298

# ---------------------------------------------------------------------------------------
# 9. Unwritable outputs are found before the run (a run this size would take minutes).
section "9. Unwritable outputs are found before the run (a run this size would take minutes)"
timed() {  # timed WHY SECONDS: the last check took less than SECONDS
  [ "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { print (b - a < '"$2"') }')" = 1 ] || fail "$1: took too long"
}
t0=$(date +%s.%N)
check "play --out into a missing folder" "folder '$work/nonexistent-dir' does not exist" \
  --absent "$work/nonexistent-dir" -- play --games 10000000 --out "$work/nonexistent-dir/x.json"
timed "play --out into a missing folder" 5
t0=$(date +%s.%N)
check "play --out /nonexistent-dir/x.json" "does not exist" -- play --games 10000000 --out /nonexistent-dir/x.json
timed "play --out /nonexistent-dir/x.json" 5
t0=$(date +%s.%N)
check "play --record into a missing folder" "--record" --absent "$work/nonexistent-dir" -- \
  play --games 10000000 --record "$work/nonexistent-dir/x.replay"
timed "play --record into a missing folder" 5
t0=$(date +%s.%N)
check "learn --log into a missing folder" "--log" --absent "$work/out/w.policy" --absent "$work/nonexistent-dir" -- \
  learn --board 10x20 --pieces 1000000000 --out "$work/out/w.policy" --log "$work/nonexistent-dir/log.csv"
timed "learn --log into a missing folder" 5
t0=$(date +%s.%N)
check "learn --checkpoint into a missing folder" "--checkpoint" --absent "$work/out/w.policy" -- \
  learn --board 10x20 --pieces 1000000000 --out "$work/out/w.policy" --checkpoint "$work/nonexistent-dir/c.json"
timed "learn --checkpoint into a missing folder" 5
t0=$(date +%s.%N)
check "optimize --out into a missing folder" "--out" -- \
  optimize --dim 50 --runs 100000 --out "$work/nonexistent-dir/o.json"
timed "optimize --out into a missing folder" 5
t0=$(date +%s.%N)
check "replay --gif into a missing folder" "--gif" -- replay "$work/in/r.replay" --gif "$work/nonexistent-dir/g.gif"
check "replay --png under a missing folder" "--png" --absent "$work/nonexistent-dir" -- \
  replay "$work/in/r.replay" --png "$work/nonexistent-dir/frames"
check "replay --png onto a file" "--png" --keep "$work/in" -- replay "$work/in/r.replay" --png "$work/in/target.txt"

# ---------------------------------------------------------------------------------------
# 10. Two flags naming the same file.
section "10. Two flags naming the same file"
check "play --policy P --record P" "name the same file" --keep "$work/in" -- \
  play --policy "$work/in/p.policy" --games 1 --record "$work/in/p.policy"
check "play --policy P --out ./P" "name the same file" --keep "$work/in" -- \
  play --policy "$work/in/p.policy" --games 1 --out "$work/in/./p.policy"
check "play --out X --record X" "name the same file" --absent "$work/out/x" -- \
  play --games 1 --out "$work/out/x" --record "$work/out/x"
check "play --out X --record ./X (new)" "name the same file" --absent "$work/out/x" -- \
  play --games 1 --out "$work/out/x" --record "$work/out/./x"
check "learn --out W --log W" "name the same file" --absent "$work/out/w.policy" -- \
  learn --board 6x8 --pieces 1000 --out "$work/out/w.policy" --log "$work/out/w.policy"
check "learn --out W --checkpoint W" "name the same file" --absent "$work/out/w.policy" -- \
  learn --board 6x8 --pieces 1000 --out "$work/out/w.policy" --checkpoint "$work/out/w.policy"
cp "$work/in/p.policy" "$work/out/existing.policy"
ln -s "$work/out/existing.policy" "$work/out/alias.policy"
check "learn --checkpoint a symlink to --out" "--checkpoint" --keep "$work/out" -- \
  learn --board 6x8 --pieces 1000 --out "$work/out/existing.policy" --checkpoint "$work/out/alias.policy"
rm -f "$work/out/existing.policy" "$work/out/alias.policy"
check "replay R --gif R" "name the same file" --keep "$work/in" -- replay "$work/in/r.replay" --gif "$work/in/r.replay"

# ---------------------------------------------------------------------------------------
# 11. Two compares on one folder at once; stale temporaries swept on resume.
section "11. Two compares on one folder at once; stale temporaries swept on resume"
"$bin" compare "$work/in/tiny.toml" --out "$work/same" --no-plots --threads 1 >"$work/out/a.out" 2>"$work/out/a.err" &
pa=$!
"$bin" compare "$work/in/tiny.toml" --out "$work/same" --no-plots --threads 1 >"$work/out/b.out" 2>"$work/out/b.err" &
pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
race_ok=1
if [ $ra -eq 0 ] && [ $rb -eq 2 ]; then loser=b
elif [ $ra -eq 2 ] && [ $rb -eq 0 ]; then loser=a
else fail "race: exit codes $ra and $rb, not 0 and 2"; race_ok=0; loser=""
fi
if [ -n "$loser" ]; then
  [ "$(wc -l <"$work/out/$loser.err")" -eq 1 ] || { fail "race: the loser's stderr is not one line: $(cat "$work/out/$loser.err")"; race_ok=0; }
  grep -qE "in use by another|already exists and is not empty" "$work/out/$loser.err" ||
    { fail "race: the loser does not say why: $(cat "$work/out/$loser.err")"; race_ok=0; }
fi
(cd "$work/same" && find . -type f | LC_ALL=C sort) >"$work/out/same.list"
(cd "$work/base" && find . -type f | LC_ALL=C sort) >"$work/out/base.list"
cmp -s "$work/out/same.list" "$work/out/base.list" ||
  { fail "race: the folder does not hold exactly one run's files: $(tr '\n' ' ' <"$work/out/same.list")"; race_ok=0; }
[ $race_ok -eq 1 ] && echo "ok: two compares on one folder: one ran, one was refused ($(cat "$work/out/$loser.err"))"

cp -a "$work/ck-base" "$work/stale"
r0="$work/stale/$run0"
# A temporary is stale when its writer (the pid in its name) is gone: 4194305 is above
# PID_MAX_LIMIT (2^22), so never a running process; $$ (this shell) is alive, so its
# temporary is a write in progress and stays.
dead=4194305
touch "$r0/checkpoint.json.tmp.$dead" "$r0/checkpoint.json.tmp.$dead.0" "$r0/keep.tmp.txt" \
  "$work/stale/report.json.tmp.$dead.3" "$r0/x.tmp." "$r0/x.tmp.1.2.3" "$r0/.tmp.5" "$r0/live.json.tmp.$$.0"
"$bin" compare --resume "$work/stale" --no-plots --threads 2 >"$work/out/log" 2>&1 ||
  fail "resume with stale temporaries failed: $(tail -n 1 "$work/out/log")"
for gone in "$r0/checkpoint.json.tmp.$dead" "$r0/checkpoint.json.tmp.$dead.0" "$work/stale/report.json.tmp.$dead.3"; do
  [ -e "$gone" ] && fail "stale temporary '$gone' survived the resume"
done
for kept in "$r0/keep.tmp.txt" "$r0/x.tmp." "$r0/x.tmp.1.2.3" "$r0/.tmp.5" "$r0/live.json.tmp.$$.0"; do
  [ -e "$kept" ] || fail "resume removed '$kept', which is not a temporary of ours"
done
grep -q "removed 3 temporary file" "$work/out/log" || fail "resume did not report removing 3 temporaries: $(cat "$work/out/log")"
[ -s "$work/stale/report.json" ] && echo "ok: resume swept stale temporaries and kept other files"

# ---------------------------------------------------------------------------------------
# 12. A full disk (RLIMIT_FSIZE; with SIGXFSZ ignored a write fails with EFBIG).
section "12. A full disk (RLIMIT_FSIZE; with SIGXFSZ ignored a write fails with EFBIG)"
"$bin" play --rules guideline --games 1 --max-pieces 200 --record "$work/in/long.replay" >"$work/out/log" 2>&1 ||
  fail "recording a 200-move replay"
limited() {  # limited BLOCKS ARGS...: tetrisbench with files capped at BLOCKS KiB
  # stdout and stderr go through pipes: the limit applies to every file the process writes.
  local blocks=$1 rc
  shift
  { (ulimit -f "$blocks"; trap '' XFSZ; exec timeout 60 "$bin" "$@") 2>&1 1>&3 | cat >"$work/err"
    rc=${PIPESTATUS[0]}; } 3> >(cat >"$work/stdout")
  return "$rc"
}
full_disk() {  # full_disk WHY BLOCKS ARGS...: exit 1 and one line naming the failed write
  local why=$1 blocks=$2
  shift 2
  limited "$blocks" "$@"
  local rc=$?
  if [ $rc -ne 1 ]; then fail "$why: exit $rc, not 1: $(head -c 400 "$work/err")"; return 1; fi
  if [ "$(wc -l <"$work/err")" -ne 1 ]; then fail "$why: stderr is not one line: $(head -c 600 "$work/err")"; return 1; fi
  grep -qF "File too large" "$work/err" || { fail "$why: the line does not give the reason: $(cat "$work/err")"; return 1; }
  echo "ok: $why -> $(cat "$work/err")"
}
# empty_dir WHY DIR: DIR holds nothing (no partial file, no *.tmp.*)
empty_dir() { [ -z "$(ls -A "$2")" ] || fail "$1: left $(ls -A "$2" | head -n 5 | tr '\n' ' ')"; }

# PNG frames (13 of them: --cell 64 frames take 70 ms each to encode): the limit is chosen
# so that the first few frames fit under it and a later one does not (RLIMIT_FSIZE is per
# file), so the frames already written must be removed.
frames=(--frames 0:12 --no-text --cell 64)
mkdir "$work/full" "$work/full/ref"
"$bin" replay "$work/in/long.replay" --png "$work/full/ref/frames" "${frames[@]}" >"$work/stdout" 2>&1 ||
  fail "replay --png without a limit"
first=$(stat -c %s "$work/full/ref/frames/frame-00000.png")
largest=$(stat -c %s "$work/full/ref/frames/"*.png | sort -n | tail -n 1)
blocks=$(((first + 1023) / 1024))
[ $((blocks * 1024)) -ge "$largest" ] && blocks=$((first / 1024))  # then frame 0 fails
rm -rf "$work/full/ref"
mkdir "$work/full/1"
full_disk "replay --png on a full disk (${blocks} KiB per file)" "$blocks" \
  replay "$work/in/long.replay" --png "$work/full/1/frames" "${frames[@]}"
empty_dir "replay --png on a full disk" "$work/full/1"
mkdir -p "$work/full/2/existing"
full_disk "replay --png into an existing folder on a full disk" "$blocks" \
  replay "$work/in/long.replay" --png "$work/full/2/existing" "${frames[@]}"
empty_dir "replay --png into an existing folder on a full disk" "$work/full/2/existing"
full_disk "replay --png on a full disk, frame 0 too large" 1 \
  replay "$work/in/long.replay" --png "$work/full/2/frames" "${frames[@]}"
[ -e "$work/full/2/frames" ] && fail "replay --png with frame 0 too large left its folder"
mkdir "$work/full/3"
full_disk "replay --gif on a full disk" 8 replay "$work/in/long.replay" --gif "$work/full/3/g.gif" "${frames[@]}"
empty_dir "replay --gif on a full disk" "$work/full/3"
mkdir "$work/full/4"
full_disk "play --record on a full disk" 1 play --rules guideline --games 1 --max-pieces 200 --record "$work/full/4/r.replay"
empty_dir "play --record on a full disk" "$work/full/4"
cp "$work/in/p.policy" "$work/full/4/old.json"
full_disk "play --out over an existing file on a full disk" 0 play --games 50 --format json --out "$work/full/4/old.json"
cmp -s "$work/in/p.policy" "$work/full/4/old.json" || fail "play --out on a full disk changed the existing file"
[ "$(ls -A "$work/full/4")" = old.json ] || fail "play --out on a full disk left: $(ls -A "$work/full/4")"
mkdir "$work/full/5"
full_disk "learn --out on a full disk" 0 learn --board 6x8 --pieces 2000 --eval-games 0 --out "$work/full/5/w.policy"
empty_dir "learn --out on a full disk" "$work/full/5"
mkdir "$work/full/6"
full_disk "compare on a full disk" 0 compare "$work/in/tiny.toml" --out "$work/full/6/run" --no-plots
empty_dir "compare on a full disk" "$work/full/6"
mkdir "$work/full/7"
cd "$work/full/7" && full_disk "compare (default folder) on a full disk" 0 compare "$work/in/tiny.toml" --no-plots
[ -z "$(find "$work/full/7" -mindepth 1 -not -type d)" ] ||
  fail "compare (default folder) on a full disk left files: $(find "$work/full/7" -mindepth 1 -not -type d | head -n 5)"
[ -z "$(find "$work/full/7" -mindepth 1 -type d -name '2*')" ] ||
  fail "compare (default folder) on a full disk left its results folder: $(find "$work/full/7" -mindepth 1 -type d)"
cd "$work" || exit 1

# ---------------------------------------------------------------------------------------
# Second round (issue 47) classes 1, 2, 6, 10 and 17c: links inside a results folder, a failed
# replay --png, a resume without metadata, names near NAME_MAX, the mode of a replaced file.
section "13. Links inside a results folder are refused, never written through"
mkdir -p "$work/r2/outside"
echo "outside" >"$work/r2/outside/result.json"
echo "outside" >"$work/r2/outside/checkpoint.json"
# A finished folder with its run folder replaced by a link to a folder outside.
cp -a "$work/ck-base" "$work/r2/linkrun"
mv "$work/r2/linkrun/runs/ce/run-0" "$work/r2/linkrun-run0"
ln -s "$work/r2/outside" "$work/r2/linkrun/runs/ce/run-0"
check "resume: run folder is a link out" "is a symbolic link" --keep "$work/r2/outside" --keep "$work/r2/linkrun" -- \
  compare --resume "$work/r2/linkrun" --no-plots --threads 2
# The same one step higher (runs/ce).
cp -a "$work/ck-base" "$work/r2/linklabel"
rm -rf "$work/r2/linklabel/runs/ce"
ln -s "$work/r2/outside" "$work/r2/linklabel/runs/ce"
check "resume: label folder is a link out" "is a symbolic link" --keep "$work/r2/outside" -- \
  compare --resume "$work/r2/linklabel" --no-plots --threads 2
# report.py: report.md and plots/ as links are refused and left alone (the run itself succeeds:
# report.json is complete; the report step fails with one line and exit 1).
cp -a "$work/ck-ok" "$work/r2/linkreport"
echo "precious" >"$work/r2/outside/report.md"
ln -s "$work/r2/outside/report.md" "$work/r2/linkreport/report.md"
"$bin" compare --resume "$work/r2/linkreport" --threads 2 >"$work/out/log" 2>&1 && fail "report.md as a link: exit 0"
grep -q "report.py: .*report.md' is not a regular file" "$work/out/log" || fail "report.md as a link: $(tail -n 2 "$work/out/log")"
[ "$(cat "$work/r2/outside/report.md")" = precious ] || fail "report.md as a link: written through"
rm -rf "$work/r2/linkreport/report.md" "$work/r2/linkreport/plots"
ln -s "$work/r2/outside" "$work/r2/linkreport/plots"
"$bin" compare --resume "$work/r2/linkreport" --threads 2 >"$work/out/log" 2>&1 && fail "plots/ as a link: exit 0"
grep -q "plots' is not a folder" "$work/out/log" || fail "plots/ as a link: $(tail -n 2 "$work/out/log")"
[ -z "$(find "$work/r2/outside" -name '*.png')" ] || fail "plots/ as a link: plots written outside"
[ -e "$work/r2/linkreport/report.md" ] && fail "plots/ as a link: report.md written anyway"

section "14. A failed replay --png removes only what it made; bad frames refused before writing"
mkdir "$work/r2/frames"
echo "user's" >"$work/r2/frames/frame-00003.png"
echo "other" >"$work/r2/frames/notes.txt"
echo "target" >"$work/r2/outside/target.png"
ln -s "$work/r2/outside/target.png" "$work/r2/frames/frame-00010.png"
check "replay --png with a link at frame 10" "frame-00010.png" --keep "$work/r2/frames" --keep "$work/r2/outside" -- \
  replay "$work/in/r.replay" --png "$work/r2/frames" --no-text --frames 0:12

section "15. compare --resume without metadata.json"
cp -a "$work/ck-base" "$work/r2/nometa"
rm "$work/r2/nometa/metadata.json"
sed -i 's/^seed = 5/seed = 6/' "$work/r2/nometa/config.toml"
check "resume without metadata.json" "holds no metadata.json" --keep "$work/r2/nometa" -- \
  compare --resume "$work/r2/nometa" --no-plots --threads 2
cp -a "$work/ck-base" "$work/r2/metanoexp"
jedit "$work/r2/metanoexp/metadata.json" "del j['experiment']"
check "resume with metadata.json without its experiment" "holds no experiment" --keep "$work/r2/metanoexp" -- \
  compare --resume "$work/r2/metanoexp" --no-plots --threads 2

section "16. Output names near and over NAME_MAX"
long250=$(printf 'w%.0s' $(seq 250))
long256=$(printf 'w%.0s' $(seq 256))
t0=$(date +%s.%N)
check "learn --out with a 256-byte name" "at most 255" --absent "$work/out/$long256" -- \
  learn --board 10x20 --pieces 1000000000 --out "$work/out/$long256"
timed "learn --out with a 256-byte name" 5
if "$bin" learn --board 6x8 --pieces 2000 --eval-games 0 --out "$work/out/$long250" 2>"$work/err"; then
  [ -s "$work/out/$long250" ] && echo "ok: learn --out with a 250-byte name" || fail "250-byte name: no file"
else
  fail "learn --out with a 250-byte name: $(cat "$work/err")"
fi
rm -f "$work/out/$long250"

section "17. A replaced file keeps its mode"
cp "$work/in/p.policy" "$work/out/private.json"
chmod 600 "$work/out/private.json"
"$bin" play --games 2 --format json --out "$work/out/private.json" 2>"$work/err" || fail "play --out over a 0600 file: $(cat "$work/err")"
[ "$(stat -c %a "$work/out/private.json")" = 600 ] || fail "play --out over a 0600 file: mode $(stat -c %a "$work/out/private.json")"

elapsed=$(($(date +%s) - started))
echo "hardening checks took ${elapsed} s"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all hardening checks passed"
