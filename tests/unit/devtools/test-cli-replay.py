#!/usr/bin/python3
# test-cli-replay.py: `akc replay` (application.md §10.2) without a shell (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-replay.py PATH-TO-AKC FIXTURES-DIR
#
# FIXTURES-DIR holds one recorded fixture per reference application
# (tests/fixtures/replay/ID.json, written by `akc replay --record`, see its
# README). Each must be reproduced exactly by its definition; a fresh
# recording must be too; a tampered one must not.

import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
FIXTURES = sys.argv[2]
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")

# The inputs each committed fixture was recorded with (the README says so too).
INPUTS = {
    "hello-world": ["hello", "/start", "/name Ada"],
    "support": ["/support", "My printer is on fire"],
    "onboarding": ["/onboarding", "/recommend"],
    "operations": ["/operations"],
    "rag": ["How do I reset my password?"],
}


def akc(*args):
    return subprocess.run([AKC, "replay", *args], capture_output=True, env=ENV, timeout=60)


def show(result):
    return f"exit {result.returncode}\nstdout: {result.stdout.decode(errors='replace')}\nstderr: {result.stderr.decode(errors='replace')}"


with tempfile.TemporaryDirectory() as tmp:
    for demo, inputs in INPUTS.items():
        committed = os.path.join(FIXTURES, demo + ".json")
        with open(committed, encoding="utf-8") as f:
            fixture = json.load(f)
        check(f"{demo}: the committed fixture has a turn per input",
              len(fixture["cassette"]["entries"]) == len(inputs), fixture["cassette"]["entries"])
        # The grounded-answers definition has no conversation, so no routes
        # and no traces; every other one traces each turn.
        check(f"{demo}: the committed fixture traces every turn",
              len(fixture["traces"]) == (0 if demo == "rag" else len(inputs)), fixture["traces"])

        r = akc(committed, "--definition", demo)
        check(f"{demo}: the definition reproduces the committed fixture", r.returncode == 0, show(r))
        check(f"{demo}: the transcript shows every input",
              all(("› " + i).encode() in r.stdout for i in inputs), show(r))

        fresh = os.path.join(tmp, demo + ".json")
        r = akc("--record", fresh, "--definition", demo, *inputs)
        check(f"{demo}: records", r.returncode == 0 and os.path.exists(fresh), show(r))
        r = akc(fresh, "--definition", demo)
        check(f"{demo}: reproduces its fresh recording", r.returncode == 0, show(r))

        # Played without a definition: the recording itself, as JSON lines.
        r = akc(fresh, "--json")
        lines = [json.loads(line) for line in r.stdout.decode().splitlines()]
        turns = [line for line in lines if line["type"] == "turn"]
        traces = [line for line in lines if line["type"] == "trace"]
        with open(fresh, encoding="utf-8") as f:
            recorded = json.load(f)
        check(f"{demo}: --json plays every recorded turn and trace",
              r.returncode == 0
              and [t["chunks"] for t in turns] == [e["chunks"] for e in recorded["cassette"]["entries"]]
              and [t["trace"] for t in traces] == recorded["traces"],
              show(r))

    # A recording the definition does not reproduce: a changed reply of a
    # route (turn 1, "/start"; turn 0 is the model's, and the recording
    # stands in for the model), a missing trace. Both are reported and fail.
    with open(os.path.join(FIXTURES, "hello-world.json"), encoding="utf-8") as f:
        fixture = json.load(f)
    entry = fixture["cassette"]["entries"][1]
    chunk = next(c for c in entry["chunks"] if c["type"] == "text")
    chunk["content"] += " (edited)"
    fixture["traces"].pop()
    tampered = os.path.join(tmp, "tampered.json")
    with open(tampered, "w", encoding="utf-8") as f:
        json.dump(fixture, f, indent=2)
    r = akc(tampered, "--definition", "hello-world")
    err = r.stderr.decode()
    check("a changed reply and a lost trace are differences", r.returncode == 1
          and "(edited)" in err and "trace" in err and "2 differences" in err, show(r))

    # Redaction is configurable and reaches the cassette.
    redacted = os.path.join(tmp, "redacted.json")
    r = akc("--record", redacted, "--definition", "hello-world", "--redact", "content", "hello")
    with open(redacted, encoding="utf-8") as f:
        text = f.read()
    check("--redact names what is redacted, in the cassette too",
          r.returncode == 0 and '"content": "[REDACTED]"' in text and '"hello"' not in text, show(r))

    # Bad input: a clear error, never a crash.
    bad = os.path.join(tmp, "bad.json")
    with open(bad, "w", encoding="utf-8") as f:
        f.write('{"protocol":"agentskit.chat.replay","version":2}')
    r = akc(bad)
    check("an invalid fixture is refused with the reason",
          r.returncode == 1 and b"envelope is invalid" in r.stderr, show(r))
    r = akc(os.path.join(tmp, "missing.json"))
    check("a missing file is an error", r.returncode == 1 and r.stderr != b"", show(r))
    r = akc(committed, "--definition", "no-such-app")
    check("an unknown definition is a usage error",
          r.returncode == 2 and b"no-such-app" in r.stderr, show(r))
    r = akc("--record", redacted, "--definition", "hello-world")
    check("--record without inputs is a usage error", r.returncode == 2, show(r))
    r = akc("--help")
    check("--help lists the definitions", r.returncode == 0 and b"hello-world" in r.stdout, show(r))

sys.exit(finish())
