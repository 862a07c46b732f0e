#!/usr/bin/python3
"""Drives the app like a person and captures its window (see build-aux/screenshot)."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ui"))

import akc_atspi as ui  # noqa: E402

exe, out = sys.argv[1], sys.argv[2]
proc = ui.start_app(exe)
try:
    app = ui.find_app(proc)
    ui.type_and_send(app, "Hello! What can you do offline?")
    log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
    ui.wait_for(lambda: "AgentsKit received: Hello! What can you do offline?" in ui.texts_under(log),
                what="the streamed reply")
    ui.wait_for(lambda: ui.find(app, role="push button", name="Send"), what="the reply to finish")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    # The toplevel X window of the app, by its title: the conversation's,
    # titled from its first message.
    tree = subprocess.run(["xwininfo", "-root", "-tree"], check=True, capture_output=True, text=True).stdout
    window = next(line.split()[0] for line in tree.splitlines() if '"Hello! What can you do offline?"' in line)
    subprocess.run(["import", "-window", window, out], check=True)
finally:
    ui.stop_app(proc)
