#!/usr/bin/python3
# test-cli-theme.py: `akc theme resolve` and `akc theme variables`
# (application.md §6), run without a shell (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-theme.py PATH-TO-AKC
#
# Every case of $AKC_FIXTURES_DIR/application/theme.json that has a theme
# goes through standard input: a resolved theme is printed canonically
# (schema order), a rejected one exits with status 1 and a message on
# standard error that does not echo it.

import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
FIXTURES = os.environ["AKC_FIXTURES_DIR"]
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")


def run(args, stdin=b""):
    return subprocess.run([AKC] + args, input=stdin, capture_output=True, env=ENV, timeout=60)


def canonical(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


with open(os.path.join(FIXTURES, "application", "theme.json"), encoding="utf-8") as f:
    cases = json.load(f)

for case in cases:
    inp, expect = case["input"], case["expect"]
    if "theme" not in inp:
        continue
    name = case["name"].replace("#", "_")
    sub = "resolve" if inp["op"] == "resolveTheme" else "variables"
    p = run(["theme", sub, "-"], canonical(inp["theme"]).encode())
    if inp["op"] == "domCssVariables":
        out = p.stdout.decode().rstrip("\n")
        check(f"{name} (akc theme variables)", p.returncode == 0 and out == canonical(expect["variables"]),
              f"status {p.returncode}\n{out}\n{p.stderr.decode()}")
    elif expect["ok"]:
        out = p.stdout.decode().rstrip("\n")
        check(f"{name} (akc theme resolve)", p.returncode == 0 and out == canonical(expect["theme"]),
              f"status {p.returncode}\n{out}\n{p.stderr.decode()}")
    else:
        err = p.stderr.decode()
        check(f"{name} (akc theme resolve)",
              p.returncode == 1 and p.stdout == b"" and "is not a valid theme: Chat theme is invalid: " in err,
              f"status {p.returncode}\n{err}")

# A file argument, and the usage errors.
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    f.write('{"fontFamily": "Inter", "secretToken": 1}')
    bad = f.name
try:
    p = run(["theme", "resolve", bad])
    err = p.stderr.decode()
    check("a rejected file names the file, not the unknown member",
          p.returncode == 1 and bad in err and "secretToken" not in err, err)
finally:
    os.unlink(bad)

p = run(["theme", "resolve", "/nonexistent/theme.json"])
check("a missing file is a usage error", p.returncode == 2 and p.stdout == b"", p.stderr.decode())
p = run(["theme", "paint", "-"])
check("an unknown subcommand is a usage error", p.returncode == 2 and b"Usage: akc theme" in p.stderr)
p = run(["theme", "--help"])
check("--help prints the usage", p.returncode == 0 and b"akc theme resolve FILE" in p.stdout)
p = run(["theme", "resolve", "-"], b"{\"colors\":")
check("text that is not JSON is rejected", p.returncode == 1 and b"not valid JSON" in p.stderr, p.stderr)

sys.exit(finish())
