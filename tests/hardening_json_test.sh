#!/usr/bin/env bash
# Regression tests of the hardening issue's second round (docs/threat-model.md) for JSON and
# list limits: bad input exits 2 with ONE line on stderr naming the file, key or flag and the
# limit, before any work, and leaves no file behind or changed.  One case or more per class:
#  7 a deeply nested JSON value (a results folder's files, optimize --options): it crashed
# 14 config lists without a limit (held-out targets and boards, [[optimizer]] tables)
# 15 floats accepted for integer optimizer options; repeated JSON keys, the last one winning
# Usage: hardening_json_test.sh PATH/TO/tetrisbench
set -u
tests_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
bin=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
source "$tests_dir/hardening_lib.sh"  # fail, snapshot, check

# cfg FILE [HELDOUT-LINES [OPTIMIZER-TABLES]]: one CE run on 6x8, a few tenths of a second.
ce_entry=$'[[optimizer]]\noptimizer = "ce"\noptions = { samples = 20, elite = 0.2 }'
cfg() {
  cat >"$1" <<EOF
name = "hard"
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
${2:-}

${3:-$ce_entry}
EOF
}

# deep N: N nested arrays.
deep() { /usr/bin/python3 -c "import sys; n = int(sys.argv[1]); print('[' * n + ']' * n, end='')" "$1"; }

# add_member FILE KEY PYTHON: adds "KEY": VALUE as the first member of the JSON object in
# FILE, as text (so that it may repeat a key); VALUE is the text PYTHON evaluates to (not
# an argument: one is at most 128 KiB, and a 100,000-deep value is 200 KB).
add_member() {
  /usr/bin/python3 - "$@" <<'PY'
import sys
deep = lambda n: "[" * n + "]" * n
path, key, value = sys.argv[1], sys.argv[2], eval(sys.argv[3])
text = open(path).read()
assert text.lstrip().startswith("{")
open(path, "w").write("{" + '"' + key + '": ' + value + ", " + text.lstrip()[1:])
PY
}

mkdir "$work/in"

# ---------------------------------------------------------------------------------------
# 7 and 15: a results folder whose JSON files nest too deep or repeat a key.
cfg "$work/in/tiny.toml"
"$bin" compare "$work/in/tiny.toml" --out "$work/base" --no-plots --threads 2 >"$work/log" 2>&1 ||
  fail "base compare run: $(cat "$work/log")"
run0=runs/ce/run-0
n=0
resume_case() {  # resume_case WHY FILE KEY PYTHON NEEDLE: a copy of base with add_member FILE KEY PYTHON
  local why=$1 file=$2 key=$3 value=$4 needle=$5
  n=$((n + 1))
  local d="$work/resume-$n"
  cp -a "$work/base" "$d"
  [ "$file" = "$run0/checkpoint.json" ] && rm "$d/$run0/result.json" "$d/report.json"
  add_member "$d/$file" "$key" "$value"
  check "resume: $why" "$needle" --keep "$d" -- compare --resume "$d" --no-plots --threads 2
  grep -qF -- "'$d/$file'" "$work/err" || fail "resume: $why: does not name '$d/$file'"
}
resume_case "metadata.json with a 100,000-deep array" metadata.json junk "deep(100000)" \
  "JSON nested deeper than 64 levels"
resume_case "metadata.json with a 65-deep array" metadata.json junk "deep(65)" "JSON nested deeper than 64 levels"
resume_case "result.json with a 100,000-deep array" $run0/result.json junk "deep(100000)" \
  "JSON nested deeper than 64 levels"
resume_case "checkpoint.json with a 100,000-deep array" $run0/checkpoint.json junk "deep(100000)" \
  "JSON nested deeper than 64 levels"
resume_case "metadata.json with a repeated key" metadata.json threads "'3'" "duplicate key 'threads'"
resume_case "result.json with a repeated key" $run0/result.json pieces "'0'" "duplicate key 'pieces'"
resume_case "checkpoint.json with a repeated key" $run0/checkpoint.json pieces "'0'" "duplicate key 'pieces'"
# The deepest value allowed still resumes (it is kept in metadata.json, ignored).
cp -a "$work/base" "$work/ok-64"
add_member "$work/ok-64/metadata.json" junk "deep(63)"
"$bin" compare --resume "$work/ok-64" --no-plots --threads 2 >"$work/log" 2>&1 ||
  fail "resume with a 64-level metadata.json: $(tail -n 1 "$work/log")"

# ---------------------------------------------------------------------------------------
# 7 and 15: optimize --options.  An argument is at most 128 KiB, so 65,000 levels.
check "optimize --options 65,000 deep" "--options: JSON nested deeper than 64 levels" --absent "$work/o-deep.json" -- \
  optimize --optimizer cmaes --dim 2 --runs 1 --options "{\"x\": $(deep 65000)}" --out "$work/o-deep.json"
check "optimize --options repeated lambda" "--options: duplicate key 'lambda'" --absent "$work/o-dup.json" -- \
  optimize --optimizer cmaes --dim 2 --runs 1 --options '{"lambda": 4, "lambda": 8}' --out "$work/o-dup.json"
check "optimize --options lambda 10.0" "option 'lambda' must be an integer" --absent "$work/o-lambda.json" -- \
  optimize --optimizer cmaes --dim 2 --runs 1 --options '{"lambda": 10.0}' --out "$work/o-lambda.json"
check "optimize --options samples 2e1" "option 'samples' must be an integer" --absent "$work/o-samples.json" -- \
  optimize --optimizer ce --dim 2 --runs 1 --options '{"samples": 2e1}' --out "$work/o-samples.json"

# ---------------------------------------------------------------------------------------
# 15: floats for integer options in a config.
cfg "$work/in/lambda.toml" "" $'[[optimizer]]\noptimizer = "cmaes"\noptions = { lambda = 1e1 }'
check "config cmaes lambda = 1e1" "lambda.toml: optimizer[0].options: cmaes: option 'lambda' must be an integer" \
  --absent "$work/never-lambda" -- compare "$work/in/lambda.toml" --no-plots --out "$work/never-lambda"
cfg "$work/in/samples.toml" "" $'[[optimizer]]\noptimizer = "ce"\noptions = { samples = 20.0 }'
check "config ce samples = 20.0" "samples.toml: optimizer[0].options: ce: option 'samples' must be an integer" \
  --absent "$work/never-samples" -- compare "$work/in/samples.toml" --no-plots --out "$work/never-samples"

# ---------------------------------------------------------------------------------------
# 14: long lists, refused at once.
/usr/bin/python3 -c "print('targets = [' + ', '.join(['5'] * 100000) + ']')" >"$work/targets"
cfg "$work/in/targets.toml" "$(cat "$work/targets")"
start=$(date +%s%N)
check "100,000 held-out targets" "targets.toml: heldout.targets: at most 64 line counts, not 100000" \
  --absent "$work/never-targets" -- compare "$work/in/targets.toml" --no-plots --out "$work/never-targets"
ms=$((($(date +%s%N) - start) / 1000000))
[ $ms -lt 2000 ] || fail "100,000 held-out targets: refused after $ms ms, not within 2 s"
cfg "$work/in/boards.toml" "boards = [$(printf '"6x10", %.0s' {1..16})\"6x10\"]"
check "17 held-out boards" "boards.toml: heldout.boards: at most 16 boards, not 17" \
  --absent "$work/never-boards" -- compare "$work/in/boards.toml" --no-plots --out "$work/never-boards"
tables=""
for i in $(seq 0 32); do tables+=$'[[optimizer]]\noptimizer = "ce"\n'"label = \"ce$i\""$'\n'; done
cfg "$work/in/entries.toml" "" "$tables"
check "33 [[optimizer]] tables" "entries.toml: config.optimizer: at most 32 [[optimizer]] tables, not 33" \
  --absent "$work/never-entries" -- compare "$work/in/entries.toml" --no-plots --out "$work/never-entries"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all JSON and list limit checks passed"
