"""Drives AgentsKit Chat from outside through the accessibility bus.

Used by the out-of-process UI test and by build-aux/screenshot. Run with
/usr/bin/python3 (Debian's, which has gi and pyatspi) inside a private
D-Bus session and an X display.
"""

import os
import subprocess
import tempfile
import time

import pyatspi
import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


class Timeout(Exception):
    pass


_watched = []


def watch(proc):
    """Makes wait_for raise AppDied at once when proc (the app) has ended,
    with its exit status, instead of waiting out each deadline for an app
    that is gone (one per remaining check)."""
    _watched[:] = [proc]


def wait_for(predicate, timeout=30.0, what="condition"):
    """Polls predicate() until it returns a true value, or raises Timeout.

    The deadline is generous on purpose: it only bounds a hang, and a loaded
    2-core machine can take seconds to deliver an accessibility event."""
    deadline = time.monotonic() + timeout
    while True:
        for proc in _watched:
            status = proc.poll()
            if status is not None:
                raise AppDied(f"{ended(status)}, while waiting for {what}")
        try:
            value = predicate()
        except Exception:  # the tree changes under us while the app works
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise Timeout(f"timed out waiting for {what}")
        time.sleep(0.05)


def app_environment(env):
    """The app's own G_DEBUG: AKC_APP_G_DEBUG when set (the AT-SPI tests set
    it to fatal-warnings, as the in-process tests run, so that a warning or
    critical the app prints stops it and fails the test), never the
    environment's G_DEBUG, which the bus, the accessibility registry and the
    test itself share."""
    env = dict(env)
    debug = env.pop("AKC_APP_G_DEBUG", None)
    if debug:
        env["G_DEBUG"] = debug
    return env


def start_app(exe, extra_env=None):
    env = dict(os.environ)
    env.setdefault("GSETTINGS_BACKEND", "memory")
    data = None
    if not extra_env or "XDG_DATA_HOME" not in extra_env:
        # The app keeps its history in $XDG_DATA_HOME: an empty one of its
        # own for each run, never the user's.
        data = tempfile.TemporaryDirectory(prefix="akc-ui-data-")
        env["XDG_DATA_HOME"] = data.name
    if extra_env:
        env.update(extra_env)
    env.pop("GTK_A11Y", None)  # the AT-SPI backend is the default
    proc = subprocess.Popen([exe], env=app_environment(env), stdin=subprocess.DEVNULL)
    proc.akc_data = data  # removed when the process object goes
    return proc


def find_app(proc, timeout=45.0):
    def lookup():
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            try:
                if app is not None and app.get_process_id() == proc.pid:
                    return app
            except Exception:
                continue
        return None

    return wait_for(lookup, timeout, "the application on the accessibility bus")


def find(root, role=None, name=None, showing=False):
    """Finds the first descendant with the given role name and name."""
    def match(acc):
        try:
            if role is not None and acc.getRoleName() != role:
                return False
            if name is not None and acc.name != name:
                return False
            return True
        except Exception:
            return False

    return pyatspi.findDescendant(root, match)


def find_all(root, role=None, name=None):
    def match(acc):
        try:
            return (role is None or acc.getRoleName() == role) and (name is None or acc.name == name)
        except Exception:
            return False

    return pyatspi.findAllDescendants(root, match)


def texts_under(acc):
    """Returns the names and text of every label below acc."""
    out = []
    for label in find_all(acc, role="label"):
        try:
            text = label.queryText()
            out.append(text.getText(0, text.characterCount))
        except Exception:
            out.append(label.name)
    return out


def click(acc):
    """Clicks the middle of acc with the pointer (focuses its window too).

    GTK 4 reports window coordinates only; without a window manager the
    window sits at the origin of the X screen, so they are screen coordinates.
    """
    extents = acc.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
    x = extents.x + extents.width // 2
    y = extents.y + extents.height // 2
    Atspi.generate_mouse_event(x, y, "abs")
    Atspi.generate_mouse_event(x, y, "b1c")


def text_of(acc):
    text = acc.queryText()
    return text.getText(0, text.characterCount)


def type_and_send(app, message):
    """Puts message in the composer and presses Enter, as a person would."""
    entry = wait_for(lambda: find(app, role="text", name="Message"), what="the message entry")
    # Wait until the entry takes input again (it is disabled while a reply streams).
    wait_for(lambda: entry.getState().contains(pyatspi.STATE_SENSITIVE), what="the entry to be enabled")
    # The keyboard goes to the focused widget of the window under the
    # pointer: click the entry and wait until it reports the focus.
    wait_for(lambda: click(entry) or entry.getState().contains(pyatspi.STATE_FOCUSED),
             what="the entry to take the focus")
    for char in message:
        # Latin-1 characters have keysyms equal to their code points.
        Atspi.generate_keyboard_event(ord(char), None, Atspi.KeySynthType.SYM)
    wait_for(lambda: text_of(entry) == message, what="the typed text in the entry")
    Atspi.generate_keyboard_event(0xFF0D, None, Atspi.KeySynthType.SYM)  # Return


def press_escape():
    Atspi.generate_keyboard_event(0xFF1B, None, Atspi.KeySynthType.SYM)


def press_return():
    Atspi.generate_keyboard_event(0xFF0D, None, Atspi.KeySynthType.SYM)


# X modifier masks, locked around a key press (AT-SPI has no "hold this
# key" for keysyms).
SHIFT_MASK = 1 << 0
CONTROL_MASK = 1 << 2


def press_with_modifiers(keysym, control=True, shift=False):
    """Presses keysym (an X keysym) with Control and/or Shift down."""
    mask = (CONTROL_MASK if control else 0) | (SHIFT_MASK if shift else 0)
    Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.LOCKMODIFIERS)
    try:
        Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)
    finally:
        Atspi.generate_keyboard_event(mask, None, Atspi.KeySynthType.UNLOCKMODIFIERS)


def type_text(text):
    for char in text:
        # Latin-1 characters have keysyms equal to their code points.
        Atspi.generate_keyboard_event(ord(char), None, Atspi.KeySynthType.SYM)


class AppDied(Exception):
    pass


def ended(status):
    """What an exit status of the app says."""
    return (f"the app ended by itself with status {status}"
            + (" (SIGTRAP: a fatal warning or critical, see its stderr)" if status == -5 else ""))


def stop_app(proc):
    """Stops the app; raises AppDied when it had already failed by itself (a
    fatal warning under G_DEBUG=fatal-warnings ends it with SIGTRAP, its
    message on the app's stderr), so that the test fails even when every
    check before passed."""
    status = proc.poll()
    if status is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        return
    if status != 0:
        raise AppDied(ended(status))
