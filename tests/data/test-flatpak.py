#!/usr/bin/python3
"""Lints the Flatpak manifest (TAP).

flatpak-builder parses it with fatal warnings, so an unknown key fails;
then the app id, command and the narrow sandbox are checked. Building it
needs a GNOME SDK from a Flatpak remote, which these machines cannot reach.
"""

import json
import os
import subprocess
import sys

manifest_path, app_id = sys.argv[1], sys.argv[2]
results = []


def check(ok, description):
    results.append(bool(ok))
    print(f"{'ok' if ok else 'not ok'} {len(results)} - {description}", flush=True)


env = dict(os.environ, G_DEBUG="fatal-warnings")
proc = subprocess.run(["flatpak-builder", "--show-manifest", manifest_path],
                      env=env, capture_output=True, text=True)
check(proc.returncode == 0, f"flatpak-builder --show-manifest accepts it with fatal warnings ({proc.stderr.strip()})")

manifest = json.load(open(manifest_path))
check(manifest.get("id") == app_id, f"app id is {app_id}")
check(manifest.get("command") == "agentskit-chat", "command is agentskit-chat")
check(manifest.get("runtime") == "org.gnome.Platform" and manifest.get("sdk") == "org.gnome.Sdk",
      "builds on the GNOME runtime")
check(int(manifest.get("runtime-version", "0")) >= 47, "on a current GNOME runtime")

args = manifest.get("finish-args", [])
for needed in ["--share=network", "--socket=wayland", "--socket=fallback-x11", "--device=dri"]:
    check(needed in args, f"grants {needed}")
check(not any(a.startswith("--filesystem") for a in args), "no filesystem access (files come through portals)")
check(not any(a.startswith("--talk-name") or a.startswith("--own-name") and a != f"--own-name={app_id}"
              for a in args), "no D-Bus names: secrets go through libsecret's Secret portal")
check("--socket=x11" not in args and "--device=all" not in args, "no broad X11 or device access")

module = manifest["modules"][-1]
check(module.get("buildsystem") == "meson" and module["sources"][0].get("path") == "..",
      "builds this meson project")

print(f"1..{len(results)}")
sys.exit(0 if all(results) else 1)
