#!/usr/bin/python3
"""build-aux/conformance holds a row only when its subtests ran and passed,
and --check fails on a matrix that is not up to date (TAP)."""

import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

tool = sys.argv[1]


def run(tmp, stdout_of_test, extra=()):
    spec = {"title": "T", "about": "A", "requirements": [
        {"id": "r1", "section": "§1", "text": "one", "tests": [["test-a", "/a/one"]]},
        {"id": "r2", "section": "§2", "text": "two", "tests": [["test-a", "the second"]]},
        {"id": "r3", "section": "§3", "text": "three", "gap": "later"},
    ]}
    req = os.path.join(tmp, "req.json")
    log = os.path.join(tmp, "testlog.json")
    out = os.path.join(tmp, "matrix.md")
    json.dump(spec, open(req, "w"))
    with open(log, "w") as f:
        f.write(json.dumps({"name": "proj:unit / test-a", "result": "OK", "stdout": stdout_of_test}) + "\n")
    r = subprocess.run([sys.executable, tool, *extra, req, out, log], capture_output=True, text=True)
    return r, out


with tempfile.TemporaryDirectory() as tmp:
    r, out = run(tmp, "ok 1 /a/one\nok 2 - the second (got 2)\n1..2\n")
    check("every subtest passed: the rows hold", r.returncode == 0)
    text = open(out).read()
    check("the matrix shows held and open rows", "| ✓ | §1 | one |" in text and "| open | §3 | three | not yet: later |" in text)
    r, _ = run(tmp, "ok 1 /a/one\nok 2 - the second (got 2)\n1..2\n", ["--check"])
    check("--check accepts an up-to-date matrix", r.returncode == 0)
    r, _ = run(tmp, "ok 1 /a/one\nnot ok 2 - the second\n1..2\n", ["--check"])
    check("a failing subtest fails its row, and the matrix is out of date",
          r.returncode == 1 and "“r2” does not hold" in r.stderr and "not up to date" in r.stderr)
    r, _ = run(tmp, "ok 1 /a/one\n1..1\n")
    check("a subtest that did not run fails its row", r.returncode == 1 and "no subtest “the second” ran" in r.stderr)
    r, _ = run(tmp, "ok 1 /a/one\nok 2 the second # SKIP no display\n1..2\n")
    check("a skipped subtest proves nothing", r.returncode == 1)

sys.exit(finish())
