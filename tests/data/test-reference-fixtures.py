#!/usr/bin/python3
"""The in-tree reference vectors are byte-identical copies of the shared ones.

tests/fixtures/reference/ holds copies of the reference implementation's test
vectors, so a clone of this repository alone runs every suite.  When the
shared folder next to the project root exists (../shared/fixtures), every file
in either tree must be in the other with the same bytes.  Without it there is
nothing to compare and the test is skipped.

Usage: test-reference-fixtures.py SOURCE_ROOT
"""

import hashlib
import os
import sys


def tree(root):
    files = {}
    for folder, _dirs, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, 'rb') as f:
                files[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    return files


def main():
    top = sys.argv[1]
    ours_root = os.path.join(top, 'tests', 'fixtures', 'reference')
    shared_root = os.path.normpath(os.path.join(top, '..', 'shared', 'fixtures'))
    ours = tree(ours_root)
    if not os.path.isdir(shared_root):
        print('1..0 # SKIP no ../shared/fixtures to compare with')
        return 0
    shared = tree(shared_root)
    names = sorted(set(ours) | set(shared))
    print('1..%d' % len(names))
    failed = 0
    for i, name in enumerate(names, 1):
        if name not in ours:
            print('not ok %d - %s # missing from tests/fixtures/reference' % (i, name))
            failed += 1
        elif name not in shared:
            print('not ok %d - %s # not in ../shared/fixtures' % (i, name))
            failed += 1
        elif ours[name] != shared[name]:
            print('not ok %d - %s # differs from ../shared/fixtures' % (i, name))
            failed += 1
        else:
            print('ok %d - %s' % (i, name))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
