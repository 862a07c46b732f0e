#!/usr/bin/python3
"""Many conversations with real keys (issue 14; TAP, over AT-SPI).

Runs agentskit-chat on a history of its own ($XDG_DATA_HOME in a temporary
folder), with key presses only: a message, Ctrl+N and a second one, Ctrl+Q;
after the restart both conversations are in the sidebar and the first one
kept its messages (New Chat never erases). Up and Down move the keyboard
along the sidebar without opening what they pass; Enter opens. Ctrl+Shift+F filters the sidebar by
title; F2 renames in place; Delete hides a conversation and shows a toast,
Ctrl+Z brings it back; a kill -9 while the undo is offered keeps it in
the history, a clean quit deletes it.
"""

import os
import signal
import sqlite3
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import akc_atspi as ui  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from tap import check, finish  # noqa: E402

KEY_F2 = 0xFFBF
KEY_DELETE = 0xFFFF
KEY_DOWN = 0xFF54
KEY_UP = 0xFF52



def key(keysym):
    ui.Atspi.generate_keyboard_event(keysym, None, ui.Atspi.KeySynthType.SYM)


def send_and_wait(app, text):
    ui.type_and_send(app, text)
    log = ui.wait_for(lambda: ui.find(app, role="log", name="Messages"), what="the transcript")
    return ui.wait_for(lambda: f"AgentsKit received: {text}" in ui.texts_under(log) and
                       ui.find(app, role="push button", name="Send"), what=f"the reply to {text!r}")


def sidebar(app):
    return ui.wait_for(lambda: ui.find(app, role="list", name="Conversations"), what="the sidebar")


def row_names(app):
    """The accessible names of the sidebar's conversations ("title,
    assistant, time")."""
    names = []
    for acc in ui.find_all(sidebar(app), role="list item"):
        try:
            name = acc.name
        except Exception:
            continue
        if name and ", Hello World, " in name:
            names.append(name)
    return names


def has_row(app, title):
    return any(name.startswith(f"{title}, ") for name in row_names(app))


def row_named(app, title):
    for acc in ui.find_all(sidebar(app), role="list item"):
        try:
            if acc.name.startswith(f"{title}, "):
                return acc
        except Exception:
            continue
    return None


def focused_row(app):
    """The title of the sidebar row the keyboard is on, or None."""
    for acc in ui.find_all(sidebar(app), role="list item"):
        try:
            if acc.getState().contains(ui.pyatspi.STATE_FOCUSED) and ", Hello World, " in acc.name:
                return acc.name.split(", Hello World, ")[0]
        except Exception:
            continue
    return None


def frame_title(app):
    frame = ui.find(app, role="frame")
    return frame.name if frame is not None else None


def frame_named(app, title):
    return ui.wait_for(lambda: ui.find(app, role="frame", name=title), what=f"the window named {title!r}")


def stored(db):
    with sqlite3.connect(db) as connection:
        return dict(connection.execute("SELECT id, title FROM conversations").fetchall())


def focus_window(app):
    """Without a window manager a new window has the keyboard once it was
    clicked: click the composer, as a person would."""
    entry = ui.wait_for(lambda: ui.find(app, role="text", name="Message"), what="the message entry")
    ui.wait_for(lambda: ui.click(entry) or entry.getState().contains(ui.pyatspi.STATE_FOCUSED),
                what="the window to take the keyboard")


def run(exe, env, body):
    proc = ui.start_app(exe, env)
    try:
        body(proc, ui.find_app(proc))
    except ui.Timeout as e:
        check(str(e), False)
    finally:
        if proc.poll() is None:
            ui.stop_app(proc)


def search(app, text):
    """Ctrl+Shift+F (Ctrl+F finds in the conversation when the keyboard is
    there), then text, as typed."""
    ui.press_with_modifiers(ord("f"), shift=True)
    entry = ui.wait_for(lambda: ui.find(app, name="Search Conversations", role="entry"),
                        what="the search entry")
    ui.wait_for(lambda: entry.getState().contains(ui.pyatspi.STATE_FOCUSED), what="the search entry's focus")
    ui.press_with_modifiers(ord("a"))  # what was searched before is replaced
    ui.type_text(text)
    ui.wait_for(lambda: ui.text_of(entry) == text, what="the search text")


def select_only_result(app, text):
    """Filters the list down to one conversation and selects it; the
    keyboard is in the list."""
    search(app, text)
    ui.wait_for(lambda: len(row_names(app)) == 1, what=f"one conversation matching {text!r}")
    ui.press_return()  # from the search into the list, on the first result


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory(prefix="akc-conversations-") as data:
        env = {"XDG_DATA_HOME": data}
        db = os.path.join(data, "agentskit-chat", "history.sqlite3")

        def first(proc, app):
            frame_named(app, "New Chat")
            check("a first message is answered", send_and_wait(app, "remember this chat"))
            check("the window is named after the first message", frame_named(app, "remember this chat"))
            ui.press_with_modifiers(ord("n"))
            check("Ctrl+N shows a new conversation", frame_named(app, "New Chat"))
            check("the first conversation stays in the sidebar",
                  ui.wait_for(lambda: has_row(app, "remember this chat")))
            check("the new conversation is answered", send_and_wait(app, "second chat"))
            ui.press_with_modifiers(ord("q"))
            check("Ctrl+Q quits", proc.wait(timeout=20) == 0)

        run(exe, env, first)
        titles = stored(db)
        check(f"the history holds both conversations, titled (got {titles})",
              sorted(titles.values()) == ["remember this chat", "second chat"])

        def second(proc, app):
            check("after a restart the newest conversation is shown", frame_named(app, "second chat"))
            focus_window(app)
            check("after a restart both conversations are in the sidebar",
                  ui.wait_for(lambda: has_row(app, "remember this chat") and has_row(app, "second chat")))

            # Arrows move the keyboard along the sidebar; only Enter opens.
            shown = ui.wait_for(lambda: row_named(app, "second chat"), what="the row of the shown conversation")
            ui.wait_for(lambda: ui.click(shown) or focused_row(app) == "second chat",
                        what="the keyboard on the row of the shown conversation")
            key(KEY_DOWN)
            check("Down moves the keyboard to the next conversation of the sidebar",
                  ui.wait_for(lambda: focused_row(app) == "remember this chat", timeout=10, what="the next row"))
            check(f"Down does not open the conversation it moves to (shown: {frame_title(app)!r})",
                  frame_title(app) == "second chat")
            key(KEY_UP)
            check("Up moves the keyboard back, over the day heading never",
                  ui.wait_for(lambda: focused_row(app) == "second chat", timeout=10, what="the row above"))
            key(KEY_UP)
            check("Up on the first conversation stays on it (not on its day heading)",
                  ui.wait_for(lambda: focused_row(app) == "second chat", timeout=10, what="the first row"))
            key(KEY_DOWN)
            ui.wait_for(lambda: focused_row(app) == "remember this chat", timeout=10, what="the next row")
            ui.press_return()
            check("Enter opens the conversation the keyboard is on", frame_named(app, "remember this chat"))

            # Search by title.
            search(app, "remember")
            check("Ctrl+Shift+F and a word leave only the conversations with it in their title",
                  ui.wait_for(lambda: row_names(app) and all(n.startswith("remember this chat, ") for n in row_names(app))))
            ui.type_text("zzz")
            check("a search that finds nothing says so",
                  ui.wait_for(lambda: ui.find(app, name="No Results") and not row_names(app)))
            ui.press_escape()
            check("Escape ends the search: every conversation is back", ui.wait_for(lambda: len(row_names(app)) == 2))

            # Search by message text: "received" is only in the replies.
            search(app, "received")
            check("Ctrl+Shift+F finds conversations by the text of their messages (neither title has the word)",
                  ui.wait_for(lambda: len(row_names(app)) == 2))
            ui.press_escape()

            # Rename in place.
            select_only_result(app, "remember")
            check("Enter on the result shows that conversation", frame_named(app, "remember this chat"))
            key(KEY_F2)
            entry = ui.wait_for(lambda: ui.find(app, role="text", name="Title"), what="the title entry")
            ui.wait_for(lambda: entry.getState().contains(ui.pyatspi.STATE_FOCUSED), what="the title entry's focus")
            ui.press_with_modifiers(ord("a"))
            ui.type_text("Renamed by keys")
            ui.wait_for(lambda: ui.text_of(entry) == "Renamed by keys", what="the new title typed")
            ui.press_return()
            check("F2, a title and Enter rename the conversation", ui.wait_for(lambda: has_row(app, "Renamed by keys")))
            check("the window takes the new title", frame_named(app, "Renamed by keys"))
            check("the new title is stored", ui.wait_for(lambda: "Renamed by keys" in stored(db).values()))
            ui.press_escape()
            check("Escape in the results (the keyboard in the list) ends the search too",
                  ui.wait_for(lambda: len(row_names(app)) == 2))

            # Delete, then undo (at once: the toast goes after a while).
            select_only_result(app, "Renamed")
            key(KEY_DELETE)
            check("Delete shows the toast Deleted \u00abtitle\u00bb",
                  ui.wait_for(lambda: ui.find(app, name="Deleted \u00abRenamed by keys\u00bb")))
            # Nothing else matches the search: the keyboard goes back to it.
            search_entry = ui.find(app, name="Search Conversations", role="entry")
            check("with nothing left to list, the keyboard is in the search",
                  ui.wait_for(lambda: search_entry.getState().contains(ui.pyatspi.STATE_FOCUSED)))
            ui.press_with_modifiers(ord("z"))
            check("Ctrl+Z brings it back", ui.wait_for(lambda: has_row(app, "Renamed by keys")))

            # Delete again and crash during the undo window.
            key(KEY_DELETE)
            check("the conversation leaves the sidebar at once", ui.wait_for(lambda: not has_row(app, "Renamed by keys")))
            check("the history still holds it while the undo is offered", len(stored(db)) == 2)
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=20)

        run(exe, env, second)
        check("a kill -9 during the undo window keeps the conversation", len(stored(db)) == 2)

        def third(proc, app):
            check("after the crash it is in the sidebar", ui.wait_for(lambda: has_row(app, "Renamed by keys")))
            focus_window(app)
            select_only_result(app, "Renamed")
            key(KEY_DELETE)
            ui.wait_for(lambda: not has_row(app, "Renamed by keys"), what="the conversation to go")
            ui.press_with_modifiers(ord("q"))
            check("Ctrl+Q quits while the undo is offered", proc.wait(timeout=20) == 0)

        run(exe, env, third)
        check("a clean quit deletes it from the history", list(stored(db).values()) == ["second chat"])

    return finish()


if __name__ == "__main__":
    sys.exit(main())
