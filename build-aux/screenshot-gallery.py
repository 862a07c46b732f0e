#!/usr/bin/python3
"""Opens the component gallery like a person and captures its window (see build-aux/screenshot-gallery)."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ui"))

import akc_atspi as ui  # noqa: E402

exe, out = sys.argv[1], sys.argv[2]
env = dict(os.environ)
env.pop("GTK_A11Y", None)
proc = subprocess.Popen([exe, "--gallery"], env=env, stdin=subprocess.DEVNULL)
try:
    app = ui.find_app(proc)
    frame = ui.wait_for(lambda: ui.find(app, role="frame", name="Component Gallery"), what="the gallery")
    ui.wait_for(lambda: ui.find(frame, role="table", name="Open tickets"), what="the table")
    log = ui.wait_for(lambda: ui.find(frame, role="log", name="Event log"), what="the event log")
    # Two events in the log: a resolved confirmation (inert from then on)...
    keep = ui.wait_for(lambda: ui.find(frame, role="push button", name="Keep"), what="the Keep button")
    keep.queryAction().doAction(0)
    ui.wait_for(lambda: sum("interaction" in t for t in ui.texts_under(log)) == 1, what="the first event")
    # ...and a source link whose handling fails (§12.7): un-resolved, with the message.
    fail = ui.find(frame, role="toggle button", name="Fail Next Event") or \
        ui.find(frame, role="push button", name="Fail Next Event")
    fail.queryAction().doAction(0)
    link = ui.wait_for(lambda: ui.find(frame, role="link", name="Release notes 0.4"), what="a source link")
    link.queryAction().doAction(0)
    ui.wait_for(lambda: ui.find(frame, role="alert", name="Component interaction callback failed."),
                what="the failure message")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    tree = subprocess.run(["xwininfo", "-root", "-tree"], check=True, capture_output=True, text=True).stdout
    window = next(line.split()[0] for line in tree.splitlines() if '"Component Gallery"' in line)
    subprocess.run(["import", "-window", window, out], check=True)
finally:
    ui.stop_app(proc)
