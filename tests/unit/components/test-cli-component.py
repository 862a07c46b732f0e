#!/usr/bin/python3
# test-cli-component.py: `akc decode component` resolves a frame against the
# standard catalog (application.md §2.4), run without a shell (TAP).
#
# SPDX-License-Identifier: MIT
#
#   test-cli-component.py PATH-TO-AKC
#
# Inputs and expectations come from
# $AKC_FIXTURES_DIR/application/component-frames.json: every resolveFrame
# case against the standard manifest, and every decodeFrame failure (a
# decode diagnostic is returned unchanged).

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
    if isinstance(v, list):
        return [expand(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "$repeat" in v:
        return expand(v["$repeat"]) * v["times"]
    if "$concat" in v:
        return "".join(expand(p) for p in v["$concat"])
    if "$repeatItem" in v:
        return [expand(v["$repeatItem"]) for _ in range(v["times"])]
    return {k: expand(x) for k, x in v.items()}


def wire(frame):
    if isinstance(frame, str):
        return frame.encode("utf-8", "surrogatepass")
    return json.dumps(frame, separators=(",", ":"), ensure_ascii=False).encode()


def decoded(frame):
    """The decoded frame: the known members, in canonical order."""
    if isinstance(frame, str):
        frame = json.loads(frame)
    keys = ["protocol", "version", "type", "componentKey", "instanceId", "props", "fallback"]
    out = {k: frame[k] for k in keys}
    out["fallback"] = {k: frame["fallback"][k] for k in ["kind", "summary"]}
    return out


with open(os.path.join(FIXTURES, "application", "component-frames.json"), encoding="utf-8") as f:
    cases = [expand(c) for c in json.load(f)]

for case in cases:
    inp, expect = case["input"], case["expect"]
    if inp["op"] == "resolveFrame" and inp["manifest"] == "standard":
        pass
    elif inp["op"] == "decodeFrame" and not expect["ok"]:
        pass
    else:
        continue

    run = subprocess.run([AKC, "decode", "component"], input=wire(inp["frame"]),
                         capture_output=True, env=ENV, timeout=60)
    try:
        result = json.loads(run.stdout)
    except ValueError:
        check(case["name"], False, run.stdout + run.stderr)
        continue

    if expect["ok"]:
        wanted = {"ok": True, "frame": decoded(inp["frame"]), "props": expect["props"]}
        check(case["name"], run.returncode == 0 and result == wanted
              and list(result["frame"]) == list(wanted["frame"]), run.stdout)
    else:
        wanted = {"ok": False, "diagnostic": expect["diagnostic"]}
        check(case["name"], run.returncode == 1 and result == wanted, run.stdout + run.stderr)

# Text that is no frame at all, and a registered key with invalid props.
run = subprocess.run([AKC, "decode", "component"], input=b"plain text", capture_output=True, env=ENV, timeout=60)
check("text that is not JSON", run.returncode == 1 and json.loads(run.stdout)["diagnostic"]["message"]
      == "Component frame is not valid JSON.", run.stdout)
frame = {"protocol": "agentskit.chat.component", "version": 1, "type": "render", "componentKey": "table",
         "instanceId": "t", "props": {"caption": "C", "columns": [], "rows": []},
         "fallback": {"kind": "table", "summary": "S."}}
run = subprocess.run([AKC, "decode", "component"], input=wire(frame), capture_output=True, env=ENV, timeout=60)
check("invalid props", run.returncode == 1 and json.loads(run.stdout) == {
    "ok": False, "diagnostic": {"code": "COMPONENT_INVALID_PROPS", "message": "Component props are invalid.",
                                "retryable": False}}, run.stdout)

sys.exit(finish())
