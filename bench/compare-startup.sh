#!/usr/bin/env bash
# Start-up of this build beside a build of an older commit (by default the
# one before issue 18), on the same machine in the same minutes, with the
# cairo renderer: the median time to the first frame, the CPU until then
# and the idle RSS of each, from ROUNDS alternating runs of
# akc-bench-startup (5 starts each), and the instructions from exec to the
# first frame under callgrind; then whether each is lower here (issue 18
# item 6: both go down).
#
#   dbus-run-session -- xvfb-run -a bench/compare-startup.sh BUILDDIR [COMMIT] [ROUNDS]
#
# BUILDDIR is this tree's configured build (akc-bench-startup is built in
# it). The older commit is checked out in a temporary worktree, where its
# application and this bench (its sources copied in) are built, and the
# worktree is removed at the end, whatever happens. Fails when either
# build or any run fails.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "${1:?usage: $0 BUILDDIR [COMMIT] [ROUNDS]}" && pwd)
commit=${2:-48bbc39}
rounds=${3:-3}
old=$(mktemp -d "${TMPDIR:-/tmp}/akc-startup-before-XXXXXX")

cleanup () {
  git -C "$top" worktree remove --force "$old/tree" 2>/dev/null || true
  rm -rf "$old"
}
trap cleanup EXIT

ninja -C "$builddir" bench/akc-bench-startup data/gschemas.compiled

git -C "$top" worktree add --detach "$old/tree" "$commit" >/dev/null
cp "$top"/bench/akc-bench-startup.c "$top"/bench/akc-bench-util.c "$top"/bench/akc-bench-util.h \
   "$top"/bench/akc-bench-callgrind.c "$top"/bench/akc-bench-callgrind.h "$old/tree/bench/"
cat >> "$old/tree/bench/meson.build" <<'MESON'
compare_callgrind = static_library('compare-callgrind', 'akc-bench-callgrind.c',
  dependencies: [glib_dep],
  include_directories: config_inc,
  c_args: ['-DHAVE_VALGRIND_CALLGRIND_H'],
)
compare_util = static_library('compare-util', 'akc-bench-util.c',
  dependencies: [app_static_dep],
  include_directories: config_inc,
  link_with: compare_callgrind,
)
executable('akc-bench-startup', 'akc-bench-startup.c',
  dependencies: [app_static_dep],
  link_whole: app_static,
  link_with: [compare_callgrind, compare_util],
  include_directories: config_inc,
  c_args: ['-DBUILD_SCHEMA_DIR="@0@"'.format(meson.project_build_root() / 'data')],
)
MESON
buildtype=$(meson introspect --buildoptions "$builddir" |
            /usr/bin/python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "buildtype"))')
meson setup "$old/build" "$old/tree" -Dbuildtype="$buildtype" -Dintrospection=false >/dev/null
ninja -C "$old/build" bench/akc-bench-startup data/gschemas.compiled >/dev/null

export GSK_RENDERER=cairo

# One run of a build's bench: "FRAME_MS CPU_MS RSS_MIB".
run () {
  "$1/bench/akc-bench-startup" --no-callgrind |
    awk '/spawn to first frame/ { print $5, $10, $14; found = 1 } END { exit !found }'
}

# Its instructions from exec to the first frame, in M.
instructions () {
  "$1/bench/akc-bench-startup" |
    awk '/instructions from exec/ { print $(NF - 1); found = 1 } END { exit !found }'
}

: > "$old/before"
: > "$old/after"
for round in $(seq "$rounds"); do
  run "$old/build" >> "$old/before"
  run "$builddir" >> "$old/after"
done
before_ins=$(instructions "$old/build")
after_ins=$(instructions "$builddir")

echo "before: $(git -C "$top" log -1 --format='%h %s' "$commit" | cut -c1-100)"
echo "after:  $(git -C "$top" log -1 --format='%h %s' HEAD | cut -c1-100)"
/usr/bin/python3 - "$old/before" "$old/after" "$before_ins" "$after_ins" <<'PY'
import statistics, sys

def load(path):
    rows = [list(map(float, line.split())) for line in open(path) if line.strip()]
    return [statistics.median(column) for column in zip(*rows)], rows

before, before_rows = load(sys.argv[1])
after, after_rows = load(sys.argv[2])
names = [("first frame", "ms"), ("CPU until then", "ms"), ("idle RSS", "MiB")]
print(f"cairo renderer, {len(before_rows)} alternating runs of 5 starts each (medians of the runs' medians):")
met = True
for i, (name, unit) in enumerate(names):
    lower = after[i] < before[i]
    met = met and (lower if i != 1 else True)
    runs = ", ".join(f"{row[i]:g}" for row in after_rows) + " against " + ", ".join(f"{row[i]:g}" for row in before_rows)
    print(f"  {name:15} {after[i]:8.1f} {unit:3} against {before[i]:8.1f} {unit:3}  lower: {'yes' if lower else 'no'}   ({runs})")
b, a = float(sys.argv[3]), float(sys.argv[4])
print(f"  instructions from exec to the first frame (callgrind) {a:.1f} M against {b:.1f} M  lower: {'yes' if a < b else 'no'}")
met = met and a < b
print(f"target (issue 18 item 6: first frame and idle RSS lower): {'met' if met else 'NOT MET'}")
PY
