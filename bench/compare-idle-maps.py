#!/usr/bin/python3
# compare-idle-maps.py: the resident memory of two sets of starts, mapping
# by mapping (each library's code, data and read-only parts, [heap], the
# anonymous mappings together), averaged over each set's starts.
#
# SPDX-License-Identifier: MIT
#
# Each file is a /proc/PID/smaps written by akc-bench-startup's child at
# its idle point (AKC_BENCH_IDLE_MAPS=PATH), for example two builds started
# alternately in one session bus and X display:
#
#   for i in 1 2 3; do
#     AKC_BENCH_IDLE_MAPS=/tmp/old-$i GSK_RENDERER=cairo old/_build/bench/akc-bench-startup --no-callgrind
#     AKC_BENCH_IDLE_MAPS=/tmp/new-$i GSK_RENDERER=cairo new/_build/bench/akc-bench-startup --no-callgrind
#   done
#   bench/compare-idle-maps.py /tmp/old-1,/tmp/old-2,/tmp/old-3 /tmp/new-1,/tmp/new-2,/tmp/new-3
#
# Prints each mapping whose average resident KiB differs by at least
# --min-kib (16), sorted by the difference, then each start's total.

import argparse
import collections
import re

MAPPING = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$")


def load(path):
    """Resident KiB by mapping name and kind (x code, w writable, r read-only)."""
    rss = collections.Counter()
    current = None
    with open(path) as f:
        for line in f:
            m = MAPPING.match(line)
            if m:
                name = m.group(4) or "[anon]"
                # One tree's build folder is the other's.
                name = re.sub(r"^.*/_build/", "_build/", name)
                name = re.sub(r"/tmp/[^/]*/", "/tmp/PROFILE/", name)
                perms = m.group(3)
                kind = "x" if "x" in perms else "w" if "w" in perms else "r"
                current = f"{name} {kind}"
            elif line.startswith("Rss:") and current is not None:
                rss[current] += int(line.split()[1])
    return rss


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("old", help="comma-separated smaps files of the first build")
    parser.add_argument("new", help="comma-separated smaps files of the second build")
    parser.add_argument("--min-kib", type=float, default=16)
    args = parser.parse_args()

    old = [load(p) for p in args.old.split(",")]
    new = [load(p) for p in args.new.split(",")]
    rows = []
    for key in set().union(*old, *new):
        a = [m[key] for m in old]
        b = [m[key] for m in new]
        delta = sum(b) / len(b) - sum(a) / len(a)
        if abs(delta) >= args.min_kib:
            rows.append((delta, key, a, b))
    rows.sort()
    print(f"{'KiB':>7}  {'first':<24} {'second':<24} mapping")
    for delta, key, a, b in rows:
        print(f"{delta:+7.0f}  {str(a):<24} {str(b):<24} {key}")
    print("total resident KiB: first", [sum(m.values()) for m in old], "second", [sum(m.values()) for m in new])


if __name__ == "__main__":
    main()
