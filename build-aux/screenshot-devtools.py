#!/usr/bin/python3
"""Drives the app like a person and captures its Developer Tools (see build-aux/screenshot-devtools)."""

import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "ui"))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import Atspi  # noqa: E402

KEY_RETURN = 0xFF0D
KEYCODE_ALT_L = 64

ANSWER = [
    {"type": "text", "delta": "AgentsKit Chat is a GTK chat app "},
    {"type": "text", "delta": "for the AgentsKit protocols."},
    {"type": "tool", "id": "cite-1", "name": "cite",
     "args": {"sources": [{"title": "AgentsKit Chat overview", "path": "/docs/overview"}]}},
    {"type": "done", "model": "ask-demo"},
]


class AskHandler(http.server.BaseHTTPRequestHandler):
    """A loopback Ask service: NDJSON, one event at a time."""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-ndjson; charset=utf-8")
        self.end_headers()
        for event in ANSWER:
            self.wfile.write((json.dumps(event) + "\n").encode())
            self.wfile.flush()
            time.sleep(0.1)

    def log_message(self, *args):
        pass


def window_of(title):
    tree = subprocess.run(["xwininfo", "-root", "-tree"], check=True, capture_output=True, text=True).stdout
    return next(line.split()[0] for line in tree.splitlines() if f'"{title}"' in line)


def capture(title, path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    subprocess.run(["import", "-window", window_of(title), path], check=True)


def focused(acc):
    try:
        return acc.getState().contains(pyatspi.STATE_FOCUSED)
    except Exception:
        return False


def start(exe, config, settings):
    folder = os.path.join(config, "glib-2.0", "settings")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "keyfile"), "w", encoding="utf-8") as f:
        f.write("[io/agentskit/Chat]\n" + "".join(f"{k}={v}\n" for k, v in settings.items()))
    proc = ui.start_app(exe, {"GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": config})
    app = ui.find_app(proc)
    frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
    # No window manager: the window under the pointer gets the keyboard.
    extents = frame.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    Atspi.generate_mouse_event(extents.x + extents.width // 2, extents.y + 10, "abs")
    entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the composer")
    ui.wait_for(lambda: focused(entry), what="the composer to have the keyboard")
    return proc, app


def open_tools(app):
    ui.press_with_modifiers(ord("d"), control=True, shift=True)
    return ui.wait_for(lambda: ui.find(app, role="frame", name="Developer Tools"), what="the Developer Tools")


def operations(exe, out):
    with tempfile.TemporaryDirectory(prefix="akc-shot-config-") as config:
        proc, app = start(exe, config, {"conversation": "'operations'", "developer-tools": "true"})
        try:
            ui.type_and_send(app, "/operations")
            button = ui.wait_for(lambda: ui.find(app, role="push button", name="Read status"), what="Read status")
            ui.wait_for(lambda: focused(button) or pyatspi.findDescendant(button, focused), what="the choice to have the keyboard")
            Atspi.generate_keyboard_event(KEY_RETURN, None, Atspi.KeySynthType.SYM)
            tools = open_tools(app)
            ui.wait_for(lambda: ui.find(tools, name="Action “read-operation-status” is pending"), what="the action's record")
            time.sleep(0.5)
            capture("Developer Tools", os.path.join(out, "developer-tools.png"))
        finally:
            ui.stop_app(proc)


def ask(exe, out):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), AskHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{server.server_address[1]}/v1/ask"
    with tempfile.TemporaryDirectory(prefix="akc-shot-config-") as config:
        proc, app = start(exe, config, {"conversation": "'ask'", "ask-endpoint": f"'{endpoint}'",
                                        "developer-tools": "true"})
        try:
            ui.type_and_send(app, "What is AgentsKit Chat?")
            ui.wait_for(lambda: ui.find(app, role="push button", name="Send") and
                        "for the AgentsKit protocols." in " ".join(ui.texts_under(app)), what="the answer")
            tools = open_tools(app)
            if os.environ.get("AKC_SHOT_NOTICE"):
                time.sleep(0.5)
                capture("Developer Tools", os.environ["AKC_SHOT_NOTICE"])
            Atspi.generate_keyboard_event(KEYCODE_ALT_L, None, Atspi.KeySynthType.PRESS)
            try:
                Atspi.generate_keyboard_event(ord("2"), None, Atspi.KeySynthType.SYM)
            finally:
                Atspi.generate_keyboard_event(KEYCODE_ALT_L, None, Atspi.KeySynthType.RELEASE)
            ui.wait_for(lambda: ui.find(tools, name="Sent a request to the Ask service"), what="the request's row")
            time.sleep(0.5)
            capture("Developer Tools", os.path.join(out, "developer-tools-wire.png"))
        finally:
            ui.stop_app(proc)
            server.shutdown()


exe, out = sys.argv[1], sys.argv[2]
operations(exe, out)
ask(exe, out)
