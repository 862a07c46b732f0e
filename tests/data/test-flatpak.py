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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

manifest_path, app_id = sys.argv[1], sys.argv[2]


env = dict(os.environ, G_DEBUG="fatal-warnings")
proc = subprocess.run(["flatpak-builder", "--show-manifest", manifest_path],
                      env=env, capture_output=True, text=True)
check(f"flatpak-builder --show-manifest accepts it with fatal warnings ({proc.stderr.strip()})", proc.returncode == 0)

manifest = json.load(open(manifest_path))
check(f"app id is {app_id}", manifest.get("id") == app_id)
check("command is agentskit-chat", manifest.get("command") == "agentskit-chat")
check("builds on the GNOME runtime",
      manifest.get("runtime") == "org.gnome.Platform" and manifest.get("sdk") == "org.gnome.Sdk")
check("on a current GNOME runtime", int(manifest.get("runtime-version", "0")) >= 47)

args = manifest.get("finish-args", [])
for needed in ["--share=network", "--socket=wayland", "--socket=fallback-x11", "--device=dri"]:
    check(f"grants {needed}", needed in args)
check("no filesystem access (files come through portals)", not any(a.startswith("--filesystem") for a in args))
check("no D-Bus names: secrets go through libsecret's Secret portal", not any(a.startswith("--talk-name") or a.startswith("--own-name") and a != f"--own-name={app_id}"
              for a in args))
check("no broad X11 or device access", "--socket=x11" not in args and "--device=all" not in args)

module = manifest["modules"][-1]
check("builds this meson project",
      module.get("buildsystem") == "meson" and module["sources"][0].get("path") == "..")

sys.exit(finish())
