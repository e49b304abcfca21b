#!/usr/bin/env bash
# End-to-end checks of the `tetrisbench` command line: bad input exits 2 with one line on
# stderr and writes nothing; output does not depend on the thread count.
# Usage: cli_test.sh PATH/TO/tetrisbench
set -u
bin=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect_usage_error DESCRIPTION ARGS...: exit code 2, one stderr line naming the problem,
# empty stdout, and no --out file left behind.
expect_usage_error() {
  local what=$1; shift
  "$bin" "$@" --out "$work/out.json" >"$work/stdout" 2>"$work/stderr"
  local rc=$?
  [ "$rc" -eq 2 ] || fail "$what: exit code $rc, expected 2"
  [ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "$what: stderr is not one line: $(cat "$work/stderr")"
  grep -q "error" "$work/stderr" || fail "$what: stderr does not say error"
  [ -s "$work/stdout" ] && fail "$what: wrote to stdout"
  ls "$work"/out.json* >/dev/null 2>&1 && fail "$what: left an output file"
  echo "ok: $what -> $(cat "$work/stderr")"
}

printf 'tetrisbench-policy 1\nname short\nfeatures bcts\nweights 1 2 3\nend\n' >"$work/short.policy"
printf 'tetrisbench-policy 1\nname cut\nfeatures bcts\nweights -12.6 6.6 -9.2' >"$work/truncated.policy"
printf 'tetrisbench-policy 1\nname bad\nfeatures bcts\nweights 1 2 x 4 5 6 7 8\nend\n' >"$work/malformed.policy"
printf 'garbage\n' >"$work/garbage.policy"
mkdir "$work/adir"

expect_usage_error "unknown option" play --bogus 1
expect_usage_error "unknown subcommand" fly
expect_usage_error "unknown policy name" play --policy nosuchpolicy
expect_usage_error "malformed weight file" play --policy "$work/malformed.policy"
expect_usage_error "garbage weight file" play --policy "$work/garbage.policy"
expect_usage_error "truncated weight file" play --policy "$work/truncated.policy"
expect_usage_error "weight count mismatch" play --policy "$work/short.policy"
expect_usage_error "board too narrow" play --board 3x10
expect_usage_error "board too wide" play --board 17x10
expect_usage_error "board too tall" play --board 10x29
expect_usage_error "board malformed" play --board 10by10
expect_usage_error "zero games" play --games 0
expect_usage_error "negative games" play --games -5
expect_usage_error "non-numeric games" play --games many
expect_usage_error "unreadable policy path" play --policy "$work/missing/x.policy"
expect_usage_error "policy path is a folder" play --policy "$work/adir"
expect_usage_error "lookahead out of range" play --lookahead 2
expect_usage_error "unknown generator" play --generator tetris99
expect_usage_error "unknown overflow" play --overflow maybe
expect_usage_error "unknown format" play --format xml
expect_usage_error "negative cap" play --max-pieces -1
expect_usage_error "unknown optimizer" optimize --optimizer sgd
expect_usage_error "unknown objective" optimize --objective banana
expect_usage_error "dimension zero" optimize --dim 0
expect_usage_error "bad optimizer options" optimize --options '{"lambdaa": 3}'
expect_usage_error "compare without a config" compare
expect_usage_error "compare with a missing config" compare "$work/missing.toml"
printf 'name = "x"\n[budget]\npieces = 10\n[[optimizer]]\noptimizer = "ce"\ncolour = 1\n' >"$work/bad.toml"
expect_usage_error "compare config with an unknown key" compare "$work/bad.toml"
expect_usage_error "resume of a folder without a config" compare --resume "$work/adir"

# --out into a missing folder fails before the run.
"$bin" play --games 1 --out "$work/missing/r.json" >/dev/null 2>&1
[ $? -eq 2 ] || fail "--out into a missing folder should exit 2"

# Determinism: identical reports (timing fields aside) for 1 and 2 threads, json and csv.
common=(play --policy bcts --board 10x10 --games 24 --seed 11 --max-pieces 4000)
strip() { grep -vE '"(seconds|pieces_per_second|threads|git)"' "$1"; }
"$bin" "${common[@]}" --threads 1 --format json --out "$work/t1.json" || fail "json run, 1 thread"
"$bin" "${common[@]}" --threads 2 --format json --out "$work/t2.json" || fail "json run, 2 threads"
diff <(strip "$work/t1.json") <(strip "$work/t2.json") >/dev/null || fail "json differs between 1 and 2 threads"
"$bin" "${common[@]}" --threads 1 --format csv >"$work/t1.csv" || fail "csv run"
"$bin" "${common[@]}" --threads 2 --format csv >"$work/t2.csv" || fail "csv run"
cmp -s "$work/t1.csv" "$work/t2.csv" || fail "csv differs between 1 and 2 threads"
[ "$(wc -l <"$work/t1.csv")" -eq 25 ] || fail "csv should have a header and 24 rows"
grep -q '"capped_games"' "$work/t1.json" || fail "json summary lacks capped_games"
grep -q '"ci95"' "$work/t1.json" || fail "json summary lacks ci95"
echo "ok: reports identical for 1 and 2 threads"

# Every kernel gives the same report (timing fields and the kernel's name aside).
for k in $("$bin" info | awk '$2 == "available" {print $1}'); do
  [ "$k" = reference ] && continue  # 30x slower; the signature test covers it
  "$bin" "${common[@]}" --threads 2 --kernel "$k" --format json --out "$work/k.json" || fail "kernel $k run"
  diff <(strip "$work/t1.json" | grep -v '"kernel"') <(strip "$work/k.json" | grep -v '"kernel"') >/dev/null ||
    fail "json with kernel $k differs"
done
echo "ok: reports identical for every kernel"
expect_usage_error "unknown kernel" play --kernel avx9000

# --first-game replays one game of a run exactly.
"$bin" play --policy bcts --board 10x10 --games 1 --first-game 5 --seed 11 --max-pieces 4000 --format csv >"$work/g5.csv"
[ "$(tail -n 1 "$work/g5.csv")" = "$(sed -n 7p "$work/t1.csv")" ] || fail "--first-game 5 does not replay game 5"
echo "ok: --first-game replays a game"

# One game: no standard deviation and no interval (null in JSON, said in the table), never 0.
"$bin" play --policy bcts --board 10x10 --games 1 --max-pieces 300 --format json --out "$work/one.json" ||
  fail "one-game json run"
/usr/bin/python3 - "$work/one.json" <<'PY' || fail "one game: stddev_lines or ci95 is not null"
import json, sys
s = json.load(open(sys.argv[1]))["summary"]
assert s["games"] == 1 and s["stddev_lines"] is None and s["ci95"] == [None, None], s
PY
"$bin" play --policy bcts --board 10x10 --games 1 --max-pieces 300 | grep -q "one game: no interval" ||
  fail "one game: the table does not say there is no interval"
echo "ok: one game has no deviation or interval"

# --show prints a board of W columns.
"$bin" play --games 2 --board 6x8 --policy dellacherie --show >"$work/show.txt" || fail "--show run"
[ "$(grep -cE '^[#.]{6}$' "$work/show.txt")" -eq 8 ] || fail "--show did not print an 8-row, 6-wide board"

# Rule sets (docs/rules.md "Rule sets"): presets, and flags that conflict with them.
expect_usage_error "unknown rule set" play --rules tetris99
expect_usage_error "lee fixes the board" play --rules lee --board 10x20
expect_usage_error "lee fixes lookahead 1" play --rules lee --lookahead 0
expect_usage_error "guideline fixes bag7" play --rules guideline --generator uniform
expect_usage_error "guideline fixes its game-over rule" play --rules guideline --overflow strict
expect_usage_error "research has no lock-out" play --overflow lock-out
expect_usage_error "record with tie noise" play --record "$work/x.replay" --tie-noise 0.1
"$bin" play --rules lee --board 10x22 --generator bag7 --lookahead 1 --games 1 --max-pieces 50 --format json \
  --out "$work/lee.json" || fail "lee with matching flags"
grep -q '"name": "lee"' "$work/lee.json" || fail "json rules block does not name lee"
grep -q '"hidden_rows": 2' "$work/lee.json" || fail "json rules block lacks hidden_rows"
"$bin" play --rules guideline --policy bcts --games 2 --max-pieces 300 --lookahead 1 --format csv >"$work/gl.csv" ||
  fail "guideline run"
[ "$(wc -l <"$work/gl.csv")" -eq 3 ] || fail "guideline csv should have 2 rows"
echo "ok: rule sets"

# Article 4 golden game: lee's first 200 placements under --rules lee (seed 1, game 0).
golden=$(dirname "$0")/data/lee-seed1-200.replay
"$bin" play --rules lee --policy lee --games 1 --seed 1 --max-pieces 200 --record "$work/lee.replay" >/dev/null ||
  fail "lee record"
cmp -s "$golden" "$work/lee.replay" || fail "lee's first 200 placements differ from $golden"
"$bin" replay "$golden" --frames none >/dev/null || fail "the lee golden replay does not reproduce"
echo "ok: lee golden game"

# Replays: record, replay (same final state), corrupt and tampered files.
"$bin" play --rules guideline --policy dellacherie --games 3 --show-game 2 --seed 5 --max-pieces 120 --show \
  --record "$work/g.replay" >"$work/g.txt" || fail "guideline record"
grep -q '^game 2$' "$work/g.replay" || fail "--record did not record --show-game 2"
grep -q '^i ' "$work/g.replay" || fail "a guideline replay holds input strings"
"$bin" replay "$work/g.replay" --frames last --png "$work/png" --gif "$work/g.gif" >"$work/r.txt" ||
  fail "replay of a fresh recording"
grep -q 'reproduces' "$work/r.txt" || fail "replay did not say it reproduces"
# The last text frame shows the final board --show printed (rows of 10 cells, any piece letters).
diff <(grep -E '^[#.]{10}$' "$work/g.txt" | tr -c '.\n' '#') \
  <(grep -E '^[.IOTSZJL]{10}$' "$work/r.txt" | tr -c '.\n' '#') >/dev/null || fail "replayed final board differs"
[ -s "$work/png/frame-00120.png" ] || fail "--png wrote no frame"
[ "$(head -c 6 "$work/g.gif")" = "GIF89a" ] || fail "--gif wrote no GIF"
head -n 9 "$work/g.replay" >"$work/cut.replay"
"$bin" replay "$work/cut.replay" --gif "$work/cut.gif" >"$work/stdout" 2>"$work/stderr"
[ $? -eq 2 ] || fail "truncated replay should exit 2"
[ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "truncated replay: stderr is not one line"
[ -e "$work/cut.gif" ] && fail "truncated replay wrote a GIF"
[ -s "$work/stdout" ] && fail "truncated replay wrote to stdout"
sed 's/^board 10x22/board 10x2x/' "$work/g.replay" >"$work/bad.replay"
"$bin" replay "$work/bad.replay" >/dev/null 2>&1
[ $? -eq 2 ] || fail "corrupt replay should exit 2"
awk 'NR == 8 { $3 = ($3 == "O000") ? "O080" : "O000" } { print }' "$work/g.replay" >"$work/tampered.replay"
"$bin" replay "$work/tampered.replay" --gif "$work/t.gif" >/dev/null 2>"$work/stderr"
[ $? -eq 1 ] || fail "tampered replay should exit 1"
grep -q 'move 1 ' "$work/stderr" || fail "tampered replay does not name move 1: $(cat "$work/stderr")"
[ -e "$work/t.gif" ] && fail "tampered replay wrote a GIF"
echo "ok: replays"

if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all CLI checks passed"
