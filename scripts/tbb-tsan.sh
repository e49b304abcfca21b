#!/usr/bin/env bash
# Builds oneTBB instrumented for ThreadSanitizer and installs it into DEST (headers,
# libtbb.so, lib/cmake/TBB), for scripts/test.sh --tsan.  Does nothing if DEST already holds
# a build of the installed libtbb-dev's version.  About a minute on 2 cores.
#
#   scripts/tbb-tsan.sh DEST
#
# Why: Debian's libtbb.so is not instrumented, so TSan does not see the synchronization inside
# it (a task handed to a worker thread, the wait at the end of a parallel_for).  Every result a
# worker writes and the caller reads after the loop is then reported as a data race, in our
# code, where a suppression would also hide real races.  With an instrumented libtbb there is
# nothing to suppress.
#
# The source is Debian's own source package of the installed libtbb-dev (same version, same
# patches), fetched by apt-get from deb-src twins of the machine's Debian archive entries,
# with private list and cache folders under DEST.work: /etc/apt and apt's state are left alone.
set -euo pipefail
dest=${1:?usage: tbb-tsan.sh DEST}
case "$(basename "$dest")" in *tbb*) ;; *) echo "tbb-tsan: DEST must be a folder named *tbb* (it is emptied)" >&2; exit 2 ;; esac
dest=$(mkdir -p "$dest" && cd "$dest" && pwd)

read -r src_pkg src_ver < <(dpkg-query -W -f='${source:Package} ${source:Version}\n' libtbb-dev)
stamp="$src_pkg $src_ver tsan"
if [ -f "$dest/lib/cmake/TBB/TBBConfig.cmake" ] && [ "$(cat "$dest/.source" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi
echo "tbb-tsan: building $src_pkg $src_ver with -fsanitize=thread into $dest" >&2

work=$dest.work
rm -rf "$work" "$dest"
mkdir -p "$work"/apt/{parts,lists/partial,cache/archives/partial} "$work/src" "$dest"

# deb-src twins of the Debian archive stanzas (deb822, signed with Debian's archive keyring).
# Other repositories (vendor apt repos) are skipped: they publish no sources.
shopt -s nullglob
for f in /etc/apt/sources.list.d/*.sources; do
  awk 'BEGIN { RS = ""; ORS = "\n\n" }
       /debian-archive-keyring/ {
         n = split($0, line, "\n"); out = ""
         for (i = 1; i <= n; ++i) out = out (line[i] ~ /^Types:/ ? "Types: deb-src" : line[i]) "\n"
         printf "%s\n", out }' "$f"
done >"$work/apt/parts/debian-src.sources"
# One-line entries of the main sources.list, if the machine uses that format.
touch "$work/apt/sources.list"
[ -f /etc/apt/sources.list ] &&
  sed -n 's/^deb \(.*\)$/deb-src \1/p' /etc/apt/sources.list >"$work/apt/sources.list"
if [ ! -s "$work/apt/parts/debian-src.sources" ] && [ ! -s "$work/apt/sources.list" ]; then
  echo "tbb-tsan: no Debian archive entry found in /etc/apt" >&2
  exit 1
fi
apt=(apt-get -q -o "Dir::Etc::SourceList=$work/apt/sources.list" -o "Dir::Etc::SourceParts=$work/apt/parts"
     -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache" -o APT::Sandbox::User=root)
"${apt[@]}" update >&2
(cd "$work/src" && "${apt[@]}" source --download-only "$src_pkg=$src_ver" >&2 &&
  dpkg-source -x ./*.dsc tree >&2)

# oneTBB's own sanitizer option; no tests, examples or tbbmalloc (we link TBB::tbb only), no
# -Werror (TBB_STRICT) so a newer compiler's warnings do not stop the build.  -Wno-tsan: GCC
# warns ~50 times that TSan does not model atomic_thread_fence (one seq_cst fence in TBB's
# sleep/wake-up path); that could only add false reports, and none has been seen.
cmake -S "$work/src/tree" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DTBB_SANITIZE=thread -DTBB_TEST=OFF -DTBB_EXAMPLES=OFF -DTBBMALLOC_BUILD=OFF -DTBB_STRICT=OFF \
  -DCMAKE_CXX_FLAGS=-Wno-tsan -DCMAKE_INSTALL_PREFIX="$dest" >&2
cmake --build "$work/build" >&2
cmake --install "$work/build" >&2
echo "$stamp" >"$dest/.source"
rm -rf "$work"
