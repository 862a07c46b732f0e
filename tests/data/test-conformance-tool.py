#!/usr/bin/python3
"""build-aux/conformance holds a row only when its subtests ran and passed,
and --check fails on a matrix that is not up to date (TAP)."""

import json
import os
import subprocess
import sys
import tempfile

tool = sys.argv[1]
results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


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
    check(r.returncode == 0, "every subtest passed: the rows hold")
    text = open(out).read()
    check("| ✓ | §1 | one |" in text and "| open | §3 | three | not yet: later |" in text, "the matrix shows held and open rows")
    r, _ = run(tmp, "ok 1 /a/one\nok 2 - the second (got 2)\n1..2\n", ["--check"])
    check(r.returncode == 0, "--check accepts an up-to-date matrix")
    r, _ = run(tmp, "ok 1 /a/one\nnot ok 2 - the second\n1..2\n", ["--check"])
    check(r.returncode == 1 and "“r2” does not hold" in r.stderr and "not up to date" in r.stderr,
          "a failing subtest fails its row, and the matrix is out of date")
    r, _ = run(tmp, "ok 1 /a/one\n1..1\n")
    check(r.returncode == 1 and "no subtest “the second” ran" in r.stderr, "a subtest that did not run fails its row")
    r, _ = run(tmp, "ok 1 /a/one\nok 2 the second # SKIP no display\n1..2\n")
    check(r.returncode == 1, "a skipped subtest proves nothing")

print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
