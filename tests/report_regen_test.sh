#!/usr/bin/env bash
# Every committed comparison report regenerates byte for byte: scripts/report.py run on a copy
# of results/reports/<name>/ (its report.json and the runs' generations.csv) must give the same
# report.md and the same plots as are committed, so a report can never go stale.
# Usage: report_regen_test.sh SOURCE_DIR
set -u
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 checked=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

for json in "$src"/results/reports/*/report.json; do
  dir=$(dirname "$json")
  name=$(basename "$dir")
  copy="$work/$name"
  mkdir -p "$copy"
  cp "$json" "$copy/"
  (cd "$dir" && find runs -name generations.csv -exec cp --parents {} "$copy/" \;)
  if ! /usr/bin/python3 "$src/scripts/report.py" "$copy" >"$work/$name.log" 2>&1; then
    fail "$name: report.py failed: $(tail -n 1 "$work/$name.log")"
    continue
  fi
  cmp -s "$copy/report.md" "$dir/report.md" || { fail "$name: report.md differs from a fresh one"; diff "$dir/report.md" "$copy/report.md" | head -n 20; }
  for png in "$copy"/plots/*.png; do
    cmp -s "$png" "$dir/plots/$(basename "$png")" || fail "$name: plots/$(basename "$png") differs or is not committed"
  done
  for png in "$dir"/plots/*.png; do
    [ -e "$copy/plots/$(basename "$png")" ] || fail "$name: plots/$(basename "$png") is committed but no longer made"
  done
  checked=$((checked + 1))
done
[ "$checked" -ge 6 ] || fail "only $checked reports found under $src/results/reports"
if [ "$failures" -ne 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "ok: $checked committed reports regenerate byte for byte"
