#!/usr/bin/python3
"""Writes a libFuzzer seed corpus from the reference fixtures.

    make-corpus.py OUTDIR FIXTURE.json[:op,op…] … [--max-bytes N] [--prefix HEX]…

Each text input of the named ops (every op when none is named) becomes one
seed file, as the exact wire bytes; value inputs are written as compact JSON.
Generators ($repeat, $concat, …) are expanded as the fixture README says.
The fixtures are read where they lie; only the build directory is written.

A seed longer than --max-bytes (4096) is cut to its first N bytes, at the
last line feed in the second half of them when there is one: the fixtures'
limit cases (inputs of up to 1.6 MB) keep their shape, and libFuzzer runs
at thousands of inputs a second instead of tens. With --prefix, every seed
is written once behind each prefix (for targets whose first bytes choose
how the rest is fed).
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


def cap(seed, limit):
    if len(seed) <= limit:
        return seed
    cut = seed.rfind(b"\n", limit // 2, limit)
    return seed[:cut + 1] if cut >= 0 else seed[:limit]


def main():
    given = sys.argv[1:]
    args = []
    limit = 4096
    prefixes = []
    while given:
        arg = given.pop(0)
        if arg == "--max-bytes":
            limit = int(given.pop(0))
        elif arg == "--prefix":
            prefixes.append(bytes.fromhex(given.pop(0)))
        elif arg.startswith("--"):
            sys.exit("make-corpus.py: unknown option " + arg)
        else:
            args.append(arg)
    out = args[0]
    os.makedirs(out, exist_ok=True)
    for spec in args[1:]:
        path, _, ops = spec.partition(":")
        wanted = set(ops.split(",")) if ops else None
        for case in json.load(open(path)):
            op = case.get("op") or (case.get("input") or {}).get("op")
            if wanted is not None and op not in wanted:
                continue
            for body in seeds(case):
                for prefix in prefixes or [b""]:
                    write(out, prefix + cap(body, limit))


def write(out, seed):
    name = hashlib.sha1(seed).hexdigest()
    with open(os.path.join(out, name), "wb") as f:
        f.write(seed)


main()
