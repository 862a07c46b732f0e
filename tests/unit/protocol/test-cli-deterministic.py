#!/usr/bin/python3
# test-cli-deterministic.py: `akc knowledge hash|verify`, `akc normalize` and
# `akc decode site|knowledge|answer`, run without a shell (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-deterministic.py PATH-TO-AKC
#
# Inputs come from $AKC_FIXTURES_DIR/protocol/deterministic.json; the
# artifacts are written by this test into a temporary directory.

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

with open(os.path.join(FIXTURES, "protocol", "deterministic.json"), encoding="utf-8") as f:
    CASES = {case["name"]: case for case in json.load(f)}

FIXTURE_HASH = "sha256:d1b98e69dcb00985dc5fdad4a8475f926168e6485e85716758ad5e0f35cd4906"
STALE_HASH = "sha256:c48a310e9497d1588e408bf7eb72ca64c04f25431ef8d17cd351b1d3bab3a3e9"


def akc(*args, stdin=b""):
    return subprocess.run([AKC, *args], input=stdin, capture_output=True, env=ENV, timeout=60)


def case_input(name):
    value = CASES[name]["input"]
    assert "$" not in json.dumps(value), "generators are not expected in " + name
    return value


def write(directory, name, data):
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode())
    return path


def reversed_members(value):
    if isinstance(value, dict):
        return {k: reversed_members(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_members(v) for v in value]
    return value


def show(result):
    return f"exit {result.returncode}\nstdout: {result.stdout!r}\nstderr: {result.stderr!r}"


with tempfile.TemporaryDirectory(prefix="akc-cli-") as tmp:
    artifact = case_input("computeContentHash: fixture artifact")
    fixture = write(tmp, "fixture.json", artifact)

    # -- akc knowledge hash -------------------------------------------------
    r = akc("knowledge", "hash", fixture)
    check("hash of the fixture artifact", r.returncode == 0 and r.stdout == (FIXTURE_HASH + "\n").encode(), show(r))

    pretty = json.dumps(reversed_members(artifact), ensure_ascii=False, indent=2).encode()
    r = akc("knowledge", "hash", write(tmp, "pretty.json", pretty))
    check("hash ignores member order and white space", r.returncode == 0 and r.stdout == (FIXTURE_HASH + "\n").encode(), show(r))

    r = akc("knowledge", "hash", "-", stdin=pretty)
    check("hash reads standard input for -", r.returncode == 0 and r.stdout == (FIXTURE_HASH + "\n").encode(), show(r))

    r = akc("knowledge", "hash", write(tmp, "unhashed.json", case_input("computeContentHash: artifact without a contentHash member")))
    check("hash of an artifact without contentHash", r.returncode == 0 and r.stdout == (FIXTURE_HASH + "\n").encode(), show(r))

    r = akc("knowledge", "hash", write(tmp, "stale.json", case_input("computeContentHash: stale artifact")))
    check("hash of the stale artifact", r.returncode == 0 and r.stdout == (STALE_HASH + "\n").encode(), show(r))

    r = akc("knowledge", "hash", write(tmp, "invalid.json", {"protocol": "agentskit.chat.knowledge", "version": 1}))
    check("hash rejects an invalid artifact", r.returncode == 1 and r.stdout == b"" and r.stderr != b"", show(r))

    r = akc("knowledge", "hash", write(tmp, "broken.json", b"{\"protocol\":"))
    check("hash rejects text that is not JSON", r.returncode == 1 and r.stdout == b"", show(r))

    r = akc("knowledge", "hash")
    check("hash without FILE is a usage error", r.returncode == 2, show(r))
    r = akc("knowledge", "hash", fixture, fixture)
    check("hash with two files is a usage error", r.returncode == 2, show(r))
    r = akc("knowledge", "hash", os.path.join(tmp, "missing.json"))
    check("hash of a missing file is a usage error", r.returncode == 2 and r.stdout == b"", show(r))
    r = akc("knowledge", "sign", fixture)
    check("unknown knowledge subcommand is a usage error", r.returncode == 2, show(r))

    # -- akc knowledge verify -----------------------------------------------
    r = akc("knowledge", "verify", fixture, "--site", "agentskit-docs", "--hash", FIXTURE_HASH)
    ok = r.returncode == 0
    if ok:
        result = json.loads(r.stdout)
        ok = list(result) == ["ok", "value"] and result["ok"] is True and result["value"] == artifact
    check("verify the fixture artifact", ok, show(r))

    r = akc("knowledge", "verify", "--hash=" + FIXTURE_HASH, "--site=agentskit-docs", write(tmp, "pretty2.json", pretty))
    check("verify accepts --opt=value and options before FILE", r.returncode == 0, show(r))

    r = akc("knowledge", "verify", fixture, "--site", "agentskit-docs", "--hash", STALE_HASH)
    check("verify against another configured hash",
          r.returncode == 1 and r.stdout == b'{"ok":false,"diagnostic":{"code":"DETERMINISTIC_HASH_MISMATCH",'
          b'"message":"Deterministic artifact does not match the configured content hash.","retryable":false}}\n', show(r))

    tampered = json.loads(json.dumps(artifact))
    tampered["entries"][0]["answer"]["markdown"] = "Tampered."
    r = akc("knowledge", "verify", write(tmp, "tampered.json", tampered), "--site", "agentskit-docs", "--hash", FIXTURE_HASH)
    check("verify catches tampered content",
          r.returncode == 1 and json.loads(r.stdout)["diagnostic"]["message"] == "Deterministic artifact content does not match its SHA-256 hash.",
          show(r))

    r = akc("knowledge", "verify", fixture, "--site", "agentskit-docs", "--hash", FIXTURE_HASH.upper())
    check("verify rejects a malformed anchor",
          r.returncode == 1 and json.loads(r.stdout)["diagnostic"]["message"] == "Trusted deterministic artifact configuration is invalid.",
          show(r))

    r = akc("knowledge", "verify", fixture, "--hash", FIXTURE_HASH)
    check("verify without --site is a usage error", r.returncode == 2 and r.stdout == b"", show(r))
    r = akc("knowledge", "verify", fixture, "--site", "agentskit-docs", "--hash")
    check("verify with an option missing its value is a usage error", r.returncode == 2, show(r))
    r = akc("knowledge", "verify", fixture, "--site", "a", "--site", "b", "--hash", FIXTURE_HASH)
    check("verify with a repeated option is a usage error", r.returncode == 2, show(r))

    # -- akc normalize ------------------------------------------------------
    r = akc("normalize", "  ＩＮＳＴＡＬＬ\n CLI  ")
    check("normalize TEXT", r.returncode == 0 and r.stdout == b'"install cli"\n', show(r))
    r = akc("normalize", stdin="  ＩＮＳＴＡＬＬ\n CLI  \n".encode())
    check("normalize standard input", r.returncode == 0 and r.stdout == b'"install cli"\n', show(r))
    r = akc("normalize", 'AΣ "\\"\x01')
    check("normalize prints a canonical JSON string", r.returncode == 0 and r.stdout == b'"a\xcf\x82 \\"\\\\\\"\\u0001"\n', show(r))
    r = akc("normalize", "--", "--help")
    check("normalize -- TEXT", r.returncode == 0 and r.stdout == b'"--help"\n', show(r))
    r = akc("normalize", stdin=b"\xff")
    check("normalize rejects invalid UTF-8", r.returncode == 1 and r.stdout == b"", show(r))
    r = akc("normalize", "a", "b")
    check("normalize with two texts is a usage error", r.returncode == 2, show(r))

    # -- akc decode site / knowledge / answer -------------------------------
    site_case = CASES["site config version 2"]
    r = akc("decode", "site", write(tmp, "site2.json", case_input("site config version 2")))
    check("decode site rejects version 2",
          r.returncode == 1 and r.stdout == b'{"ok":false,"diagnostic":{"code":"DETERMINISTIC_UNSUPPORTED_VERSION",'
          b'"message":"Deterministic payload uses an unsupported version.","retryable":false}}\n', show(r))

    site_case = CASES["site config from text"]
    r = akc("decode", "site", stdin=site_case["input"].encode())
    ok = r.returncode == 0 and json.loads(r.stdout) == {"ok": True, "value": site_case["expect"]["value"]}
    check("decode site accepts the fixture configuration", ok, show(r))

    r = akc("decode", "site", stdin=b"{\"pad\":\"" + b"x" * 16384 + b"\"}")
    check("decode site limits the text", r.returncode == 1 and b"DETERMINISTIC_LIMIT_EXCEEDED" in r.stdout, show(r))

    r = akc("decode", "knowledge", fixture)
    check("decode knowledge", r.returncode == 0 and json.loads(r.stdout) == {"ok": True, "value": artifact}, show(r))

    answer = case_input("answer envelope fixture: miss")
    r = akc("decode", "answer", write(tmp, "answer.json", answer))
    check("decode answer", r.returncode == 0 and json.loads(r.stdout) == {"ok": True, "value": answer}, show(r))

    # -- akc knowledge resolve: every resolve vector of the application
    # fixtures whose artifact is the reference fixture --------------------
    with open(os.path.join(FIXTURES, "application", "deterministic.json"), encoding="utf-8") as f:
        app_cases = [c for c in json.load(f) if c["input"]["op"] == "resolve" and c["input"]["artifact"] == "fixture"]
    for case in app_cases:
        query = case["input"]["query"]
        if not isinstance(query, str):
            continue  # compressed over-length queries are covered by the C tests
        r = akc("knowledge", "resolve", fixture, "--", query, "--site", "agentskit-docs", "--hash", FIXTURE_HASH,
                "--now", case["input"]["now"])
        ok = r.returncode == 0 and json.loads(r.stdout) == case["expect"]["decision"]
        check("knowledge resolve: " + case["name"], ok, show(r))

    r = akc("knowledge", "resolve", fixture, "install cli", "--site", "agentskit-docs", "--hash", STALE_HASH,
            "--now", "2026-07-13T12:00:00Z")
    check("knowledge resolve: a hash mismatch is a corrupt escalation",
          r.returncode == 0 and json.loads(r.stdout)["reason"] == "corrupt"
          and b"does not match the configured content hash" in r.stderr, show(r))
    r = akc("knowledge", "resolve", fixture, "install cli", "--site", "agentskit-docs", "--hash", FIXTURE_HASH,
            "--now", "yesterday")
    check("knowledge resolve: a bad --now is a usage error", r.returncode == 2, show(r))
    r = akc("knowledge", "resolve", fixture, "--site", "agentskit-docs", "--hash", FIXTURE_HASH)
    check("knowledge resolve without a query is a usage error", r.returncode == 2, show(r))

sys.exit(finish())
