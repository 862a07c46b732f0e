#!/usr/bin/python3
"""The demo conversation reopens after a restart (TAP, over AT-SPI).

Runs agentskit-chat on a history of its own ($XDG_DATA_HOME in a temporary
folder): sends two messages with real key presses and quits with Ctrl+Q;
starts it again and finds the conversation in the transcript; adds a
message, ends it with SIGTERM (as a session logout does) and finds that
one too. Then damages the history file: the application still starts,
says the conversation is not being saved, and answers.

Then the Support demo across restarts, from the keyboard (issue 13 items 2
and 6): /support, the ticket chosen, its confirmation left pending, Ctrl+Q;
after the restart the transcript is what it was: the question answered
("You chose: …", not offered again), the one confirmation pending, no
duplicate and no empty row; approved with Tab and Enter, the ticket is
created once; after one more restart the settled card shows once and
nothing is pending.
"""

import os
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
import pyatspi  # noqa: E402
from gi.repository import Atspi  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402


def transcript(app):
    return ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")


def send_and_wait(app, text):
    ui.type_and_send(app, text)
    log = transcript(app)
    return ui.wait_for(lambda: f"AgentsKit received: {text}" in ui.texts_under(log) and
                       ui.find(app, role="push button", name="Send"), what=f"the reply to {text!r}")


def stored_demo(db):
    """The stored demo conversation, (role, content) in order, read directly."""
    with sqlite3.connect(db) as connection:
        check("the history passes integrity_check",
              connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
        return connection.execute("SELECT role, content FROM messages WHERE conversation_id = 'demo' "
                                  "ORDER BY position").fetchall()


CONFIRMATION = "Create a support ticket"
QUESTION = "Would you like a human support specialist to follow up?"
CREATED = "Ticket SUP-1 created for follow-up."


def key(keysym, shift=False):
    if shift:
        ui.press_with_modifiers(keysym, control=False, shift=True)
    else:
        Atspi.generate_keyboard_event(keysym, None, Atspi.KeySynthType.SYM)


def focused(acc):
    try:
        return acc.getState().contains(pyatspi.STATE_FOCUSED)
    except Exception:
        return False


def rows_of(app):
    """The rows of the transcript: for each, its name and its texts."""
    view = ui.find(transcript(app), role="list")
    out = []
    for i in range(view.childCount):
        item = view.getChildAtIndex(i)
        if item is None or item.getRoleName() != "list item":
            continue
        names = [acc.name for acc in pyatspi.findAllDescendants(item, lambda a: bool(a.name))]
        out.append((names[0] if names else "", ui.texts_under(item)))
    return out


def pending(app):
    group = ui.find(app, role="panel", name=CONFIRMATION)
    return group if group is not None and ui.find(group, role="push button", name="Approve") is not None else None


def transcript_is_clean(rows, label):
    """No row is empty, and none shows twice."""
    empty = [name for name, texts in rows if not name and not any(t.strip() for t in texts)]
    seen = [repr((name, texts)) for name, texts in rows]
    check(f"{label}: no empty row in the transcript ({[name for name, _ in rows]!r})", not empty)
    check(f"{label}: no row shows twice", len(seen) == len(set(seen)))


def run(exe, env, body):
    proc = ui.start_app(exe, env)
    try:
        body(proc, ui.find_app(proc))
    except ui.Timeout as e:
        check(str(e), False)
    finally:
        if proc.poll() is None:
            ui.stop_app(proc)


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-history-") as data:
        env = {"XDG_DATA_HOME": data}
        db = os.path.join(data, "agentskit-chat", "history.sqlite3")

        def first(proc, app):
            check("a first message is answered", send_and_wait(app, "remember me"))
            check("a second message is answered", send_and_wait(app, "and me"))
            ui.press_with_modifiers(ord("q"))
            check("Ctrl+Q quits", proc.wait(timeout=20) == 0)

        run(exe, env, first)
        check("the history is a file in $XDG_DATA_HOME/agentskit-chat", os.path.isfile(db))
        check("the history holds the demo conversation",
              stored_demo(db) == [("user", "remember me"), ("assistant", "AgentsKit received: remember me"),
                                  ("user", "and me"), ("assistant", "AgentsKit received: and me")])

        def second(proc, app):
            log = transcript(app)
            expected = ["remember me", "AgentsKit received: remember me", "and me", "AgentsKit received: and me"]
            check("after a restart, the transcript shows the conversation as it was",
                  ui.wait_for(lambda: all(t in ui.texts_under(log) for t in expected), what="the stored conversation"))
            check("the reopened conversation goes on", send_and_wait(app, "after restart"))
            proc.terminate()
            check("SIGTERM quits as Ctrl+Q does", proc.wait(timeout=20) == 0)

        run(exe, env, second)
        rows = stored_demo(db)
        check(f"what was said before SIGTERM is stored too ({len(rows)} messages)",
              len(rows) == 6 and rows[-1] == ("assistant", "AgentsKit received: after restart"))

        # A damaged history: the application starts anyway, and says so.
        for suffix in ("-wal", "-shm"):
            if os.path.exists(db + suffix):
                os.unlink(db + suffix)
        with open(db, "wb") as f:
            f.write(b"This is not a database at all, not even nearly." * 100)

        def damaged(proc, app):
            frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
            check("with a damaged history, the main window still opens", frame is not None)
            notice = ui.wait_for(lambda: [t for t in ui.texts_under(frame)
                                          if t.startswith("The conversation is not being saved.")],
                                 what="the notice")
            check(f"it says the conversation is not being saved, and why ({notice!r})", notice and "damaged" in notice[0])
            check("and the conversation works", send_and_wait(app, "still here"))

        run(exe, env, damaged)
        with open(db, "rb") as f:
            check("the damaged file is left as it was", f.read().startswith(b"This is not a database"))

    with tempfile.TemporaryDirectory(prefix="akc-pending-") as data:
        # The keyfile backend keeps which conversation was shown, as dconf
        # does for a person.
        env = {"XDG_DATA_HOME": data, "XDG_CONFIG_HOME": os.path.join(data, "config"),
               "GSETTINGS_BACKEND": "keyfile"}

        def keyboard_to(proc, app):
            frame = ui.wait_for(lambda: ui.find(app, role="frame"), what="the main window")
            extents = frame.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            Atspi.generate_mouse_event(extents.x + extents.width // 2, extents.y + 10, "abs")
            entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the entry")
            ui.wait_for(lambda: focused(entry), what="the composer to have the keyboard")
            return entry

        def leave_pending(proc, app):
            entry = keyboard_to(proc, app)
            key(0xFFC7)  # F10: the main menu; S: the Support demo
            ui.wait_for(lambda: ui.find(app, name="Support"), what="the menu")
            key(ord("s"))
            ui.wait_for(lambda: ui.find(app, role="label", name="Support") is not None and focused(entry),
                        what="the Support demo")
            ui.type_text("/support")
            ui.press_return()
            choice = ui.wait_for(lambda: ui.find(app, role="push button", name="Open support ticket"),
                                 what="the question")
            ui.wait_for(lambda: focused(choice), what="the question to take the keyboard")
            ui.press_return()
            group = ui.wait_for(lambda: pending(app), what="the confirmation")
            ui.wait_for(lambda: focused(ui.find(group, role="push button", name="Deny")),
                        what="the confirmation to take the keyboard")
            leave_pending.rows = rows_of(app)
            ui.press_with_modifiers(ord("q"))
            check("support: the confirmation is left pending, and Ctrl+Q quits", proc.wait(timeout=20) == 0)

        run(exe, env, leave_pending)

        def come_back_pending(proc, app):
            keyboard_to(proc, app)
            group = ui.wait_for(lambda: pending(app), timeout=30, what="the pending confirmation")
            rows = rows_of(app)
            check("after a restart, the pending confirmation comes back pending, with Deny and Approve",
                  group is not None and ui.find(group, role="push button", name="Deny") is not None)
            check("after a restart, the question shows answered, not offered again",
                  any("You chose: Open support ticket" in texts for _, texts in rows) and
                  not ui.find(app, role="push button", name="Open support ticket").getState().contains(
                      pyatspi.STATE_SENSITIVE))
            check(f"after a restart, the transcript is the one left ({[n for n, _ in rows]!r})",
                  rows == leave_pending.rows, repr(leave_pending.rows))
            check("after a restart, one confirmation", len(ui.find_all(app, role="panel", name=CONFIRMATION)) == 1)
            transcript_is_clean(rows, "after a restart")
            # Shift+Tab from the composer into the transcript, Tab on to Approve, Enter.
            key(0xFF09, shift=True)
            for _ in range(12):
                approve = ui.find(app, role="push button", name="Approve")
                if approve is not None and focused(approve):
                    break
                key(0xFF09)
                ui.wait_for(lambda: pyatspi.findDescendant(app, focused) is not None, what="the keyboard")
            ui.press_return()
            log = transcript(app)
            check("approved from the keyboard after the restart, the ticket is created",
                  ui.wait_for(lambda: pending(app) is None and any(CREATED in t for t in ui.texts_under(log)),
                              timeout=30, what="the ticket"))
            ui.wait_for(lambda: ui.find(app, role="push button", name="Send"), what="the reply to finish")
            ui.press_with_modifiers(ord("q"))
            proc.wait(timeout=20)

        run(exe, env, come_back_pending)

        def settled(proc, app):
            keyboard_to(proc, app)
            log = transcript(app)
            ui.wait_for(lambda: any(CREATED in t for t in ui.texts_under(log)), timeout=30, what="the settled card")
            rows = rows_of(app)
            texts = [t for _, row in rows for t in row]
            check(f"after one more restart, the settled card shows once ({texts.count(CREATED)})",
                  texts.count(CREATED) == 1)
            check("and nothing is pending, nor offered again",
                  pending(app) is None and
                  not ui.find(app, role="push button", name="Open support ticket").getState().contains(
                      pyatspi.STATE_SENSITIVE))
            check("the question shows once", texts.count(QUESTION) == 1)
            transcript_is_clean(rows, "after one more restart")
            ui.press_with_modifiers(ord("q"))
            proc.wait(timeout=20)

        run(exe, env, settled)

    return finish()


if __name__ == "__main__":
    sys.exit(main())
