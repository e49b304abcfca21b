# Shared by the hardening scripts (hardening_test.sh, hardening_json_test.sh,
# hardening_cli_test.sh): the failure count, section lines, folder snapshots and `check`, the
# one assertion of a refused input.  Source it after setting `bin` (the tetrisbench under test)
# and `work` (the script's temporary folder).
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
started=$(date +%s)
# Prints how long the sections before it took (the suite should stay under about a minute).
section() { echo "-- $* (at $(($(date +%s) - started)) s)"; }

# One snapshot of a folder: a checksum of each regular file, and every other path with its
# type (symlinks with their target, not followed).
snapshot() {
  (cd "$1" && find . -mindepth 1 \( -type f -exec sha256sum {} + \) -o -printf '%y %p %l\n' | LC_ALL=C sort)
}

# check WHY NEEDLE [--rc N] [--absent PATH]... [--keep DIR]... -- ARGS...
# Runs tetrisbench ARGS (under `timeout 20`) and asserts: exit code N (default 2, 124 =
# hung), exactly one line on stderr containing NEEDLE (grep -F), that line shorter than 400
# characters, nothing on stdout, every --absent PATH missing afterwards, every --keep DIR
# byte-identical.
check() {
  local why=$1 needle=$2
  shift 2
  local want=2 absent=() keep=()
  while [ "$1" != "--" ]; do
    case $1 in
      --rc) want=$2; shift 2 ;;
      --absent) absent+=("$2"); shift 2 ;;
      --keep) keep+=("$2"); shift 2 ;;
      *) echo "check: bad option $1"; exit 3 ;;
    esac
  done
  shift
  local k
  for k in "${!keep[@]}"; do snapshot "${keep[$k]}" >"$work/before.$k"; done
  timeout 20 "$bin" "$@" >"$work/stdout" 2>"$work/err"
  local rc=$? bad=() p
  if [ $rc -eq 124 ]; then bad+=("hung (killed after 20 s)")
  elif [ $rc -ne "$want" ]; then bad+=("exit $rc, not $want")
  fi
  [ "$(wc -l <"$work/err")" -eq 1 ] || bad+=("stderr is $(wc -l <"$work/err") lines, not one")
  grep -qF -- "$needle" "$work/err" || bad+=("stderr does not say '$needle'")
  [ "$(wc -c <"$work/err")" -lt 400 ] || bad+=("stderr is $(wc -c <"$work/err") characters long")
  [ -s "$work/stdout" ] && bad+=("wrote to stdout: $(head -c 100 "$work/stdout")")
  for p in "${absent[@]}"; do
    if [ -e "$p" ] || [ -L "$p" ]; then bad+=("left '$p' behind"); fi
  done
  for k in "${!keep[@]}"; do
    snapshot "${keep[$k]}" | cmp -s - "$work/before.$k" || bad+=("changed '${keep[$k]}'")
  done
  if [ ${#bad[@]} -gt 0 ]; then
    local reasons
    printf -v reasons '%s; ' "${bad[@]}"
    fail "$why: ${reasons}command: tetrisbench $(printf '%q ' "$@" | head -c 300); stderr: $(head -c 600 "$work/err" | tr '\n' '|')"
  else
    echo "ok: $why -> $(head -c 200 "$work/err")"
  fi
}
