#!/usr/bin/env bash
# Instructions of the growing-reply decode in this build beside a build of
# an older commit (by default the one before issue 18), on the same input
# and the same machine, and their ratio (issue 18 item 2: at least 3x
# fewer at 20,000 characters).
#
#   bench/compare-growing-reply.sh BUILDDIR [COMMIT]
#
# BUILDDIR is this tree's configured build (akc-bench-growing-reply is
# built in it). The older commit is checked out in a temporary worktree,
# only its libakc and this bench's driver are built there (with the
# driver's sources copied in), and the worktree is removed at the end,
# whatever happens. Fails when either build or either run fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "${1:?usage: $0 BUILDDIR [COMMIT]}" && pwd)
commit=${2:-48bbc39}
old=$(mktemp -d "${TMPDIR:-/tmp}/akc-growing-before-XXXXXX")

cleanup () {
  git -C "$top" worktree remove --force "$old/tree" 2>/dev/null || true
  rm -rf "$old"
}
trap cleanup EXIT

ninja -C "$builddir" bench/akc-bench-growing-reply

git -C "$top" worktree add --detach "$old/tree" "$commit" >/dev/null
cp "$top"/bench/akc-bench-growing-reply.c "$top"/bench/akc-bench-turn-input.h \
   "$top"/bench/akc-bench-callgrind.c "$top"/bench/akc-bench-callgrind.h "$old/tree/bench/"
cat >> "$old/tree/bench/meson.build" <<MESON
executable('akc-bench-growing-reply',
  'akc-bench-growing-reply.c', 'akc-bench-callgrind.c',
  dependencies: [libakc_dep],
  include_directories: config_inc,
  c_args: ['-DHAVE_VALGRIND_CALLGRIND_H'],
)
MESON
buildtype=$(meson introspect --buildoptions "$builddir" |
            /usr/bin/python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))')
meson setup "$old/build" "$old/tree" -Dbuildtype="$buildtype" -Dintrospection=false -Dtests=false >/dev/null
ninja -C "$old/build" bench/akc-bench-growing-reply

echo "before: $(git -C "$top" log -1 --format='%h %s' "$commit" | cut -c1-100)"
"$builddir/bench/akc-bench-growing-reply" --before "$old/build/bench/akc-bench-growing-reply"
