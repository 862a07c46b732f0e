#!/usr/bin/python3
# test-cli-ask.py: `akc decode ask-events|ask-request|content`, run without
# a shell on the reference vectors (TAP). (`akc decode component` resolves
# frames against the catalog and is tested with it.)
#
# SPDX-License-Identifier: MIT
#
#   test-cli-ask.py PATH-TO-AKC
#
# Inputs come from $AKC_FIXTURES_DIR/protocol/*.json.

import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from tap import check, finish  # noqa: E402

AKC = sys.argv[1]
FIXTURES = os.environ["AKC_FIXTURES_DIR"]
ENV = dict(os.environ, LC_ALL="C.UTF-8", LANGUAGE="")


def expand(v):
    """The generators of fixtures/protocol/README.md §2."""
    if isinstance(v, list):
        return [expand(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "$repeat" in v:
        return expand(v["$repeat"]) * v["count"]
    if "$concat" in v:
        return "".join(expand(p) for p in v["$concat"])
    if "$nest" in v:
        spec = v["$nest"]
        value = expand(spec["leaf"])
        for _ in range(spec["depth"]):
            value = {spec["key"]: value}
        return value
    if "$array" in v:
        spec = v["$array"]
        return [expand(json.loads(json.dumps(spec["item"]).replace("{i}", str(i)))) for i in range(spec["count"])]
    return {k: expand(x) for k, x in v.items()}


def cases(file, op):
    with open(os.path.join(FIXTURES, "protocol", file), encoding="utf-8") as f:
        return [c for c in json.load(f) if c["op"] == op]


def wire(case):
    value = expand(case["input"])
    if case.get("inputKind") == "text":
        return value.encode("utf-8")
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def decode(kind, data):
    r = subprocess.run([AKC, "decode", kind], input=data, capture_output=True, env=ENV, timeout=60)
    return r.returncode, r.stdout.decode("utf-8")


# ask-events: exactly {"events":[…],"rest":"…","discardedPartial":…}, one call
for case in cases("ask-ndjson-streams.json", "decodeAskEvents"):
    rc, out = decode("ask-events", wire(case))
    result = json.loads(out)
    expect = expand(case["expect"])
    ok = rc == 0 and out.startswith('{"events":[') and list(result) == ["events", "rest", "discardedPartial"]
    if "events" in expect:
        ok = ok and result["events"] == expect["events"]
    if "eventCount" in expect:
        ok = ok and len(result["events"]) == expect["eventCount"]
    if "eventsAll" in expect:
        ok = ok and all(e == expect["eventsAll"] for e in result["events"])
    for member in ("rest", "discardedPartial"):
        if member in expect:
            ok = ok and result[member] == expect[member]
    check(f"ask-events: {case['name']}", ok, out[:2000])

# ask-request: {"ok":true,"request":…} or {"ok":false}
for case in cases("backend.json", "AskBackendRequest"):
    rc, out = decode("ask-request", wire(case))
    result = json.loads(out)
    expect = expand(case["expect"])
    ok = result["ok"] == expect["ok"] and rc == (0 if expect["ok"] else 1)
    if expect["ok"] and "value" in expect:
        ok = ok and result["request"] == expect["value"]
    if not expect["ok"]:
        ok = ok and result == {"ok": False}
    check(f"ask-request: {case['name']}", ok, out)

# content: {"ok":true,"parts":[…],"complete":…} or the diagnostic
for case in cases("content-records.json", "decodeAssistantContent"):
    rc, out = decode("content", wire(case))
    result = json.loads(out)
    expect = expand(case["expect"])
    ok = result["ok"] == expect["ok"] and rc == (0 if expect["ok"] else 1)
    if expect["ok"]:
        ok = ok and list(result) == ["ok", "parts", "complete"]
        if "parts" in expect:
            ok = ok and result["parts"] == expect["parts"]
        if "partCount" in expect:
            ok = ok and len(result["parts"]) == expect["partCount"]
        if "complete" in expect:
            ok = ok and result["complete"] == expect["complete"]
    else:
        ok = ok and result["diagnostic"] == {"code": expect["code"], "message": expect["message"], "retryable": False}
    check(f"content: {case['name']}", ok, out[:2000])

sys.exit(finish())
