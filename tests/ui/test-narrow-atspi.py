#!/usr/bin/python3
"""No keystroke is lost at 360 px, from the start on (TAP, over AT-SPI).

Narrow, the window shows one pane at a time (AdwLeaflet). Starts
agentskit-chat at its narrowest width (the window-width setting, on the
keyfile backend) and types with real key presses as soon as its window is
there, as a person who starts the app and writes does: the keys must land,
visibly, in the composer of the conversation the window opens on. Then
the same after a restart on a history, and the narrow panes: the back
button's pane takes the keyboard with it, and opening a conversation
brings the keyboard to its composer. Last, a message and Enter typed at
once are sent, and the error of its reply stays.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import Atspi  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


def state(acc, which):
    try:
        return acc.getState().contains(which)
    except Exception:
        return False


def shows(app, acc):
    """Whether acc is what the window has at acc's middle: in the pane that
    shows. (GTK 4.8 reports no showing state, and the pane that does not
    show keeps its last extents.)"""
    try:
        extents = acc.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        frame = ui.find(app, role="frame")
        hit = frame.queryComponent().getAccessibleAtPoint(extents.x + extents.width // 2,
                                                           extents.y + extents.height // 2,
                                                           pyatspi.WINDOW_COORDS)
        return hit is not None and hit == acc
    except Exception:
        return False


def focused(app):
    return pyatspi.findDescendant(app, lambda a: state(a, pyatspi.STATE_FOCUSED))


def describe(app, acc):
    return None if acc is None else (acc.getRoleName(), acc.name, "shows" if shows(app, acc) else "hidden")


def start(exe, env, label):
    """Starts the app, waits for its window, moves the pointer over it (no
    window manager: the window under the pointer has the keyboard) and
    types at once."""
    proc = ui.start_app(exe, env)
    app = ui.find_app(proc)
    frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
    extents = frame.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    check(f"{label}: the window opens narrow ({extents.width} px)", extents.width <= 400)
    Atspi.generate_mouse_event(extents.x + extents.width // 2, extents.y + 10, "abs")
    return proc, app


def typed_lands(app, text, label):
    """What was typed ends up in the composer, which shows and keeps the
    keyboard; settles first, so that a keyboard moved on later is seen."""
    entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the message entry")
    try:
        ui.wait_for(lambda: ui.text_of(entry) == text, timeout=15, what="the typed text")
    except ui.Timeout:
        pass
    time.sleep(1.0)
    got = ui.text_of(entry)
    return check(f"{label}: typed at once, {text!r} lands in the composer, which shows and has the keyboard "
                 f"(entry {got!r}, focus {describe(app, focused(app))})",
                 got == text and shows(app, entry) and state(entry, pyatspi.STATE_FOCUSED))



def erase():
    """Empties the entry (Ctrl+A, BackSpace): an unsent draft would be
    back in it after the restart, before the message typed at once."""
    ui.press_with_modifiers(ord("a"))
    Atspi.generate_keyboard_event(0xFF08, None, Atspi.KeySynthType.SYM)
    time.sleep(0.5)

def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-narrow-") as tmp:
        settings = os.path.join(tmp, "config", "glib-2.0", "settings")
        os.makedirs(settings)
        with open(os.path.join(settings, "keyfile"), "w") as f:
            f.write("[io/agentskit/Chat]\nwindow-width=360\nwindow-height=640\n")
        env = {"XDG_DATA_HOME": os.path.join(tmp, "data"), "XDG_CONFIG_HOME": os.path.join(tmp, "config"),
               "XDG_CACHE_HOME": os.path.join(tmp, "cache"), "GSETTINGS_BACKEND": "keyfile"}

        proc, app = start(exe, env, "first start")
        try:
            ui.type_text("hello narrow")
            if typed_lands(app, "hello narrow", "first start"):
                ui.press_return()
                log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
                check("first start: Enter sends it and the demo answers",
                      ui.wait_for(lambda: "AgentsKit received: hello narrow" in ui.texts_under(log) and
                                  ui.find(app, role="push button", name="Send"), what="the reply"))
            ui.press_with_modifiers(ord("q"))
            proc.wait(timeout=30)
        except (ui.Timeout, Exception) as e:
            check(f"first start: {e}", False)
        finally:
            if proc.poll() is None:
                ui.stop_app(proc)

        proc, app = start(exe, env, "restart on the history")
        try:
            ui.type_text("once more")
            typed_lands(app, "once more", "restart on the history")
            erase()
            log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
            check("restart on the history: the conversation of before is shown",
                  ui.wait_for(lambda: "AgentsKit received: hello narrow" in ui.texts_under(log), timeout=15,
                              what="the conversation of before"))

            # The back button: the list of conversations has the keyboard.
            back = ui.wait_for(lambda: ui.find(app, role="push button", name="Back to Conversations"),
                               what="the back button")
            ui.click(back)
            entry = ui.find(app, role="text", name="Message")
            ui.wait_for(lambda: not shows(app, entry), timeout=15,
                        what="the list of conversations")
            time.sleep(1.0)
            focus = focused(app)
            check(f"the back button shows the conversations, and the keyboard is in what shows "
                  f"(focus {describe(app, focus)})",
                  focus is not None and shows(app, focus))
            ui.press_with_modifiers(ord("n"))
            entry = ui.find(app, role="text", name="Message")
            ui.wait_for(lambda: shows(app, entry), timeout=15, what="the new chat")
            ui.type_text("new one")
            typed_lands(app, "new one", "Ctrl+N from the list of conversations")
            erase()
        except (ui.Timeout, Exception) as e:
            check(f"restart on the history: {e}", False)
        finally:
            ui.stop_app(proc)

        # A message and Enter typed at once, on a history: it is sent (not
        # left in the entry), and its error stays when the history has been
        # read meanwhile.
        proc, app = start(exe, env, "restart, a message sent at once")
        try:
            ui.type_text("/fail")
            ui.press_return()
            entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the message entry")
            alert = ui.wait_for(lambda: ui.find(app, role="alert"), timeout=30, what="the error of /fail")
            time.sleep(2.0)
            check("a message and Enter typed at once are sent, and the error of its reply stays "
                  f"(entry {ui.text_of(entry)!r})",
                  ui.text_of(entry) == "" and ui.find(app, role="alert") is not None and
                  "The deterministic adapter failed as requested." in ui.texts_under(alert))
        except (ui.Timeout, Exception) as e:
            check(f"restart, a message sent at once: {e}", False)
        finally:
            ui.stop_app(proc)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
