#!/usr/bin/python3
"""Writes a libFuzzer seed corpus from the reference fixtures.

    make-corpus.py OUTDIR FIXTURE.json[:op,op…] …

Each text input of the named ops (every op when none is named) becomes one
seed file, as the exact wire bytes; value inputs are written as compact JSON.
Generators ($repeat, $concat, …) are expanded as the fixture README says.
The fixtures are read where they lie; only the build directory is written.
"""

import hashlib
import json
import os
import sys


def expand(v):
    if isinstance(v, list):
        return [expand(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "$repeat" in v:
        return expand(v["$repeat"]) * v.get("count", v.get("times", 0))
    if "$concat" in v:
        return "".join(expand(p) for p in v["$concat"])
    if "$repeatItem" in v:
        return [expand(v["$repeatItem"]) for _ in range(v["times"])]
    if "$nest" in v:
        spec = v["$nest"]
        value = expand(spec["leaf"])
        for _ in range(spec["depth"]):
            value = {spec["key"]: value}
        return value
    if "$array" in v:
        spec = v["$array"]
        return [expand(json.loads(json.dumps(spec["item"]).replace("{i}", str(i)))) for i in range(spec["count"])]
    if "$hex" in v:
        return bytes.fromhex(v["$hex"])
    return {k: expand(x) for k, x in v.items()}


def seeds(case):
    value = expand(case.get("input"))
    if isinstance(value, str):
        yield value.encode("utf-8", "surrogatepass")
    elif isinstance(value, dict) and "chunks" in value:
        yield b"".join(c if isinstance(c, bytes) else c.encode() for c in value["chunks"])
    elif value is not None:
        yield json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for spec in sys.argv[2:]:
        path, _, ops = spec.partition(":")
        wanted = set(ops.split(",")) if ops else None
        for case in json.load(open(path)):
            op = case.get("op") or (case.get("input") or {}).get("op")
            if wanted is not None and op not in wanted:
                continue
            for seed in seeds(case):
                name = hashlib.sha1(seed).hexdigest()
                with open(os.path.join(out, name), "wb") as f:
                    f.write(seed)


main()
