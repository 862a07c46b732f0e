#!/usr/bin/python3
"""Out-of-process test of the Developer Tools (issue 19), with real keys (TAP).

* Until the preferences turn them on, the main menu does not offer the
  Developer Tools; Ctrl+Shift+D opens them all the same.
* They show the conversation's traces in sentences (a route of the
  hello-world demo); Alt+2 shows the Wire Events page, Alt+1 the traces
  again (Alt held as a person holds it); the pages, lists and Save Replay
  Fixture… are named; Escape closes them.
* With the developer-tools setting on (kept in GSettings: a keyfile here),
  the main menu offers them and its item opens them.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import Atspi  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


KEY_F10 = 0xFFC7
KEY_ESCAPE = 0xFF1B
KEYCODE_ALT_L = 64
ROUTE = "Route “start” answered: idle → collecting"


def key(keysym):
    Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


def press_alt(keysym):
    """Holds Alt (the left Alt key, keycode 64 of the X server's keymap)
    around keysym, as a person does: a locked Mod1 is not seen as Alt."""
    Atspi.generate_keyboard_event(KEYCODE_ALT_L, None, Atspi.KeySynthType.PRESS)
    try:
        key(keysym)
    finally:
        Atspi.generate_keyboard_event(KEYCODE_ALT_L, None, Atspi.KeySynthType.RELEASE)


def has_state(acc, state):
    try:
        return acc.getState().contains(state)
    except Exception:
        return False


def start(exe, extra_env=None):
    proc = ui.start_app(exe, extra_env)
    app = ui.find_app(proc)
    frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
    # No window manager: the window under the pointer gets the keyboard.
    extents = frame.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    Atspi.generate_mouse_event(extents.x + extents.width // 2, extents.y + 10, "abs")
    entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the composer")
    ui.wait_for(lambda: has_state(entry, pyatspi.STATE_FOCUSED), what="the composer to have the keyboard")
    return proc, app


def menu_items(app):
    key(KEY_F10)
    ui.wait_for(lambda: ui.find(app, role="menu item", name="Preferences"), what="the main menu")
    return [item for item in ui.find_all(app, role="menu item") if has_state(item, pyatspi.STATE_VISIBLE)]


def selected_tab(frame):
    """The name of the page tab that is selected (GTK 4.8 does not say
    which widgets are showing)."""
    tabs = [t for t in ui.find_all(frame, role="page tab") if has_state(t, pyatspi.STATE_SELECTED)]
    names = {t.name for t in tabs}
    return names.pop() if len(names) == 1 else None


def tools(app):
    return ui.find(app, role="frame", name="Developer Tools")


def run_hidden(exe):
    proc, app = start(exe)
    try:
        items = menu_items(app)
        check("the main menu does not offer the Developer Tools until the preferences turn them on",
              not any(item.name == "Developer Tools" for item in items))
        key(KEY_ESCAPE)
        ui.wait_for(lambda: ui.find(app, role="menu item", name="Preferences") is None or
                    not has_state(ui.find(app, role="menu item", name="Preferences"), pyatspi.STATE_SHOWING),
                    what="the menu to close")

        ui.type_and_send(app, "/start")
        ui.wait_for(lambda: "What is your name?" in ui.texts_under(app), what="the reply")
        ui.press_with_modifiers(ord("d"), control=True, shift=True)
        frame = ui.wait_for(lambda: tools(app), what="the Developer Tools")
        check("Ctrl+Shift+D opens the Developer Tools", frame is not None)

        route = ui.wait_for(lambda: ui.find(frame, name=ROUTE), what="the route's record")
        records = ui.find(frame, role="list", name="Trace records")
        check("the traces page lists the demo's route in a sentence, in a list named Trace records",
              route is not None and records is not None)
        save = ui.find(frame, role="push button", name="Save Replay Fixture…")
        check("Save Replay Fixture… is named and enabled", save is not None and has_state(save, pyatspi.STATE_SENSITIVE))

        check("the two pages are named tabs",
              ui.find_all(frame, role="page tab", name="Traces") and ui.find_all(frame, role="page tab", name="Wire Events"))
        press_alt(ord("2"))
        check("Alt+2 shows the Wire Events page",
              ui.wait_for(lambda: selected_tab(frame) == "Wire Events", what="the Wire Events page"))
        check("an offline demo sends nothing over a wire: the page says so",
              ui.find(frame, name="No Wire Events Yet") is not None)
        press_alt(ord("1"))
        check("Alt+1 shows the traces again",
              ui.wait_for(lambda: selected_tab(frame) == "Traces", what="the Traces page"))

        key(KEY_ESCAPE)
        ui.wait_for(lambda: tools(app) is None, what="Escape to close the Developer Tools")
        check("Escape closes the Developer Tools", True)
    finally:
        ui.stop_app(proc)


def run_enabled(exe):
    with tempfile.TemporaryDirectory(prefix="akc-inspector-config-") as config:
        folder = os.path.join(config, "glib-2.0", "settings")
        os.makedirs(folder)
        with open(os.path.join(folder, "keyfile"), "w", encoding="utf-8") as f:
            f.write("[io/agentskit/Chat]\ndeveloper-tools=true\n")
        proc, app = start(exe, {"GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": config})
        try:
            items = menu_items(app)
            item = next((item for item in items if item.name == "Developer Tools"), None)
            check("with the setting on, the main menu offers the Developer Tools", item is not None)
            if item is not None:
                item.queryAction().doAction(0)
                check("the menu item opens the Developer Tools",
                      ui.wait_for(lambda: tools(app), what="the Developer Tools") is not None)
        finally:
            ui.stop_app(proc)


def main():
    exe = sys.argv[1]
    for run in (run_hidden, run_enabled):
        try:
            run(exe)
        except ui.Timeout as e:
            check(f"{run.__name__}: {e}", False)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
