#!/usr/bin/python3
"""The layers of libakc hold (#16 item 8, docs/layers.md), checked two ways (TAP).

    test-layers.py SOURCE_ROOT [BUILD_ROOT]

1. On the sources: every `#include` of every file of each folder of
   src/libakc names a header of its own layer or of a layer below it (the
   order of `libakc_layers` in src/libakc/meson.build), by its name alone;
   of the top folder only the version headers; and SQLite stays in store/:
   no other layer includes <sqlite3.h> or a header that does.
2. In the build (when BUILD_ROOT is given): a file compiled the way each
   layer's own objects are compiled finds a header of its own layer and
   does not find one of the layer above it, so an upward include breaks
   the build, whatever the script above says.
"""

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

top = sys.argv[1]
build = sys.argv[2] if len(sys.argv) > 2 else None
lib = os.path.join(top, "src", "libakc")

with open(os.path.join(lib, "meson.build"), encoding="utf-8") as f:
    text = f.read()
m = re.search(r"^libakc_layers = \[(.*?)^\]", text, re.S | re.M)
layers = re.findall(r"'([a-z]+)'", m.group(1)) if m else []
check(f"the layers are read from src/libakc/meson.build ({' → '.join(layers)})", len(layers) >= 5)

folders = sorted(d for d in os.listdir(lib) if os.path.isdir(os.path.join(lib, d)))
check("every folder of src/libakc is a layer, and every layer a folder",
      sorted(layers) == folders, f"folders: {folders}\nlayers: {layers}")

rank = {layer: i for i, layer in enumerate(layers)}
TOP_ALLOWED = {"akc-version-macros.h", "akc-version.h"}
owner = {}           # header name -> layer, or "" for the top folder
for name in os.listdir(lib):
    if name.endswith(".h"):
        owner[name] = ""
for layer in layers:
    folder = os.path.join(lib, layer)
    for name in os.listdir(folder):
        if name.endswith(".h"):
            owner[name] = layer
    with open(os.path.join(folder, "meson.build"), encoding="utf-8") as f:
        for generated in re.findall(r"mkenums_simple\('([^']+)'", f.read()):
            owner[generated + ".h"] = layer

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def includes(path):
    with open(path, encoding="utf-8") as f:
        return INCLUDE.findall(f.read())


# Which headers of libakc bring in <sqlite3.h>, directly or through others.
direct = {}
for name, layer in owner.items():
    path = os.path.join(lib, layer, name)
    if os.path.exists(path):
        direct[name] = {inc for _, inc in includes(path)}
sqlite = {name for name, incs in direct.items() if "sqlite3.h" in incs}
grew = True
while grew:
    more = {name for name, incs in direct.items() if incs & sqlite} - sqlite
    sqlite |= more
    grew = bool(more)

upward, by_path, top_headers, unknown, sql = [], [], [], [], []
checked = 0
for layer in layers:
    folder = os.path.join(lib, layer)
    for name in sorted(os.listdir(folder)):
        if not name.endswith((".c", ".h")):
            continue
        where = f"{layer}/{name}"
        for bracket, inc in includes(os.path.join(folder, name)):
            base = os.path.basename(inc)
            if layer != "store" and (base == "sqlite3.h" or base in sqlite):
                sql.append(f"{where}: {inc}")
            if bracket == "<" and base not in owner:
                continue
            checked += 1
            if base == "config.h":
                continue
            if "/" in inc:
                by_path.append(f"{where}: {inc}")
            target = owner.get(base)
            if target is None:
                unknown.append(f"{where}: {inc}")
            elif target == "":
                if base not in TOP_ALLOWED:
                    top_headers.append(f"{where}: {inc}")
            elif rank[target] > rank[layer]:
                upward.append(f"{where}: {inc} (of {target}/, above {layer}/)")

check(f"the {checked} includes of the layers' sources were read", checked > 100)
check("no layer includes a header of a layer above it", not upward, "\n".join(upward))
check("headers of libakc are included by name, not by a path around the include directories",
      not by_path, "\n".join(by_path))
check("of the top folder a layer includes only the version headers (not akc.h, not the json-glib bridge)",
      not top_headers, "\n".join(top_headers))
check("every quoted include is a header of libakc or config.h", not unknown, "\n".join(unknown))
check(f"SQLite stays in store/: no other layer includes <sqlite3.h> or one of the {len(sqlite)} headers that do",
      not sql, "\n".join(sql))

if build is not None:
    with open(os.path.join(build, "compile_commands.json"), encoding="utf-8") as f:
        commands = json.load(f)

    def command_of(layer):
        """The compile command of one object of @layer's own library."""
        marker = f"libakc-{layer}.a.p/"
        for entry in commands:
            if marker in entry["output"] and entry["file"].endswith(".c"):
                return entry
        return None

    def public_header(layer):
        folder = os.path.join(lib, layer)
        return sorted(n for n in os.listdir(folder) if n.endswith(".h") and not n.endswith("-private.h"))[0]

    def compiles(entry, header, scratch):
        source = os.path.join(scratch, "probe.c")
        with open(source, "w", encoding="utf-8") as f:
            f.write(f'#include "{header}"\n')
        argv = shlex.split(entry["command"])
        out = []
        skip = False
        for arg in argv:
            if skip:
                skip = False
                continue
            if arg in ("-o", "-c", "-MQ", "-MF"):
                skip = True
                continue
            if arg == "-MD":
                continue
            out.append(arg)
        out += ["-fsyntax-only", source]
        run = subprocess.run(out, cwd=entry["directory"], capture_output=True, text=True)
        return run.returncode == 0, run.stderr

    with tempfile.TemporaryDirectory() as scratch:
        for lower, upper in zip(layers, layers[1:]):
            entry = command_of(lower)
            if not check(f"{lower}/ has objects of its own library", entry is not None):
                continue
            own = public_header(lower)
            ok, err = compiles(entry, own, scratch)
            check(f"compiled as {lower}/ is, a file including {own} of {lower}/ builds", ok, err)
            above = public_header(upper)
            ok, err = compiles(entry, above, scratch)
            check(f"compiled as {lower}/ is, a file including {above} of {upper}/ does not build (not found)",
                  not ok and "No such file" in err, err)

sys.exit(finish())
