#!/usr/bin/python3
"""Checks the translations (TAP).

Every source file with translatable strings is listed in po/POTFILES.in,
and every catalogue in po/LINGUAS translates every string of the current
template, with nothing fuzzy. The template is extracted afresh with the
same keywords as meson's glib gettext preset.
"""

import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

top = sys.argv[1]
po_dir = os.path.join(top, "po")


listed = {line.strip() for line in open(os.path.join(po_dir, "POTFILES.in"))
          if line.strip() and not line.startswith("#")}
marker = re.compile(r'\b(?:_|N_|C_|NC_)\s*\(\s*"|translatable="yes"')
unlisted = []
for sub in ("src", "ui"):
    for root, _dirs, files in os.walk(os.path.join(top, sub)):
        for name in files:
            if not name.endswith((".c", ".ui")):
                continue
            path = os.path.relpath(os.path.join(root, name), top)
            if path not in listed and marker.search(open(os.path.join(top, path), encoding="utf-8").read()):
                unlisted.append(path)
check(f"every file with translatable strings is in POTFILES.in (missing: {unlisted})", not unlisted)
missing = [p for p in listed if not os.path.exists(os.path.join(top, p))]
check(f"every file in POTFILES.in exists (missing: {missing})", not missing)

with tempfile.TemporaryDirectory() as tmp:
    pot = os.path.join(tmp, "template.pot")
    subprocess.run(["xgettext", "--package-name=agentskit-chat", "--from-code=UTF-8", "--add-comments",
                    "--keyword=_", "--keyword=N_", "--keyword=C_:1c,2", "--keyword=NC_:1c,2",
                    "--keyword=g_dngettext:2,3", "--keyword=g_dpgettext2:2c,3",
                    "-D", top, "-f", os.path.join(po_dir, "POTFILES.in"), "-o", pot],
                   check=True)
    languages = [l.strip() for l in open(os.path.join(po_dir, "LINGUAS")) if l.strip() and not l.startswith("#")]
    check(f"LINGUAS names at least one language ({languages})", languages)
    for lang in languages:
        merged = os.path.join(tmp, lang + ".po")
        subprocess.run(["msgmerge", "--quiet", "--no-fuzzy-matching", "-o", merged,
                        os.path.join(po_dir, lang + ".po"), pot], check=True)
        stats = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", merged],
                               capture_output=True, text=True)
        report = stats.stderr.strip()
        complete = stats.returncode == 0 and "untranslated" not in report and "fuzzy" not in report
        check(f"{lang}.po is complete and valid ({report})", complete)

sys.exit(finish())
